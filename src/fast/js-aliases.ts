import { dirname, join, resolve } from 'node:path';
import { isRecord, matchImports, type ModuleFiles, resolveModulePath, stringsIn } from './resolve-js-import.js';
import { stripJsComments } from './strip-js-comments.js';

/**
 * The local files a bare specifier that is no installed package may name: through the `paths` of
 * the nearest tsconfig.json, or a package's own `exports` (a self-reference, a linked workspace
 * package) whatever the conditions. A bundler alias is taken to agree with them — tsc checks the
 * same imports through `paths` and `exports` — and a file a test config names that nothing
 * imports sends the planner back to the runner's own selection (see vitest-graph.ts).
 */
export function resolveAlias(specifier: string, fromFile: string, files: ModuleFiles, packageDir: string | undefined): string[] {
  const found = new Set<string>();
  for (const file of viaTsconfigPaths(specifier, fromFile, files)) found.add(file);
  if (packageDir !== undefined) for (const file of viaExports(specifier, packageDir, files)) found.add(file);
  return [...found];
}

interface Paths {
  base: string;
  paths: Record<string, unknown>;
}

function viaTsconfigPaths(specifier: string, fromFile: string, files: ModuleFiles): string[] {
  for (let dir = dirname(fromFile); ; dir = dirname(dir)) {
    const tsconfig = join(dir, 'tsconfig.json');
    if (files.kind(tsconfig) === 'file') {
      const found = readPaths(tsconfig, files, 0);
      if (!found) return [];
      return matchImports(specifier, found.paths).flatMap((target) => resolveModulePath(resolve(found.base, target), files));
    }
    if (dirname(dir) === dir) return [];
  }
}

/** A tsconfig's `paths` and the folder they are relative to (`baseUrl`, else the tsconfig that sets them), following `extends`. */
function readPaths(tsconfig: string, files: ModuleFiles, depth: number): Paths | undefined {
  const config = readJsonc(tsconfig, files);
  if (!config || depth > 5) return undefined;
  const options = isRecord(config['compilerOptions']) ? config['compilerOptions'] : {};
  const here = dirname(tsconfig);
  const inherited = typeof config['extends'] === 'string' && config['extends'].startsWith('.') ? readPaths(resolve(here, withJson(config['extends'])), files, depth + 1) : undefined;
  const baseUrl = typeof options['baseUrl'] === 'string' ? resolve(here, options['baseUrl']) : undefined;
  if (isRecord(options['paths'])) return { base: baseUrl ?? here, paths: options['paths'] };
  if (inherited) return { base: baseUrl ?? inherited.base, paths: inherited.paths };
  return undefined;
}

const withJson = (path: string) => (path.endsWith('.json') ? path : `${path}.json`);

function viaExports(specifier: string, packageDir: string, files: ModuleFiles): string[] {
  const manifest = readJsonc(join(packageDir, 'package.json'), files);
  const name = manifest?.['name'];
  if (typeof name !== 'string' || !(specifier === name || specifier.startsWith(`${name}/`))) return [];
  const subpath = `.${specifier.slice(name.length)}`;
  const exportsField = manifest?.['exports'];
  const targets: string[] = [];
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) {
    if (subpath === '.') targets.push(...stringsIn(exportsField));
  } else if (isRecord(exportsField)) {
    const keyed = Object.keys(exportsField).some((key) => key.startsWith('.'));
    if (keyed) targets.push(...matchImports(subpath, exportsField));
    else if (subpath === '.') targets.push(...stringsIn(exportsField));
  }
  if (subpath === '.') for (const field of ['source', 'module', 'main', 'types', 'typings']) if (typeof manifest?.[field] === 'string') targets.push(manifest[field] as string);
  if (exportsField === undefined && subpath !== '.') targets.push(subpath);
  return [...new Set(targets.filter((target) => target.startsWith('.')).flatMap((target) => resolveModulePath(resolve(packageDir, target), files)))];
}

/** JSON with comments and trailing commas, as tsconfig.json allows. */
export function readJsonc(path: string, files: ModuleFiles): Record<string, unknown> | undefined {
  const text = files.read(path);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(stripJsComments(text).replace(/,(\s*[}\]])/g, '$1'));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
