/** A module's edges in the import graph. */
export interface ModuleEdges {
  /** The local modules it imports (absolute paths). */
  imports: string[];
  /** Why it may import a local module gate can't name (a computed `require`, an unresolved alias). */
  unknown: string | undefined;
}

export interface ReachInput {
  tests: string[];
  /** Files every run loads (a `--require` helper): a change they reach affects every test. */
  setup: string[];
  changed: string[];
  edges: (file: string) => ModuleEdges;
  /** More modules than this and the graph is not worth walking: the full run is cheaper. */
  limit: number;
}

export type Reach =
  | { kind: 'tests'; tests: string[] }
  | { kind: 'setup'; setup: string; changed: string }
  | { kind: 'unknown'; test: string; module: string; why: string }
  | { kind: 'too-big'; modules: number };

/**
 * The tests that import a changed file, directly or through other modules. A test that reaches a
 * module with an import gate can't resolve might reach the change too: that is the full run.
 */
export function findReachingTests({ tests, setup, changed, edges, limit }: ReachInput): Reach {
  const importers = new Map<string, string[]>();
  const unknown = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [...tests, ...setup];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (seen.size > limit) return { kind: 'too-big', modules: seen.size };
    const { imports, unknown: why } = edges(file);
    if (why !== undefined) unknown.set(file, why);
    for (const imported of imports) {
      const list = importers.get(imported);
      if (list) list.push(file);
      else importers.set(imported, [file]);
      queue.push(imported);
    }
  }
  const fromChange = reachedBackFrom(changed, importers);
  const hitSetup = setup.find((file) => fromChange.has(file));
  if (hitSetup !== undefined) return { kind: 'setup', setup: hitSetup, changed: fromChange.get(hitSetup) ?? hitSetup };
  const fromUnknown = reachedBackFrom([...unknown.keys()], importers);
  const blind = [...tests.filter((test) => !fromChange.has(test)), ...setup].find((file) => fromUnknown.has(file));
  if (blind !== undefined) {
    const module = fromUnknown.get(blind) ?? blind;
    return { kind: 'unknown', test: blind, module, why: unknown.get(module) ?? '' };
  }
  return { kind: 'tests', tests: tests.filter((test) => fromChange.has(test)).sort() };
}

/** Each file from which one of `starts` can be reached by imports (`starts` included), with the start it reaches. */
function reachedBackFrom(starts: string[], importers: Map<string, string[]>): Map<string, string> {
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
