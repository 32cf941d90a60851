import { posix, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import type { FastInput, FastPlan } from './planner.js';
import { listSources, readModuleFiles } from './js-imports.js';
import { buildModuleGraph, changeHasLoadEffects, reachedFrom } from './js-module-graph.js';
import { isJsFile, resolvePath } from './resolve-js-import.js';

// Jest's default testMatch: what counts as a test file in the counts the plan reports.
const TEST_FILE = /(?:^|\/)__tests__\/.+\.[cm]?[jt]sx?$|(?:^|\/)(?:[^/]*\.)?(?:test|spec)\.[cm]?[jt]sx?$/;
const CONFIG = /^jest\.config\.(?:[cm]?[jt]s|json)$/;
// From this share of the suite on, the full command is faster than naming the files.
const NEARLY_ALL = 0.9;
const MAX_MODULES = 20_000;

/**
 * Jest's `--findRelatedTests` follows every import, so a change to any module a barrel re-exports
 * reaches every test that imports the barrel. This reads the vitest tier's graph (a test reaches a
 * barrel's module only by a name it uses) and hands `jest --runTestsByPath` the files the change
 * reaches: jest keeps the test files among them (its testMatch, roots and ignore patterns decide).
 * Where that reading can't be trusted, the reason (`fallback`): the caller keeps `--findRelatedTests`.
 */
export function planJestGraph({ gate, files }: FastInput): FastPlan | { fallback: string } {
  const run = typeof gate.run === 'string' ? undefined : gate.run;
  if (!run?.some((word) => /(?:^|\/)jest(?:\.js)?$/.test(word)) || run.some((word) => word.includes('{files}') || !word.startsWith('-') && !/(?:^|\/)jest(?:\.js)?$/.test(word))) return { fallback: "the gate's command is not jest's own" };
  const other = files.find((file) => !isJsFile(file));
  if (other) return { fallback: `${other} is not a module` };
  const sources = listSources(gate.cwd);
  if (!sources) return { fallback: 'too many files to read' };
  const moduleFiles = readModuleFiles();
  const root = moduleFiles.realpath(gate.cwd) ?? gate.cwd;
  const absolute = (file: string) => resolve(root, file);
  const shown = (file: string) => relative(root, file).split(sep).join('/');
  const config = readJestConfig(sources, (file) => moduleFiles.read(absolute(file)));
  if ('fallback' in config) return config;
  const graph = buildModuleGraph(sources.map(absolute), moduleFiles, MAX_MODULES);
  if (!graph) return { fallback: `more than ${MAX_MODULES} modules` };
  const changed = files.map(absolute);
  const reached = reachedFrom(changed, graph, changeHasLoadEffects(changed, graph));
  const importing = config.files.find((file) => reached.has(absolute(file)));
  if (importing) return { fallback: `${importing} imports the change` };
  // A file the config names by path (a setup file, a mapped module, an environment) that no import leads to is loaded some way the graph doesn't see.
  const named = new Set(config.paths.flatMap((path) => (picomatch.scan(path).isGlob ? [] : resolvePath(resolve(root, path.replace(/^<rootDir>\/?/, '')), moduleFiles))));
  const setup = [...reached].find((file) => named.has(file) && !graph.imported.has(file));
  if (setup) return { fallback: `the jest config loads ${shown(setup)}, which the change reaches` };
  const tests = sources.filter((file) => TEST_FILE.test(file));
  const selected = [...reached].map(shown).filter((file) => TEST_FILE.test(file)).sort();
  const what = files.length === 1 ? files[0] : `${files.length} changed files`;
  const whole = selected.map((file) => [file, graph.takesWhole.get(absolute(file))] as const).find(([, barrel]) => barrel !== undefined);
  const count = `${selected.length} of ${tests.length} test files reach ${what}${whole ? ` (${whole[0]} takes all of ${shown(whole[1] ?? '')})` : ''}`;
  if (tests.length >= 10 && selected.length >= NEARLY_ALL * tests.length) return { kind: 'full', why: `${count}: the full run is faster` };
  // Jest runs the test files among the paths: a test file by its name, or any module nothing imports (a custom testMatch).
  const targets = [...reached].filter((file) => isJsFile(file) && !CONFIG.test(posix.basename(file)) && (TEST_FILE.test(shown(file)) || !graph.imported.has(file))).map(shown).filter((file) => !file.startsWith('../')).sort();
  return { kind: 'fast', run: [...run, '--runTestsByPath', '--passWithNoTests', '{files}'], targets, why: count };
}

/**
 * The jest configs in the gate's folder and the paths they name. A config that moves `<rootDir>`
 * (or gathers projects in other folders) names paths this can't place: the fallback.
 */
function readJestConfig(sources: string[], read: (file: string) => string | undefined): { files: string[]; paths: string[] } | { fallback: string } {
  const files = sources.filter((file) => CONFIG.test(file));
  const texts = files.map((file) => read(file) ?? '');
  const manifest = read('package.json');
  if (manifest !== undefined) {
    try {
      const jest: unknown = (JSON.parse(manifest) as { jest?: unknown }).jest;
      if (jest !== undefined) texts.push(JSON.stringify(jest));
    } catch {
      return { fallback: 'package.json does not parse' };
    }
  }
  const moved = texts.findIndex((text) => /(?<![<\w$])['"]?(?:rootDir|projects)['"]?\s*:/.test(text));
  if (moved !== -1) return { fallback: `${files[moved] ?? 'package.json "jest"'} sets rootDir or projects` };
  const paths = texts.flatMap((text) => [...text.matchAll(/'([^'\n\\]*)'|"([^"\n\\]*)"|`([^`\\$]*)`/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '')).filter((text) => text !== '' && !/\s/.test(text) && /[./]/.test(text));
  return { files, paths };
}
