import type { PythonImport, PythonSource } from './parse-python-imports.js';

/**
 * Who imports whom among a project's .py files (paths relative to the gate's folder, `/`-separated),
 * as file → the files that import it. Deliberately generous: a module name is looked up in every
 * folder that could be on sys.path (the root, `src/`, a test's own folder, any folder that is not
 * a package), so it may match several files, and each of them counts.
 */
export function findImporters(paths: string[], sources: Map<string, PythonSource>): Map<string, Set<string>> {
  const index = indexModules(paths);
  const importers = new Map<string, Set<string>>();
  for (const [file, source] of sources) {
    const imported = new Set<string>(packageChain(index, parentOf(file)));
    for (const entry of source.imports) for (const target of resolveImport(index, file, entry)) imported.add(target);
    imported.delete(file);
    for (const target of imported) {
      const set = importers.get(target);
      if (set) set.add(file);
      else importers.set(target, new Set([file]));
    }
  }
  return importers;
}

interface ModuleIndex {
  files: Set<string>;
  /** Folder → the names in it: `x` for x.py and for a subfolder x holding Python files. */
  children: Map<string, Set<string>>;
  /** A top-level name → the .py files and folders that could be imported under it. */
  topLevel: Map<string, string[]>;
}

function indexModules(paths: string[]): ModuleIndex {
  const files = new Set(paths);
  const children = new Map<string, Set<string>>();
  const add = (dir: string, name: string) => children.set(dir, (children.get(dir) ?? new Set()).add(name));
  for (const path of paths) {
    let child = path;
    for (let dir = parentOf(path); ; dir = parentOf(dir)) {
      add(dir, nameOf(child));
      if (dir === '') break;
      child = dir;
    }
  }
  const isPackage = (dir: string) => dir !== '' && files.has(`${dir}/__init__.py`);
  const topLevel = new Map<string, string[]>();
  for (const [dir, names] of children) {
    if (isPackage(dir)) continue;
    for (const name of names) {
      if (name === '__init__.py' || !/^[A-Za-z_]\w*(?:\.py)?$/.test(name)) continue;
      const module = name.replace(/\.py$/, '');
      const locations = topLevel.get(module);
      if (locations) locations.push(joinPath(dir, name));
      else topLevel.set(module, [joinPath(dir, name)]);
    }
  }
  return { files, children, topLevel };
}

function resolveImport(index: ModuleIndex, file: string, entry: PythonImport): string[] {
  const parts = entry.module === '' ? [] : entry.module.split('.');
  const found = { files: new Set<string>(), packages: new Set<string>() };
  if (entry.level === 0) {
    const [first, ...rest] = parts;
    for (const location of index.topLevel.get(first ?? '') ?? []) descend(index, location, rest, found);
  } else {
    let base = parentOf(file);
    for (let up = 1; up < entry.level; up++) base = parentOf(base);
    descend(index, base, parts, found);
  }
  const packages = [...found.packages];
  for (const name of entry.names) {
    for (const dir of packages) {
      const names = name === '*' ? [...(index.children.get(dir) ?? [])] : [name, `${name}.py`];
      for (const child of names) if (index.children.get(dir)?.has(child)) descend(index, joinPath(dir, child), [], found);
    }
  }
  return [...found.files];
}

// Importing a.b.c runs a/__init__.py, a/b/__init__.py and a/b/c.py (or a/b/c/__init__.py).
function descend(index: ModuleIndex, location: string, parts: string[], found: { files: Set<string>; packages: Set<string> }): void {
  if (location.endsWith('.py')) {
    found.files.add(location);
    return;
  }
  const init = joinPath(location, '__init__.py');
  if (index.files.has(init)) found.files.add(init);
  const [next, ...rest] = parts;
  if (next === undefined) {
    found.packages.add(location);
    return;
  }
  const names = index.children.get(location);
  if (names?.has(`${next}.py`)) descend(index, joinPath(location, `${next}.py`), rest, found);
  if (names?.has(next)) descend(index, joinPath(location, next), rest, found);
}

// A module inside packages runs their __init__.py files first.
function packageChain(index: ModuleIndex, dir: string): string[] {
  const chain: string[] = [];
  for (let current = dir; current !== '' && index.files.has(`${current}/__init__.py`); current = parentOf(current)) {
    chain.push(`${current}/__init__.py`);
  }
  return chain;
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}
