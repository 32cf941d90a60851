import { existsSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import picomatch from 'picomatch';
import { readJsonc } from '../fast/js-aliases.js';
import type { Detection } from './detect-presets.js';
import { importedConfigs, matchingFiles, vitestCollects } from './find-test-files.js';
import type { MemberFacts, RootCoverage } from './plan-workspace.js';

// A workspace whose root scripts run vitest, tsc or eslint once over every package (urql: `vitest`,
// `tsc`, `eslint .` at the root) is checked that way by its maintainers. One process over the
// packages costs a fraction of one per package (each re-reads the shared ones), so a package those
// root runs check exactly as its own would gets no gate of its own for that tool.


const VITEST_CONFIGS = /^(?:vitest|vite)\.(?:config|workspace)\.[cm]?[jt]s$/;
const COLLECTION_KEYS = /\b(?:include|exclude|includeSource|dir|root|projects|workspace)\s*:/;
const ESLINT_CONFIGS = /^(?:eslint\.config\.[cm]?[jt]s|\.eslintrc(?:\.(?:c?js|json|ya?ml))?)$/;

export function findRootCoverage(rootDir: string, root: Detection, members: MemberFacts[]): RootCoverage {
  const coverage: RootCoverage = new Map();
  const chosen = new Set(root.presets.map((preset) => preset.preset));
  const scripts = rootScripts(rootDir);
  const checks: Array<[string, (member: MemberFacts) => boolean]> = [];
  if (chosen.has('vitest') && scripts.some((script) => runsWholeTool(script, 'vitest'))) {
    const collects = vitestCollects(rootDir);
    if (collects) checks.push(['vitest', (member) => vitestCovers(rootDir, collects, member)]);
  }
  if (chosen.has('tsc') && scripts.some((script) => runsWholeTool(script, 'tsc'))) {
    const tsconfig = readRootTsconfig(rootDir);
    if (tsconfig) checks.push(['tsc', (member) => tscCovers(rootDir, tsconfig, member)]);
  }
  if (chosen.has('eslint') && scripts.some((script) => runsWholeTool(script, 'eslint'))) {
    checks.push(['eslint', (member) => !member.facts.files.some((file) => ESLINT_CONFIGS.test(file)) && !member.facts.packageJson?.keys.includes('eslintConfig')]);
  }
  for (const member of members) {
    const covered = new Set(checks.filter(([preset, covers]) => member.detection.presets.some((own) => own.preset === preset) && covers(member)).map(([preset]) => preset));
    if (covered.size > 0) coverage.set(member.dir, covered);
  }
  return coverage;
}

function rootScripts(rootDir: string): string[] {
  const scripts = readJsonc(join(rootDir, 'package.json'), plainFiles)?.['scripts'];
  return typeof scripts === 'object' && scripts !== null ? Object.values(scripts).filter((script): script is string => typeof script === 'string') : [];
}

/**
 * A script that runs the tool itself over what its config names: `vitest`, `vitest run`, `tsc`,
 * `tsc --noEmit`, `eslint .` — not one narrowed to a path or project (`tsc -p packages/a`).
 */
export function runsWholeTool(script: string, tool: 'vitest' | 'tsc' | 'eslint'): boolean {
  let moved = false;
  for (const command of script.split(/&&|\|\||;|\|/)) {
    const words = command.trim().split(/\s+/);
    // Run directly, through the package manager's exec, or after `test -z $CI` and the like: never in
    // a package (`cd`, `-C`, `--filter`) or in each (`pnpm -r exec`).
    if (words[0] === 'cd' || words[0] === 'pushd') moved = true;
    const at = words.indexOf(tool);
    if (at < 0 || moved) continue;
    const before = words.slice(0, at);
    if (before.some((word) => /^(?:-C|--dir|--filter|-F|--cwd|--prefix|-w|--workspace|--workspaces|-r|--recursive|run-p|run-s|lerna|turbo|nx)$/.test(word))) continue;
    const args = words.slice(at + 1);
    if (tool === 'tsc' && args.some((word) => /^(?:-p|--project)$/.test(word) || (word.startsWith('-') === false && word !== ''))) continue;
    if (tool === 'eslint' && !args.some((word) => word === '.' || word === './')) continue;
    if (tool === 'vitest' && args.some((word) => /^(?:--project|--dir|--root|-r)$/.test(word))) continue;
    return true;
  }
  return false;
}

function vitestCovers(rootDir: string, collects: { include: string[]; exclude: string[]; from: string | undefined }, member: MemberFacts): boolean {
  // A package config that builds on the root's (urql: `mergeConfig(baseConfig, …)` of ../../vitest.config)
  // is for running one package by hand; one of its own makes the package a separate suite.
  const own = member.facts.files.filter((file) => VITEST_CONFIGS.test(file));
  if (own.some((file) => !importsRootConfig(join(rootDir, member.dir, file), rootDir, collects.from))) return false;
  const included = picomatch(collects.include, { dot: false });
  const excluded = collects.exclude.length > 0 ? picomatch(collects.exclude, { dot: true }) : () => false;
  const collected = (file: string) => included(posix.join(member.dir, file)) && !excluded(posix.join(member.dir, file));
  const tests = matchingFiles(join(rootDir, member.dir), own.length > 0 ? collects.include : ['**/*.{test,spec}.?(c|m)[jt]s?(x)'], ['**/node_modules/**']);
  if (tests === undefined || !tests.some(collected)) return false;
  // Built on the root's without collecting differently: the package's suite is the root's, there.
  if (own.length > 0) return own.every((file) => !COLLECTION_KEYS.test(plainFiles.read(join(rootDir, member.dir, file)) ?? ''));
  return tests.every(collected);
}

function importsRootConfig(configPath: string, rootDir: string, rootConfig: string | undefined): boolean {
  return rootConfig !== undefined && importedConfigs(configPath).includes(join(rootDir, rootConfig));
}

interface RootTsconfig {
  path: string;
  include: string[];
  exclude: string[];
}

function readRootTsconfig(rootDir: string): RootTsconfig | undefined {
  const path = join(rootDir, 'tsconfig.json');
  const config = readJsonc(path, plainFiles);
  if (!config || 'files' in config || 'references' in config) return undefined;
  const include = Array.isArray(config['include']) ? config['include'].filter((entry): entry is string => typeof entry === 'string') : ['**/*'];
  const exclude = Array.isArray(config['exclude']) ? config['exclude'].filter((entry): entry is string => typeof entry === 'string') : [];
  return { path, include: include.map(tsGlob), exclude: exclude.map(tsGlob) };
}

/** tsconfig's `include` entries: a folder names everything below it; `./` is dropped. */
function tsGlob(entry: string): string {
  const clean = entry.replace(/^\.\//, '').replace(/\/$/, '');
  return /[*?]/.test(clean.split('/').at(-1) ?? '') || /\.[cm]?[jt]sx?$/.test(clean) ? clean : `${clean}/**`;
}

/** An include glob narrowed to the TypeScript files tsc takes from it. */
function typeScriptFiles(glob: string): string {
  if (/\.[cm]?[jt]sx?$/.test(glob)) return glob;
  if (glob.endsWith('/**')) return `${glob}/*.{ts,tsx,mts,cts}`;
  return glob.endsWith('*') ? `${glob}.{ts,tsx,mts,cts}` : glob;
}

function tscCovers(rootDir: string, root: RootTsconfig, member: MemberFacts): boolean {
  const memberTsconfig = join(rootDir, member.dir, 'tsconfig.json');
  if (existsSync(memberTsconfig)) {
    // Checked with the root's options only when it sets none of its own: `extends` the root's, and `include` at most.
    const config = readJsonc(memberTsconfig, plainFiles);
    if (!config) return false;
    const keys = Object.keys(config).filter((key) => key !== 'include' && key !== 'extends');
    if (keys.length > 0 || typeof config['extends'] !== 'string') return false;
    if (resolve(rootDir, member.dir, config['extends']) !== root.path && resolve(rootDir, member.dir, `${config['extends']}.json`) !== root.path) return false;
  }
  const own = existsSync(memberTsconfig) ? readJsonc(memberTsconfig, plainFiles)?.['include'] : undefined;
  const ownInclude = Array.isArray(own) ? own.filter((entry): entry is string => typeof entry === 'string').map(tsGlob) : ['**/*'];
  const files = matchingFiles(join(rootDir, member.dir), ownInclude.map(typeScriptFiles), ['**/node_modules/**']);
  if (files === undefined || files.length === 0) return false;
  const included = picomatch(root.include, { dot: false });
  const excluded = root.exclude.length > 0 ? picomatch(root.exclude, { dot: true }) : () => false;
  return files.every((file) => {
    const fromRoot = posix.join(member.dir, file);
    return included(fromRoot) && !excluded(fromRoot);
  });
}

const plainFiles = {
  kind: () => undefined,
  realpath: () => undefined,
  read: (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
};
