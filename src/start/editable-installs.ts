import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * A Python environment's way into the work tree: an editable install (`pip install -e .`, `uv
 * sync`, poetry, pdm, hatch) puts the project's source on every interpreter's path, by absolute
 * path — a `.pth` line naming `<repo>/src`, or an import hook whose module maps package names to
 * folders. A baseline copy that borrows that environment would import the edited code.
 */
export interface EditableInstall {
  /** The file that says so (a .pth file or the hook's module). */
  via: string;
  /** The folder to put on sys.path (in the work tree) for the same imports. */
  entry: string;
}

/** Every editable install into `roots` (the work tree, and its real path) in the environments' site-packages. */
export function findEditableInstalls(sitePackages: string[], roots: string[]): EditableInstall[] {
  const found: EditableInstall[] = [];
  for (const site of sitePackages) {
    for (const name of listDir(site).filter((file) => file.endsWith('.pth'))) {
      const pth = join(site, name);
      const text = readText(pth);
      found.push(...editablesInPth(text, site, roots).map((entry) => ({ via: pth, entry })));
      for (const module of importedModules(text)) {
        const file = join(site, `${module}.py`);
        found.push(...pathsNamed(readText(file), roots).map((path) => ({ via: file, entry: sysPathEntry(path) })));
      }
    }
  }
  const unique = new Map(found.map((install) => [`${install.via}\0${install.entry}`, install]));
  return [...unique.values()];
}

/** The work tree's folders a .pth file adds to sys.path: its path lines, and absolute paths in its import lines. */
export function editablesInPth(text: string, site: string, roots: string[]): string[] {
  const entries: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (/^import[\s;]/.test(line)) entries.push(...pathsNamed(line, roots).map(sysPathEntry));
    else if (inside(resolve(site, line), roots)) entries.push(resolve(site, line));
  }
  return entries;
}

/** The modules a .pth file's `import` lines load (an editable install's hook lives in one of them). */
export function importedModules(text: string): string[] {
  const modules = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/.exec(line.trim());
    for (const name of match?.[1]?.split(',') ?? []) modules.add(name.trim().split('.')[0] ?? '');
  }
  modules.delete('');
  return [...modules];
}

/** Quoted absolute paths inside `roots` in a file's text (a hook's map of package → folder). */
export function pathsNamed(text: string, roots: string[]): string[] {
  const paths = new Set<string>();
  for (const root of roots) {
    const pattern = new RegExp(`${escapeRegExp(root)}(?:[\\\\/][^'"\\n]*)?(?=['"])`, 'g');
    for (const match of text.matchAll(pattern)) paths.add(match[0].replace(/\\\\/g, '\\'));
  }
  return [...paths];
}

/**
 * The folder a path is imported from: a package folder's or a module's parent (`src/click` →
 * `src`, `src/click/__init__.py` → `src`); any other folder is a path entry itself.
 */
export function sysPathEntry(path: string): string {
  const target = path.endsWith(`${sep}__init__.py`) || path.endsWith('/__init__.py') ? dirname(path) : path;
  if (target.endsWith('.py') || existsSync(join(target, '__init__.py'))) return dirname(target);
  return target;
}

/**
 * The site-packages folders a gate's Python may use: the project's venvs (`.venv`, `venv` in the
 * given folders), `$VIRTUAL_ENV`, a venv whose bin folder is on PATH, and the user's site.
 */
export function sitePackagesFor(venvParents: string[], env: NodeJS.ProcessEnv): string[] {
  const venvs = new Set<string>();
  for (const dir of venvParents) for (const name of ['.venv', 'venv']) venvs.add(join(dir, name));
  if (env['VIRTUAL_ENV']) venvs.add(env['VIRTUAL_ENV']);
  for (const bin of (env['PATH'] ?? '').split(delimiter)) if (isAbsolute(bin)) venvs.add(dirname(bin));
  const sites: string[] = [];
  for (const venv of venvs) {
    if (!existsSync(join(venv, 'pyvenv.cfg'))) continue;
    sites.push(join(venv, 'Lib', 'site-packages'), ...pythonDirs(join(venv, 'lib')), ...pythonDirs(join(venv, 'lib64')));
  }
  if (env['HOME']) sites.push(...pythonDirs(join(env['HOME'], '.local', 'lib')));
  return [...new Set(sites)].filter((site) => existsSync(site));
}

function pythonDirs(lib: string): string[] {
  return listDir(lib)
    .filter((name) => name.startsWith('python'))
    .map((name) => join(lib, name, 'site-packages'));
}

function inside(path: string, roots: string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}

/** A folder's entries; none when it cannot be read. */
export function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
