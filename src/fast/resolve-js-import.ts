import { builtinModules } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the resolver needs of the file system; the planner passes the real one, the unit tests a map. */
export interface ModuleFiles {
  kind(path: string): 'file' | 'directory' | undefined;
  read(path: string): string | undefined;
  realpath(path: string): string | undefined;
}

export type Resolution =
  /** Local JavaScript or TypeScript files (absolute): every one the specifier could name, or none (a JSON file, a typo). */
  | { kind: 'local'; files: string[] }
  /** A Node built-in or an installed package. */
  | { kind: 'external' }
  /** It may name a local file gate can't tell. */
  | { kind: 'unknown'; why: string };

export const JS_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx'];
const BUILTINS = new Set(builtinModules);
// TypeScript's rule: `./x.js` names x.ts (or its declarations, x.d.ts) when that is what exists.
const TS_FOR = { '.js': ['.ts', '.tsx', '.d.ts'], '.mjs': ['.mts', '.d.mts'], '.cjs': ['.cts', '.d.cts'], '.jsx': ['.tsx'] } as const;
const DECLARATIONS = ['.d.ts', '.d.mts', '.d.cts'];

export const isJsFile = (path: string): boolean => JS_EXTENSIONS.some((extension) => path.endsWith(extension));

/** Components of the frameworks whose files hold imports too (in a `<script>` block, an MDX import line). */
export const isComponentFile = (path: string): boolean => /\.(?:vue|svelte|astro|mdx|marko)$/.test(path);

/** resolvePath, and a component file named exactly. */
export function resolveModulePath(base: string, files: ModuleFiles): string[] {
  return isComponentFile(base) && files.kind(base) === 'file' ? [base] : resolvePath(base, files);
}

/** The local files an import names, the way Node and TypeScript resolve it, or why that is unknown. */
export function resolveJsImport(specifier: string, fromFile: string, files: ModuleFiles): Resolution {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier) || /^(?:data|https?):/.test(specifier)) return { kind: 'external' };
  if (specifier.startsWith('file:')) return { kind: 'local', files: resolvePath(fileURLToPath(specifier), files) };
  if (/^\.\.?(?:\/|$)/.test(specifier) || specifier.startsWith('/')) return { kind: 'local', files: resolvePath(resolve(dirname(fromFile), specifier), files) };
  if (specifier.startsWith('#')) return resolveSubpathImport(specifier, fromFile, files);
  return resolvePackage(specifier, fromFile, files);
}

/** A path as Node (exact name, added extension, directory index, package.json main) or TypeScript (`.js` written for `.ts`) would take it. */
export function resolvePath(base: string, files: ModuleFiles, followMain = true): string[] {
  const candidates = [base, ...[...JS_EXTENSIONS, ...DECLARATIONS].map((extension) => base + extension)];
  for (const [written, sources] of Object.entries(TS_FOR)) {
    if (base.endsWith(written)) candidates.push(...sources.map((source) => base.slice(0, -written.length) + source));
  }
  if (files.kind(base) === 'directory') {
    const main = readJson(join(base, 'package.json'), files)?.['main'];
    if (followMain && typeof main === 'string') candidates.push(...resolvePath(resolve(base, main), files, false));
    candidates.push(...JS_EXTENSIONS.map((extension) => join(base, `index${extension}`)));
  }
  return [...new Set(candidates.filter((path) => isJsFile(path) && files.kind(path) === 'file'))];
}

function resolvePackage(specifier: string, fromFile: string, files: ModuleFiles): Resolution {
  const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  if (BUILTINS.has(name)) return { kind: 'external' };
  let inScope = true;
  for (let dir = dirname(fromFile); ; dir = dirname(dir)) {
    const manifest = inScope ? readJson(join(dir, 'package.json'), files) : undefined;
    if (manifest?.['name'] === name) return { kind: 'unknown', why: `imports its own package by name ('${specifier}')` };
    if (manifest) inScope = false;
    const installed = join(dir, 'node_modules', name);
    if (files.kind(installed) === 'directory') {
      const real = files.realpath(installed) ?? installed;
      return real.split(sep).includes('node_modules') ? { kind: 'external' } : { kind: 'unknown', why: `'${specifier}' is linked to local code (a workspace package)` };
    }
    if (dirname(dir) === dir) return { kind: 'unknown', why: `'${specifier}' is not installed: it may be an alias for a local file` };
  }
}

/** `#name` from the nearest package.json "imports": every target it may map to, whatever the conditions. */
function resolveSubpathImport(specifier: string, fromFile: string, files: ModuleFiles): Resolution {
  for (let dir = dirname(fromFile); ; dir = dirname(dir)) {
    const manifest = readJson(join(dir, 'package.json'), files);
    if (manifest) {
      const imports = manifest['imports'];
      const targets = isRecord(imports) ? matchImports(specifier, imports) : [];
      if (targets.length === 0) return { kind: 'unknown', why: `'${specifier}' is not in ${join(dir, 'package.json')} "imports"` };
      const found: string[] = [];
      for (const target of targets) {
        if (!target.startsWith('./')) return { kind: 'unknown', why: `'${specifier}' maps to the package '${target}'` };
        found.push(...resolvePath(join(dir, target), files));
      }
      return { kind: 'local', files: [...new Set(found)] };
    }
    if (dirname(dir) === dir) return { kind: 'unknown', why: `'${specifier}' has no package.json "imports" to resolve it` };
  }
}

// Every key that matches, not only the one Node picks: a superset of the files is still sound.
export function matchImports(specifier: string, imports: Record<string, unknown>): string[] {
  return Object.entries(imports).flatMap(([key, target]) => {
    if (key === specifier) return stringsIn(target);
    const star = key.indexOf('*');
    if (star === -1 || specifier.length < key.length - 1 || !specifier.startsWith(key.slice(0, star)) || !specifier.endsWith(key.slice(star + 1))) return [];
    const matched = specifier.slice(star, specifier.length - (key.length - star - 1));
    return stringsIn(target).map((path) => path.replaceAll('*', matched));
  });
}

export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJson(path: string, files: ModuleFiles): Record<string, unknown> | undefined {
  const text = files.read(path);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
