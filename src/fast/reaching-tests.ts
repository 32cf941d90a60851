import { changeHasLoadEffects, type ModuleGraph, reachedFrom } from './js-module-graph.js';

export interface ReachInput {
  tests: string[];
  /** Files every run loads (a `--require` helper): a change they reach affects every test. */
  setup: string[];
  changed: string[];
  /** The import graph of the tests and setup files (src/fast/js-module-graph.ts): through a barrel, to the modules that define the names used. */
  graph: ModuleGraph;
}

export type Reach =
  | { kind: 'tests'; tests: string[] }
  | { kind: 'setup'; setup: string; changed: string }
  | { kind: 'unknown'; test: string; module: string; why: string };

/**
 * The tests that import a changed file, directly or through other modules — through a barrel only
 * when they use a name the change defines, the change is the barrel, or it does something as it
 * loads. A test that reaches a module with an import gate can't resolve might reach the change
 * too: that is the full run.
 */
export function findReachingTests({ tests, setup, changed, graph }: ReachInput): Reach {
  const known = { ...graph, unknown: new Map<string, string>() };
  const effects = changeHasLoadEffects(changed, graph);
  const fromChange = reachedFrom(changed, known, effects);
  const hitSetup = setup.find((file) => fromChange.has(file));
  if (hitSetup !== undefined) return { kind: 'setup', setup: hitSetup, changed: changed.find((file) => reachedFrom([file], known, effects).has(hitSetup)) ?? hitSetup };
  const fromUnknown = reachedBackFrom([...graph.unknown.keys()], graph);
  const blind = [...tests.filter((test) => !fromChange.has(test)), ...setup].find((file) => fromUnknown.has(file));
  if (blind !== undefined) {
    const module = fromUnknown.get(blind) ?? blind;
    return { kind: 'unknown', test: blind, module, why: graph.unknown.get(module) ?? '' };
  }
  return { kind: 'tests', tests: tests.filter((test) => fromChange.has(test)).sort() };
}

/** Each file from which one of `starts` can be reached by imports (`starts` included), with the start it reaches. */
function reachedBackFrom(starts: string[], graph: ModuleGraph): Map<string, string> {
  const importers = new Map<string, string[]>();
  for (const [from, targets] of graph.edges) {
    for (const target of targets) {
      const list = importers.get(target);
      if (list) list.push(from);
      else importers.set(target, [from]);
    }
  }
  const reached = new Map<string, string>();
  const queue: Array<[file: string, start: string]> = starts.map((start) => [start, start]);
  // A for…of over an array visits what is pushed onto it during the loop: a breadth-first walk.
  for (const [file, start] of queue) {
    if (reached.has(file)) continue;
    reached.set(file, start);
    for (const importer of importers.get(file) ?? []) queue.push([importer, start]);
  }
  return reached;
}
