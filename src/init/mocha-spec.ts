import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSources, readModuleFiles } from '../fast/js-imports.js';
import { mochaTestMatcher } from '../fast/js-test-files.js';
import { gateArgv, splitMochaArgv } from '../fast/mocha-argv.js';
import { readMochaConfig } from '../fast/read-mocha-config.js';

/** Where mocha's tests are for init: found by plain `mocha`, named by a script, or nowhere. */
export type MochaSpec = { kind: 'plain' } | { kind: 'script'; script: string; run: string[] } | { kind: 'none'; why: string };

const RUNS_SCRIPT = /\b(?:npm\s+run(?:-script)?|yarn(?:\s+run)?|pnpm(?:\s+run)?|bun\s+run)\s+([\w:.-]+)/g;

/**
 * Plain `mocha` runs the spec of its config, or `./test`: when that finds no test file and a
 * package.json script runs mocha on a spec that does (graphql-js: "testonly" runs `mocha
 * --full-trace src/**\/__tests__/**\/*-test.ts`), the gate runs that command; with neither, there is
 * no gate to write (its full run would fail: "No test files found"). A JavaScript mocha config
 * (code gate does not run) or too many files to look through: `plain`, as before.
 */
export function findMochaSpec(dir: string): MochaSpec {
  const config = readMochaConfig(dir);
  if ('why' in config) return { kind: 'plain' };
  const files = listSources(dir, () => true);
  if (!files) return { kind: 'plain' };
  const moduleFiles = readModuleFiles();
  const kindOf = (file: string) => moduleFiles.kind(join(dir, file));
  const finds = (spec: string[], extra: string[] = []) => {
    const isTest = mochaTestMatcher({ ...config.files, spec, extension: [...config.files.extension, ...extra] }, kindOf);
    return isTest !== undefined && files.some((file) => isTest(file));
  };
  if (finds(config.files.spec)) return { kind: 'plain' };
  for (const { script, args } of mochaScripts(dir)) {
    const { spec, options } = splitMochaArgv(args);
    const extension = options.flatMap(([word = '', value]) => (word.replace(/=.*$/, '') === '--extension' ? (value ?? word.slice(12)).split(',') : []));
    if (spec.length > 0 && finds([...(config.specFrom ? config.files.spec : []), ...spec], extension)) return { kind: 'script', script, run: gateArgv(args) };
  }
  const where = config.specFrom ?? "mocha's default ./test";
  return { kind: 'none', why: `no file matches the spec of ${where} (${config.files.spec.join(', ')}), nor the spec of a package.json script that runs mocha, so its full run has no test to run and fails` };
}

/** The mocha commands of package.json's scripts: `test` first, then the scripts it runs, then the others named test*, each with its arguments. */
function mochaScripts(dir: string): Array<{ script: string; args: string[] }> {
  let scripts: Record<string, unknown>;
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const found = typeof manifest === 'object' && manifest !== null && 'scripts' in manifest ? manifest.scripts : undefined;
    if (typeof found !== 'object' || found === null) return [];
    scripts = Object.fromEntries(Object.entries(found));
  } catch {
    return [];
  }
  const text = (name: string) => (typeof scripts[name] === 'string' ? scripts[name] : '');
  const fromTest = [...text('test').matchAll(RUNS_SCRIPT)].map((match) => match[1] ?? '');
  const names = [...new Set(['test', ...fromTest, ...Object.keys(scripts).filter((name) => /^test/.test(name))])].filter((name) => text(name) !== '');
  return names.flatMap((script) => commands(text(script)).flatMap((words) => {
    const at = words.findIndex((word) => /(?:^|\/)mocha$/.test(word));
    return at === -1 ? [] : [{ script, args: words.slice(at + 1) }];
  }));
}

/** A script's commands (split at `&&`, `||`, `;` and `|`), each as words with their quotes taken off. */
function commands(script: string): string[][] {
  return script.split(/&&|\|\||;|\|/).map((part) => [...part.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? ''));
}
