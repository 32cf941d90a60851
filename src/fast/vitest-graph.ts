import { dirname, posix, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { splitCommand } from '../plan/split-command.js';
import type { FastInput, FastPlan } from './fast-plan.js';
import { listSources, readModuleFiles } from './js-imports.js';
import { buildModuleGraph, type ModuleGraph } from './js-module-graph.js';
import { isComponentFile, isJsFile, resolvePath } from './resolve-js-import.js';

// Vitest's default include and typecheck include: what counts as a test file in the counts the plan reports.
const TEST_FILE = /(?:^|\/)[^/]*\.(?:test|spec)(?:-d)?\.[cm]?[jt]sx?$/;
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
 * change reaches (vitest keeps the test files among them). Undefined where that reading can't be
 * trusted, why: the caller keeps `vitest related`.
 */
export function planVitestGraph({ gate, files }: FastInput): FastPlan | { fallback: string } {
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
  const configs = testConfigs(sources.filter((file) => TEST_CONFIG.test(posix.basename(file))).map(absolute), graph);
  const autoImports = configs.find((config) => AUTO_IMPORTS.test(moduleFiles.read(config) ?? ''));
  if (autoImports) return { fallback: `${shown(autoImports)} imports modules by plugin` };
  // A path in a test config (an alias target, a setup file) is no import of the config's: the
  // setup rule below covers what the config loads.
  for (const config of configs) for (const target of graph.named.get(config) ?? []) graph.edges.get(config)?.delete(target);
  const reached = reachedFrom(files.map(absolute), graph);
  // A module a test config imports (a plugin, a base config) changes how every test runs.
  const config = configs.find((file) => reached.has(file));
  if (config) return { fallback: `${shown(config)} imports the change` };
  const loaded = configLoaded(configs, moduleFiles);
  // A file a test config names (setupFiles, globalSetup, an alias target) that no import leads
  // to is loaded some way this graph doesn't see.
  const setup = [...reached].find((file) => loaded.has(file) && !graph.imported.has(file) && !TEST_FILE.test(shown(file)));
  if (setup) return { fallback: `the test config loads ${shown(setup)}, which the change reaches` };
  const tests = sources.filter((file) => TEST_FILE.test(file));
  const selected = [...reached].map(shown).filter((file) => TEST_FILE.test(file)).sort();
  const what = files.length === 1 ? files[0] : `${files.length} changed files`;
  const whole = selected.map((file) => [file, graph.takesWhole.get(absolute(file))] as const).find(([, barrel]) => barrel !== undefined);
  const widened = whole ? ` (${whole[0]} takes all of ${shown(whole[1] ?? '')})` : '';
  const count = `${selected.length} of ${tests.length} test files reach ${what}${widened}`;
  if (tests.length >= 10 && selected.length >= NEARLY_ALL * tests.length) return { kind: 'full', why: `${count}: the full run is faster` };
  // Vitest runs the test files among the paths it is given. A module something imports is no test
  // entry (unless tests live in the sources: includeSource), nor is a component file.
  const inSource = configs.some((config) => /\bincludeSource\b/.test(moduleFiles.read(config) ?? ''));
  const entry = (file: string) => isJsFile(file) && (inSource || TEST_FILE.test(shown(file)) || !graph.imported.has(file));
  const targets = [...reached].filter(entry).map(shown).sort();
  return { kind: 'fast', run: [...run, '--passWithNoTests', '{files}'], targets, why: count };
}

/**
 * The changed files and every module that imports one, directly or through others. A barrel that
 * changed reaches every module that took names through it; a changed module that does something
 * when it loads (or imports one that does) reaches everything that loads a barrel re-exporting it.
 * A module with an import the graph can't name may reach the change: it and its importers count.
 */
function reachedFrom(changed: string[], graph: ModuleGraph): Set<string> {
  const importers = new Map<string, string[]>();
  for (const [from, targets] of graph.edges) {
    for (const target of targets) {
      const list = importers.get(target);
      if (list) list.push(from);
      else importers.set(target, [from]);
    }
  }
  const effects = forwardFrom(changed, graph).some((file) => graph.bindings(file)?.topLevelEffects !== false);
  const reached = new Set<string>();
  const queue = [...changed, ...graph.unknown.keys()];
  for (const file of changed) queue.push(...(graph.through.get(file) ?? []));
  for (const file of queue) {
    if (reached.has(file)) continue;
    reached.add(file);
    queue.push(...(importers.get(file) ?? []));
    if (effects) queue.push(...(graph.through.get(file) ?? []));
  }
  return reached;
}

function forwardFrom(starts: string[], graph: ModuleGraph): string[] {
  const seen = new Set<string>();
  const queue = [...starts];
  for (const file of queue) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(graph.edges.get(file) ?? []));
  }
  return [...seen];
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
