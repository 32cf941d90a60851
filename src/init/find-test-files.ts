import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';

/** Where a runner looks for tests, as read from its defaults and the config it finds in a directory. */
export interface TestPatterns {
  /** Globs, relative to the directory, of the files the runner collects. */
  include: string[];
  /** The config whose patterns these are, or undefined for the runner's defaults. */
  from: string | undefined;
}

// The runners' own defaults (vitest's `test.include`, jest's `testMatch`, pytest's `python_files`).
const VITEST_INCLUDE = ['**/*.{test,spec}.?(c|m)[jt]s?(x)'];
// vitest's default `test.exclude` (4.x; older versions left out more), which a config's own list replaces.
const VITEST_EXCLUDE = ['**/node_modules/**', '**/.git/**'];
const JEST_INCLUDE = ['**/__tests__/**/*.?([mc])[jt]s?(x)', '**/?(*.)+(spec|test).?([mc])[jt]s?(x)'];
const PYTEST_INCLUDE = ['**/test_*.py', '**/*_test.py'];
// Options that move or widen what a runner collects beyond a list of globs read here: then it can't be told cheaply.
const VITEST_UNSURE = /\b(?:includeSource|projects|workspace|dir|root|typecheck)\s*:/;
const JEST_UNSURE = /\b(?:testRegex|roots|rootDir|projects|preset)\b/;
const PYTEST_UNSURE = /\b(?:python_files|testpaths|doctest|rootdir)\b/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', 'venv', '__pycache__', 'target']);
const MAX_FILES = 20_000;

/**
 * Why `presetId`'s full run in `dir` would find no test to run, or undefined when it has tests or
 * that can't be told cheaply (then the gate is written: the verification run tells the rest).
 */
export function emptySuite(presetId: string, dir: string): string | undefined {
  const patterns = testPatterns(presetId, dir);
  if (patterns === undefined) return undefined;
  const files = listFiles(dir);
  if (files === undefined) return undefined;
  const isMatch = picomatch(patterns.include, { dot: false });
  if (files.some((file) => isMatch(file))) return undefined;
  const where = patterns.from === undefined ? `${presetId}'s default test patterns` : `the test patterns of ${patterns.from}`;
  return `no file here matches ${where} (${patterns.include.join(', ')}), so its full run has no test to run and fails`;
}

/** What `vitest run` started in `dir` collects: its include and exclude globs (relative to `dir`); undefined when that can't be told cheaply. */
export function vitestCollects(dir: string): { include: string[]; exclude: string[]; from: string | undefined } | undefined {
  const patterns = testPatterns('vitest', dir);
  if (patterns === undefined) return undefined;
  const from = readdirSync(dir).find((name) => /^(?:vitest|vite)\.config\./.test(name));
  const text = from === undefined ? '' : (readText(join(dir, from)) ?? '');
  if (!/\bexclude\b/.test(text)) return { include: patterns.include, exclude: VITEST_EXCLUDE, from };
  const exclude = literalList(text, 'exclude');
  return exclude === undefined ? undefined : { include: patterns.include, exclude, from };
}

/** The files below `dir` (relative, posix) that `include` matches and `exclude` does not; undefined past MAX_FILES. */
export function matchingFiles(dir: string, include: string[], exclude: string[] = []): string[] | undefined {
  const files = listFiles(dir);
  if (files === undefined) return undefined;
  const included = picomatch(include, { dot: false });
  const excluded = exclude.length > 0 ? picomatch(exclude, { dot: true }) : () => false;
  return files.filter((file) => included(file) && !excluded(file));
}

function testPatterns(presetId: string, dir: string): TestPatterns | undefined {
  if (presetId === 'vitest') return jsPatterns(dir, ['vitest.config', 'vite.config'], 'include', VITEST_UNSURE, VITEST_INCLUDE);
  if (presetId === 'jest') {
    if (packageKeyText(dir, 'jest') !== undefined) return undefined;
    return jsPatterns(dir, ['jest.config'], 'testMatch', JEST_UNSURE, JEST_INCLUDE);
  }
  if (presetId === 'pytest') {
    const texts = ['pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini'].map((file) => readText(join(dir, file)) ?? '');
    return texts.some((text) => PYTEST_UNSURE.test(text)) ? undefined : { include: PYTEST_INCLUDE, from: undefined };
  }
  return undefined;
}

/** The include globs of a JS config file, followed one relative import deep (a package config merging the root's). */
function jsPatterns(dir: string, stems: string[], key: string, unsure: RegExp, defaults: string[]): TestPatterns | undefined {
  const configs = readdirSync(dir).filter((name) => stems.some((stem) => name.startsWith(`${stem}.`)));
  if (configs.length > 1) return undefined;
  const config = configs[0];
  if (config === undefined) return { include: defaults, from: undefined };
  const path = join(dir, config);
  const texts = [path, ...importedConfigs(path)].map((file) => readText(file));
  if (texts.some((text) => text === undefined)) return undefined;
  const text = texts.join('\n');
  if (unsure.test(text)) return undefined;
  if (!new RegExp(`\\b${key}\\b`).test(text)) return { include: defaults, from: undefined };
  const globs = literalList(text, key);
  return globs === undefined ? undefined : { include: globs, from: config };
}

/** `key: ['a', "b"]` when that is the only mention of the key and every entry is a plain string. */
function literalList(text: string, key: string): string[] | undefined {
  const mentions = text.match(new RegExp(`\\b${key}\\b`, 'g')) ?? [];
  const list = new RegExp(`\\b${key}\\s*:\\s*\\[([^\\]]*)\\]`).exec(text)?.[1];
  if (mentions.length !== 1 || list === undefined) return undefined;
  // Plain string literals separated by commas (a glob may hold commas of its own: `{a,b}`), nothing else.
  const literal = /(['"`])([^'"`$\\]*)\1/g;
  const globs = [...list.matchAll(literal)].map((match) => match[2] ?? '');
  if (list.replace(literal, '').replace(/\/\/[^\n]*/g, '').replace(/[\s,]/g, '') !== '') return undefined;
  return globs.length > 0 ? globs.map((glob) => glob.replace(/^\.\//, '')) : undefined;
}

/** The local config files a JS config imports (a package config merging the root's). */
export function importedConfigs(path: string): string[] {
  const text = readText(path) ?? '';
  const specifiers = [...text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] ?? '');
  return specifiers.flatMap((specifier) => {
    const base = resolve(dirname(path), specifier);
    const found = [base, ...['.ts', '.mts', '.js', '.mjs', '.cjs', '.cts'].map((ext) => `${base}${ext}`)].find((file) => existsSync(file));
    return found !== undefined && /config/.test(found) && readText(found) !== undefined ? [found] : [];
  });
}

function packageKeyText(dir: string, key: string): string | undefined {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return typeof manifest === 'object' && manifest !== null && key in manifest ? key : undefined;
  } catch {
    return undefined;
  }
}

/** Every file below `dir` (relative, posix), outside dependency and build folders; undefined past MAX_FILES. */
function listFiles(dir: string): string[] | undefined {
  const files: string[] = [];
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIP_DIRS.has(entry.name)) pending.push(join(current, entry.name));
      } else if (entry.isFile()) {
        files.push(relative(dir, join(current, entry.name)).split('\\').join('/'));
        if (files.length > MAX_FILES) return undefined;
      }
    }
  }
  return files;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
