import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { stripJsComments } from '../fast/strip-js-comments.js';
import { sharedPrettierConfig } from './shared-prettier-config.js';

/** Whether a linter's result in one package can depend on another package's files, and the evidence. */
export type LintReach = { reads: true; why: string } | { reads: false; files: string[] };

export type Linter = 'eslint' | 'biome';

const ESLINT_FLAT = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts'];
const ESLINT_LEGACY = ['.eslintrc.js', '.eslintrc.cjs', '.eslintrc.yaml', '.eslintrc.yml', '.eslintrc.json', '.eslintrc'];
const BIOME = ['biome.json', 'biome.jsonc'];

// Type-aware rules need a program over the tsconfig (which reaches other packages); import rules resolve
// imports into them; biome's project and types domains build a module graph.
const ESLINT_READS = /\bproject\s*['"]?\s*:|projectService|useProjectService|TypeChecked|type-checked|requiring-type-checking|['"](?:import|import-x|i|n|node)\/|plugin:import|no-unresolved|no-missing-(?:import|require)|enforce-module-boundaries|boundaries\//;
const BIOME_READS = /"(?:project|types)"\s*:|noImportCycles|noUnresolvedImports|noPrivateImports|noFloatingPromises|noMisusedPromises|useExhaustiveSwitchCases|noDeprecatedImports|noUnusedExports/;

// Plugins and shareable configs whose rules look at one file at a time (their type-checked configs are caught above).
const SINGLE_FILE = new Set([
  'eslint', '@eslint/js', 'globals', 'prettier', '@typescript-eslint', 'typescript-eslint', 'react', 'react-hooks', 'react-refresh', 'jsx-a11y',
  'es5', 'jest', 'vitest', '@vitest', 'testing-library', 'simple-import-sort', 'unicorn', 'promise', 'solid', 'svelte', 'vue', '@stylistic', 'jsdoc', 'regexp', 'sonarjs',
]);

/**
 * Reads the linter's configuration as it applies in `cwd` (every config file from there up to the
 * repository root, and the local files they name). Anything it cannot read with confidence — no
 * config, a shareable config or plugin it does not know, a file it cannot resolve — counts as
 * reading other packages: a lint left out wrongly is worse than a slow stop.
 */
export function lintReadsPackages(linter: Linter, cwd: string, repoRoot: string, extraConfig?: string): LintReach {
  const names = linter === 'eslint' ? [...ESLINT_FLAT, ...ESLINT_LEGACY, 'package.json'] : BIOME;
  const queue: string[] = extraConfig ? [resolve(cwd, extraConfig)] : [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const name of names) if (isFile(join(dir, name))) queue.push(join(dir, name));
    if (dir === repoRoot || relative(repoRoot, dir).startsWith('..') || dirname(dir) === dir) break;
  }
  const seen = new Set<string>();
  let prettier = false;
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    const text = configText(file);
    if (text === undefined) continue;
    seen.add(file);
    if (!readable(file, text)) return { reads: true, why: `gate cannot read ${show(file, repoRoot)} with confidence` };
    const live = dropOffRules(stripJsComments(text));
    const computed = computedSetting(live);
    if (computed) return { reads: true, why: `${show(file, repoRoot)} computes ${computed}` };
    prettier ||= linter === 'eslint' && /prettier\/prettier|plugin:prettier|eslint-plugin-prettier/.test(live);
    const reads = (linter === 'eslint' ? ESLINT_READS : BIOME_READS).exec(live);
    if (reads) return { reads: true, why: `${show(file, repoRoot)} mentions ${reads[0]}` };
    for (const specifier of linter === 'eslint' ? eslintModules(live) : biomeExtends(live)) {
      if (specifier === '//' && linter === 'biome') continue;
      if (specifier.startsWith('.') || isAbsolute(specifier)) {
        const local = resolveLocal(dirname(file), specifier);
        if (!local) return { reads: true, why: `${show(file, repoRoot)} names ${specifier}, which could not be read` };
        queue.push(local);
      } else if (!isSingleFile(specifier)) return { reads: true, why: `${show(file, repoRoot)} uses ${specifier}, whose rules gate does not know` };
    }
  }
  if (seen.size === 0) return { reads: true, why: `no ${linter} configuration found from ${show(cwd, repoRoot)}` };
  const shared = prettier ? sharedPrettierConfig(cwd, repoRoot) : undefined;
  if (shared) return { reads: true, why: `its prettier rule reads ${shared}, which gate does not read` };
  return { reads: false, files: [...seen].map((file) => show(file, repoRoot)) };
}

/** A package.json counts only through its `eslintConfig`; other files whole. */
function configText(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (!file.endsWith('package.json')) return text;
  try {
    const config = (JSON.parse(text) as { eslintConfig?: unknown }).eslintConfig;
    return config === undefined ? undefined : JSON.stringify(config);
  } catch {
    return undefined;
  }
}

// A rule switched off reads nothing: `'import/no-internal-modules': 'off'`, `"noImportCycles": "off"`.
function dropOffRules(text: string): string {
  return text.replace(/(['"])[^'"\n]+\1\s*:\s*(?:(['"])(?:off|none)\2|0)(?=\s*[,}\n])/g, '');
}

// YAML lists need no quotes; an `.eslintrc` may be either: only JSON is read there.
function readable(file: string, text: string): boolean {
  if (/\.ya?ml$/.test(file)) return false;
  if (!file.endsWith('.eslintrc')) return true;
  try {
    JSON.parse(stripJsComments(text));
    return true;
  } catch {
    return false;
  }
}

/** A setting built by a call or a template (`path.join(…)`, `` `${dir}/base.js` ``): what it names is unknown. */
function computedSetting(text: string): string | undefined {
  for (const match of text.matchAll(/['"]?\b(extends|plugins|parser)['"]?\s*:\s*(\[[^\]]*\]|[^,\n}]+)/g)) {
    const value = (match[2] ?? '').replace(/(['"])(?:(?!\1).)*\1/g, '');
    if (/[(`]/.test(value)) return match[1];
  }
  return undefined;
}

function eslintModules(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:require(?:\.resolve)?|import)\s*\(\s*(['"])([^'"]+)\1|\bfrom\s*(['"])([^'"]+)\3|^\s*import\s*(['"])([^'"]+)\5/gm)) {
    found.push(match[2] ?? match[4] ?? match[6] ?? '');
  }
  for (const match of text.matchAll(/['"]?\b(?:extends|plugins|parser)['"]?\s*:\s*(\[[^\]]*\]|(['"])[^'"]*\2)/g)) {
    for (const quoted of (match[1] ?? '').matchAll(/(['"])([^'"]+)\1/g)) found.push(quoted[2] ?? '');
  }
  return found.filter(Boolean);
}

function biomeExtends(text: string): string[] {
  const match = /"extends"\s*:\s*(\[[^\]]*\]|"[^"]*")/.exec(text);
  return match ? [...(match[1] ?? '').matchAll(/"([^"]+)"/g)].map((quoted) => quoted[1] ?? '') : [];
}

function isSingleFile(specifier: string): boolean {
  if (specifier.startsWith('eslint:') || specifier.startsWith('node:') || builtinModules.includes(specifier)) return true;
  const name = specifier.replace(/^plugin:/, '');
  const scoped = /^(@[^/]+)(?:\/(.*))?$/.exec(name);
  const base = scoped ? (scoped[1] ?? '') : (name.split('/')[0] ?? '').replace(/^eslint-(?:plugin|config)-/, '');
  return SINGLE_FILE.has(base) || (scoped !== null && SINGLE_FILE.has(`${scoped[1]}/${scoped[2]?.split('/')[0] ?? ''}`));
}

function resolveLocal(dir: string, specifier: string): string | undefined {
  const base = resolve(dir, specifier);
  return [base, ...['.js', '.cjs', '.mjs', '.ts', '.json'].map((ext) => base + ext), join(base, 'index.js')].find(isFile);
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}

function show(path: string, repoRoot: string): string {
  return relative(repoRoot, path).split('\\').join('/') || '.';
}
