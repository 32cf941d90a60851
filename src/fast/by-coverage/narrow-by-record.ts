import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type * as Typescript from 'typescript';
import { requireFromProject } from '../project-module.js';
import { type CoverageRecord, type FindUnits, parseRecord } from './coverage-record.js';
import { findUnits, PARSED } from './function-units.js';
import { type Reason, selectByRecord } from './select-by-record.js';

/** Where a gate's record lives: in its cache folder under gate's state. */
export function recordPath(cacheDir: string): string {
  return join(cacheDir, 'coverage-record.json');
}

/**
 * The test files among `tests` (absolute, chosen by the import graph) that the coverage record of
 * the gate's last passing full run says the change can affect, and why, in words; undefined when
 * there is no record, or it keeps every test.
 */
export function narrowByRecord(cacheDir: string, root: string, tests: string[], changed: string[]): Narrowed | undefined {
  const record = readRecord(cacheDir, configStamp(root));
  return record && narrowWithRecord(record, root, tests, changed, readText, findJsUnits(root));
}

/** The gate's record, when there is one made under the configs `stamp` names. */
export function readRecord(cacheDir: string, stamp: string): CoverageRecord | undefined {
  let text: string;
  try {
    text = readFileSync(recordPath(cacheDir), 'utf8');
  } catch {
    return undefined;
  }
  const record = parseRecord(text);
  return record?.configs === stamp ? record : undefined;
}

export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** narrowByRecord's rule and words, for any language: `findUnits` cuts a module into its functions. */
export function narrowWithRecord(record: CoverageRecord, root: string, tests: string[], changed: string[], read: (path: string) => string | undefined, findUnits: FindUnits): Narrowed | undefined {
  const { kept, functions, sinceRecord } = selectByRecord({ record, tests, changed, read, findUnits });
  const leaveOut = kept.flatMap((test) => test.leaveOut ?? []);
  if (kept.length === tests.length && leaveOut.length === 0) return undefined;
  const shown = (path: string) => relative(root, path).split(sep).join('/');
  const count = (reason: Reason) => kept.filter((test) => test.reason === reason).length;
  const list = (byFile: Map<string, string[]>) => [...byFile].map(([file, names]) => `${names.map((name) => `${name}()`).join(', ')} in ${shown(file)}`).join('; ');
  const earlier = sinceRecord.size > 0 ? `a function changed since the record (${list(sinceRecord)})` : '';
  const what = [list(functions), earlier].filter(Boolean).join(' or ') || 'the changed functions';
  const parts = [
    count('called') > 0 || functions.size > 0 ? `${count('called')} executed ${what}` : '',
    count('no-record') > 0 ? `${count('no-record')} have no record of their own (new or changed since)` : '',
    count('outside') > 0 ? `${count('outside')} loaded a module changed outside its functions since` : '',
    count('names-file') > 0 ? `${count('names-file')} name a changed file in their text` : '',
  ].filter(Boolean);
  const within = leaveOut.length > 0 ? `; in ${kept.filter((test) => test.leaveOut).length} of them ${leaveOut.length} tests that executed none of it left out` : '';
  const why = `${kept.length} of ${tests.length} test files: ${parts.join(', ')}${within} (coverage record of ${record.at.slice(0, 16).replace('T', ' ')} UTC)`;
  return { tests: kept.map((test) => test.test).sort(), why, ...(leaveOut.length > 0 ? { leaveOut: leaveOut.sort() } : {}) };
}

export interface Narrowed {
  /** The test files to run (absolute). */
  tests: string[];
  why: string;
  /** Tests of those files (pytest node ids) to leave out: they executed none of the changed functions. */
  leaveOut?: string[];
}

// What changes how every test runs without being a module a test loads: a config, the manifest, the lockfile.
const CONFIG = /^(?:(?:vitest|vite)\.(?:config|workspace|projects)(?:\.[\w-]+)?\.[cm]?[jt]s|tsconfig(?:\.[\w-]+)?\.json|package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|yarn\.lock|bun\.lockb?|\.env(?:\.[\w-]+)?)$/;

/** A hash of the gate folder's own test configs, manifest and lockfiles: a record made under others does not hold. */
export function configStamp(cwd: string, configs = CONFIG): string {
  let names: string[];
  try {
    names = readdirSync(cwd).filter((name) => configs.test(name)).sort();
  } catch {
    names = [];
  }
  const digest = createHash('sha1');
  for (const name of names) {
    let text = '';
    try {
      text = readFileSync(join(cwd, name), 'utf8');
    } catch {
      text = '\u0000unreadable';
    }
    digest.update(`${name}\u0000${text}\u0000`);
  }
  return digest.digest('hex');
}

/** Cuts JavaScript and TypeScript modules by the project's own TypeScript (none: no module is cut). */
export function findJsUnits(cwd: string): FindUnits {
  let ts: typeof Typescript | undefined | null = null;
  return (path, text) => {
    if (!PARSED.test(path)) return undefined;
    if (ts === null) ts = loadTypescript(cwd);
    return ts && findUnits(ts, path, text);
  };
}

/** The project's own TypeScript, which parses its modules into functions; undefined when it has none. */
export function loadTypescript(cwd: string): typeof Typescript | undefined {
  return requireFromProject<typeof Typescript>(cwd, 'typescript', ['createSourceFile', 'forEachChild']);
}
