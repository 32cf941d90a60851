import { dirname, join, resolve } from 'node:path';
import { resolveAlias } from './js-aliases.js';
import { type JsBindings, type Names, parseJsBindings } from './js-bindings.js';
import { isComponentFile, type ModuleFiles, resolveJsImport, resolveModulePath } from './resolve-js-import.js';

/**
 * The import graph of a set of modules, where an import of names from a module that re-exports
 * (a barrel: `export * from './x'`) is an edge to the modules that define those names, not to the
 * barrel and everything it re-exports.
 */
export interface ModuleGraph {
  /** module → the modules it imports (absolute paths). */
  edges: Map<string, Set<string>>;
  /** barrel → the modules that took names through it without an edge to it. */
  through: Map<string, Set<string>>;
  /** module → why it may import a local module the graph can't name. */
  unknown: Map<string, string>;
  /** module → the modules only a path literal in it names (`proxyquire('./x')`, a config's alias target), not an import. */
  named: Map<string, Set<string>>;
  /** Every module some import resolved to. */
  imported: Set<string>;
  /** module → the barrel it takes whole (a namespace used as a value, `export *` of it, a side-effect import). */
  takesWhole: Map<string, string>;
  bindings: (file: string) => JsBindings | undefined;
}

/** The graph of `modules` and every module they import; undefined past `limit` modules (the full run is cheaper than the walk). */
export function buildModuleGraph(modules: string[], files: ModuleFiles, limit: number): ModuleGraph | undefined {
  const parsed = new Map<string, JsBindings | undefined>();
  const bindings = (file: string) => {
    if (!parsed.has(file)) {
      const source = files.read(file);
      parsed.set(file, source === undefined ? undefined : parseJsBindings(source));
    }
    return parsed.get(file);
  };
  const resolved = new Map<string, { files: string[]; unknown?: string }>();
  const resolveFrom = (specifier: string, from: string) => {
    const key = `${dirname(from)}\0${specifier}`;
    let answer = resolved.get(key);
    if (!answer) {
      answer = resolveSpecifier(specifier, from, files);
      resolved.set(key, answer);
    }
    return answer;
  };
  const graph: ModuleGraph = { edges: new Map(), named: new Map(), through: new Map(), unknown: new Map(), imported: new Set(), takesWhole: new Map(), bindings };
  const add = (map: Map<string, Set<string>>, from: string, to: string) => {
    const set = map.get(from);
    if (set) set.add(to);
    else map.set(from, new Set([to]));
  };
  const seeThrough = (file: string) => (bindings(file)?.reExports.length ?? 0) > 0;
  /** `export * from target` gives `name` only when target defines it (or can't be read). */
  const starGives = (target: string, name: string) => {
    const info = bindings(target);
    return !info || info.defines === undefined || info.defines.has(name);
  };
  const definerMemo = new Map<string, { files: string[]; through: string[] } | undefined>();

  /** The modules that define `name` as `barrel` exports it, and the barrels on the way; undefined when it doesn't. */
  const definers = (barrel: string, name: string, visiting: Set<string>): { files: string[]; through: string[] } | undefined => {
    const key = `${barrel}\0${name}`;
    if (definerMemo.has(key)) return definerMemo.get(key);
    if (visiting.has(barrel)) return undefined;
    visiting.add(barrel);
    const info = bindings(barrel);
    let answer: { files: string[]; through: string[] } | undefined;
    if (!info || info.defines === undefined || info.defines.has(name)) answer = { files: [barrel], through: [] };
    else {
      const found: { files: string[]; through: string[] } = { files: [], through: [barrel] };
      let any = false;
      for (const reExport of info.reExports) {
        const original = reExport.names === undefined ? name : reExport.names.get(name);
        if (original === undefined) continue;
        const targets = resolveFrom(reExport.specifier, barrel);
        if (targets.unknown !== undefined) {
          // Where a re-export leads can't be told: the barrel whole.
          any = true;
          found.files.push(barrel);
          continue;
        }
        for (const target of targets.files) {
          let inner: { files: string[]; through: string[] } | undefined;
          if (original === '*') inner = { files: [target], through: [] };
          else if (seeThrough(target)) inner = definers(target, original, visiting) ?? (reExport.names === undefined ? undefined : { files: [target], through: [] });
          else if (reExport.names !== undefined || starGives(target, original)) inner = { files: [target], through: [] };
          if (inner === undefined) continue;
          any = true;
          found.files.push(...inner.files);
          found.through.push(...inner.through);
        }
      }
      answer = any ? found : undefined;
    }
    visiting.delete(barrel);
    definerMemo.set(key, answer);
    return answer;
  };

  // Every module a listed one leads to is read too: a workspace package's sources sit outside the folder.
  const queue = [...modules];
  const queued = new Set(queue);
  const follow = (target: string) => {
    if (queued.has(target)) return;
    queued.add(target);
    queue.push(target);
  };
  const link = (from: string, target: string, names: Names) => {
    graph.imported.add(target);
    if (names === 'all' || !seeThrough(target)) {
      add(graph.edges, from, target);
      if (names === 'all' && seeThrough(target)) graph.takesWhole.set(from, target);
      return;
    }
    for (const name of names) {
      const found = definers(target, name, new Set());
      if (!found) {
        add(graph.edges, from, target);
        continue;
      }
      for (const file of found.files) add(graph.edges, from, file);
      for (const barrel of found.through) {
        add(graph.through, barrel, from);
        follow(barrel);
      }
    }
  };

  for (const file of queue) {
    if (queued.size > limit) return undefined;
    const info = bindings(file);
    if (!info) continue;
    const unknown = (why: string | undefined) => {
      if (why !== undefined && !graph.unknown.has(file)) graph.unknown.set(file, why);
    };
    for (const [specifier, names] of info.imports) {
      const targets = resolveFrom(specifier, file);
      unknown(targets.unknown);
      for (const target of targets.files) link(file, target, names);
    }
    for (const reExport of info.reExports) {
      const targets = resolveFrom(reExport.specifier, file);
      unknown(targets.unknown);
      for (const target of targets.files) {
        graph.imported.add(target);
        add(graph.edges, file, target);
      }
    }
    unknown(info.unfollowable);
    for (const path of info.paths) {
      for (const linked of resolveModulePath(resolve(dirname(file), path), files)) {
        const target = files.realpath(linked) ?? linked;
        if (!graph.edges.get(file)?.has(target)) add(graph.named, file, target);
        add(graph.edges, file, target);
      }
    }
    for (const target of graph.edges.get(file) ?? []) follow(target);
  }
  return graph;
}

/** The files an import names, by their real paths: one module reached through a link (a tsconfig path into node_modules) is one node. */
function resolveSpecifier(specifier: string, from: string, files: ModuleFiles): { files: string[]; unknown?: string } {
  const found = resolveLinked(specifier, from, files);
  return { ...found, files: [...new Set(found.files.map((file) => files.realpath(file) ?? file))] };
}

function resolveLinked(specifier: string, from: string, files: ModuleFiles): { files: string[]; unknown?: string } {
  const resolution = resolveJsImport(specifier, from, files);
  if (resolution.kind === 'local' && resolution.files.length === 0 && isComponentFile(specifier) && /^\.\.?\//.test(specifier)) return { files: resolveModulePath(resolve(dirname(from), specifier), files) };
  if (resolution.kind === 'local') return { files: resolution.files };
  if (resolution.kind === 'external') return { files: [] };
  if (/^[.#/]/.test(specifier) || specifier.includes(':')) return { files: [], unknown: resolution.why };
  const aliased = resolveAlias(specifier, from, files, localPackageDir(specifier, from, files));
  return aliased.length > 0 ? { files: aliased } : { files: [], unknown: resolution.why };
}

/** The folder of the local package a bare specifier names: the importing file's own package, or a workspace package linked into node_modules. */
function localPackageDir(specifier: string, from: string, files: ModuleFiles): string | undefined {
  const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = files.read(join(dir, 'package.json'));
    if (manifest !== undefined && nameOf(manifest) === name) return dir;
    const installed = join(dir, 'node_modules', name);
    if (files.kind(installed) === 'directory') return files.realpath(installed) ?? installed;
    if (dirname(dir) === dir) return undefined;
  }
}

function nameOf(manifest: string): string | undefined {
  try {
    const value: unknown = JSON.parse(manifest);
    return typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string' ? value.name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The changed modules and every module that imports one, directly or through others. A changed
 * barrel reaches every module that took names through it; with `throughEvery` (the change does
 * something when it loads) so does every barrel reached. A module with an import the graph can't
 * name may reach the change: it and its importers count. `skip` leaves edges out.
 */
export function reachedFrom(changed: string[], graph: ModuleGraph, throughEvery: boolean, skip?: (from: string, to: string) => boolean): Set<string> {
  const importers = new Map<string, string[]>();
  for (const [from, targets] of graph.edges) {
    for (const target of targets) {
      if (skip?.(from, target)) continue;
      const list = importers.get(target);
      if (list) list.push(from);
      else importers.set(target, [from]);
    }
  }
  const reached = new Set<string>();
  const queue = [...changed, ...graph.unknown.keys(), ...changed.flatMap((file) => [...(graph.through.get(file) ?? [])])];
  for (const file of queue) {
    if (reached.has(file)) continue;
    reached.add(file);
    queue.push(...(importers.get(file) ?? []));
    if (throughEvery) queue.push(...(graph.through.get(file) ?? []));
  }
  return reached;
}

/**
 * Whether loading the changed modules may do something beyond defining their exports (their own
 * top-level statements, or a module they import): then the change reaches every test that loads a
 * barrel on the way. A changed file no module imports (a test file, the runner's entry) is a leaf:
 * its top-level code runs for it alone, so it and what it imports are left out.
 */
export function changeHasLoadEffects(changed: string[], graph: ModuleGraph): boolean {
  const targets = new Set<string>();
  for (const edges of graph.edges.values()) for (const target of edges) targets.add(target);
  const loaded = changed.filter((file) => targets.has(file));
  return [...importedFrom(loaded, graph)].some((file) => graph.bindings(file)?.topLevelEffects !== false);
}

/** The given modules and every module they import, directly or not. */
export function importedFrom(starts: string[], graph: ModuleGraph): Set<string> {
  const seen = new Set<string>();
  const queue = [...starts];
  for (const file of queue) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(graph.edges.get(file) ?? []));
  }
  return seen;
}
