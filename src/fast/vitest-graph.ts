import { dirname, posix, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { splitCommand } from '../plan/split-command.js';
import type { FastInput, FastPlan } from './planner.js';
import { listSources, readModuleFiles } from './js-imports.js';
import { buildModuleGraph, changeHasLoadEffects, type ModuleGraph, reachedFrom } from './js-module-graph.js';
import { isComponentFile, isJsFile, resolvePath } from './resolve-js-import.js';
import { narrowByRecord } from './by-coverage/narrow-by-record.js';

// Vitest's default include and typecheck include: what counts as a test file in the counts the plan reports.
const TEST_FILE = /(?:^|\/)[^/]*\.(?:test|spec)(?:-d)?\.[cm]?[jt]sx?$/;
const TYPE_TEST = /(?:^|\/)[^/]*\.(?:test|spec)-d\.[cm]?[jt]sx?$/;
const TEST_CONFIG = /^(?:vitest|vite)\.(?:config|workspace|projects)(?:\.[\w-]+)?\.[cm]?[jt]s$/;
// Plugins that import modules no file names: the graph can't see those edges.
const AUTO_IMPORTS = /unplugin-auto-import|unplugin-vue-components|AutoImport\(|Components\(/;
// From this share of the suite on, the full command is faster than naming the files.
const NEARLY_ALL = 0.9;
const MAX_MODULES = 20_000;

/**
 * Vitest's own `related` follows every import, so a change to any module that a barrel re-exports
 * reaches every test that imports the barrel. This reads the graph itself, where a test reaches a
 * barrel's module only when it uses a name that module defines, and hands vitest the files the
 * change reaches (vitest keeps the test files among them). Where that reading can't be trusted,
 * the reason (`fallback`): the caller keeps `vitest related`.
 */
export function planVitestGraph({ gate, files, cacheDir }: FastInput): FastPlan | { fallback: string } {
  const run = typeof gate.run === 'string' ? splitCommand(gate.run) : gate.run;
  if (!run.some((word) => /(?:^|\/)vitest(?:\.m?js)?$/.test(word)) || !run.includes('run') || run.some((word) => word.includes('{files}'))) return { fallback: 'the gate\'s command is not `vitest run`' };
  const other = files.find((file) => !isJsFile(file) && !isComponentFile(file));
  if (other) return { fallback: `${other} is not a module` };
  const sources = listSources(gate.cwd, (name) => isJsFile(name) || isComponentFile(name));
  if (!sources) return { fallback: 'too many files to read' };
  const moduleFiles = readModuleFiles();
  // Real paths throughout, as the graph names modules.
  const root = moduleFiles.realpath(gate.cwd) ?? gate.cwd;
  const absolute = (file: string) => resolve(root, file);
  const shown = (file: string) => relative(root, file).split(sep).join('/');
  const graph = buildModuleGraph(sources.map(absolute), moduleFiles, MAX_MODULES);
  if (!graph) return { fallback: `more than ${MAX_MODULES} modules` };
  // The test configs here and those they build on (`mergeConfig(base, …)` of a workspace root's).
  const configs = testConfigs(loadedConfigs(sources, run, moduleFiles, absolute), graph);
  const autoImports = configs.find((config) => AUTO_IMPORTS.test(moduleFiles.read(config) ?? ''));
  if (autoImports) return { fallback: `${shown(autoImports)} imports modules by plugin` };
  const changed = files.map(absolute);
  const effects = changeHasLoadEffects(changed, graph);
  const reached = reachedFrom(changed, graph, effects);
  // A module a test config imports (a plugin, a base config) changes how every test runs. A path a
  // config names (an alias target, a setup file) is no import of it: the setup rule covers those.
  const configSet = new Set(configs);
  const configReached = reachedFrom(changed, graph, effects, (from, to) => configSet.has(from) && graph.named.get(from)?.has(to) === true);
  const config = configs.find((file) => configReached.has(file));
  if (config) return { fallback: `${shown(config)} imports the change` };
  const loaded = configLoaded(configs, moduleFiles);
  // A file a test config names (setupFiles, globalSetup, an alias target) that no import leads
  // to is loaded some way this graph doesn't see.
  const setup = [...reached].find((file) => loaded.has(file) && !graph.imported.has(file) && !TEST_FILE.test(shown(file)));
  if (setup) return { fallback: `the test config loads ${shown(setup)}, which the change reaches` };
  const tests = sources.filter((file) => TEST_FILE.test(file));
  // A type test checks declarations: one that only changed files with the same declarations reach stays out (src/plan/kept-declarations.ts).
  const keptDeclarations = new Set((gate.declarationsKept ?? []).map(absolute));
  const declared = keptDeclarations.size === 0 ? reached : reachedFrom(changed.filter((file) => !keptDeclarations.has(file)), graph, effects);
  const typeTestsOut = [...reached].filter((file) => TYPE_TEST.test(shown(file)) && !declared.has(file)).map(shown).sort();
  if (typeTestsOut.length > 0) for (const file of typeTestsOut) reached.delete(absolute(file));
  const selected = [...reached].map(shown).filter((file) => TEST_FILE.test(file)).sort();
  const what = files.length === 1 ? files[0] : `${files.length} changed files`;
  const whole = selected.map((file) => [file, graph.takesWhole.get(absolute(file))] as const).find(([, barrel]) => barrel !== undefined);
  const widened = whole ? ` (${whole[0]} takes all of ${shown(whole[1] ?? '')})` : '';
  const leftOut = typeTestsOut.length === 0 ? '' : `; not ${listed(typeTestsOut)}: the declarations it checks are kept`;
  const count = `${selected.length} of ${tests.length} test files reach ${what}${widened}${leftOut}`;
  // Of those, the tests that executed what changed, by the record of the last passing full run.
  const byRecord = cacheDir === undefined || selected.length === 0 ? undefined : narrowByRecord(cacheDir, root, selected.map(absolute), changed);
  const recorded = byRecord && new Set(byRecord.tests.map(shown));
  if (tests.length >= 10 && (recorded?.size ?? selected.length) >= NEARLY_ALL * tests.length) return { kind: 'full', why: `${byRecord ? `${count}; ${byRecord.why}` : count}: the full run is faster` };
  // Vitest runs the test files among the paths it is given. A module something imports is no test
  // entry (unless tests live in the sources: includeSource), nor is a component file.
  const inSource = configs.some((config) => /\bincludeSource\b/.test(moduleFiles.read(config) ?? ''));
  // A test config may be reached through a path it names: it is no test file either.
  const entry = (file: string) => isJsFile(file) && !TEST_CONFIG.test(posix.basename(file)) && (inSource || TEST_FILE.test(shown(file)) || !graph.imported.has(file));
  const targets = [...reached].filter(entry).map(shown).filter((file) => !recorded || recorded.has(file) || !TEST_FILE.test(file)).sort();
  if (byRecord && targets.length === 0) return { kind: 'none', why: `${count}; ${byRecord.why}` };
  return { kind: 'fast', run: [...run, '--passWithNoTests', '{files}'], targets, why: byRecord ? `${count}; ${byRecord.why}` : count };
}

/**
 * The configs a `vitest run` here loads: the one in its folder, unless it gathers projects (or a
 * config is named on the command line), when it may be any below. urql's root run must not count
 * examples/with-vue3/vite.config.js, an app's config that imports the shared package.
 */
function loadedConfigs(sources: string[], run: string[], files: ReturnType<typeof readModuleFiles>, absolute: (file: string) => string): string[] {
  const all = sources.filter((file) => TEST_CONFIG.test(posix.basename(file)));
  const own = all.filter((file) => !file.includes('/'));
  const gathers = own.some((file) => !/^(?:vitest|vite)\.config\./.test(file) || /\b(?:projects|workspace)\b/.test(files.read(absolute(file)) ?? ''));
  const named = run.some((word) => /^(?:-c|--config|--root|-r|--dir|--project)(?:=|$)/.test(word));
  return (gathers || named ? all : own).map(absolute);
}

/** The test configs and every local module they import, directly or not (a shared base config, a plugin). */
function testConfigs(configs: string[], graph: ModuleGraph): string[] {
  const found = new Set<string>();
  const queue = [...configs];
  for (const file of queue) {
    if (found.has(file)) continue;
    found.add(file);
    for (const target of graph.edges.get(file) ?? []) if (!graph.named.get(file)?.has(target)) queue.push(target);
  }
  return [...found];
}

/**
 * The files (absolute) a test config names by a path relative to itself or its folder: a setup
 * file, a global setup, an environment, an alias target. Globs are left out: they choose test or
 * benchmark files, which the plan passes on as it does any file the change reaches.
 */
function configLoaded(configs: string[], files: ReturnType<typeof readModuleFiles>): Set<string> {
  const named = new Set<string>();
  for (const config of configs) {
    const source = files.read(config);
    if (source === undefined) continue;
    for (const literal of stringLiterals(source)) {
      if (picomatch.scan(literal).isGlob) continue;
      for (const file of resolvePath(resolve(dirname(config), literal), files)) named.add(file);
    }
  }
  return named;
}

function stringLiterals(source: string): string[] {
  return [...source.matchAll(/'([^'\n\\]*)'|"([^"\n\\]*)"|`([^`\\$]*)`/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '').filter((text) => text !== '' && !/\s/.test(text));
}

function listed(files: string[]): string {
  return files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
}
