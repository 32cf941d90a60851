// After a failed `turbo run … --continue=dependencies-successful`, gate adds to the run's output what
// turbo's dry run of the same command says of its tasks (src/runner/turbo-dry-run.ts): one line per
// task that waits on others, `[gate: turbo task @acme/vue#typecheck after @acme/core#build]`. turbo
// itself never names the tasks it skipped, and a task that passed prints nothing under
// --output-logs=errors-only, so its output alone cannot tell the two apart.
const GRAPH_LINE = /^\[gate: turbo task (\S+) after (\S+(?:, \S+)*)\]$/;

/** Shown in full; past that, a count. */
const LISTED = 12;

/** The lines gate adds for the stdout of `turbo run … --dry=json`; throws on what is not one. */
export function graphLines(dryJson: string): string[] {
  const parsed: unknown = JSON.parse(dryJson.slice(Math.max(0, dryJson.indexOf('{'))));
  const tasks = isRecord(parsed) ? parsed['tasks'] : undefined;
  if (!Array.isArray(tasks)) throw new Error('no tasks list');
  const lines: string[] = [];
  for (const task of tasks) {
    if (!isRecord(task) || typeof task['taskId'] !== 'string') throw new Error('a task without a taskId');
    const after = Array.isArray(task['dependencies']) ? task['dependencies'].filter((id): id is string => typeof id === 'string') : [];
    if (after.length > 0) lines.push(`[gate: turbo task ${task['taskId']} after ${after.join(', ')}]`);
  }
  return lines;
}

/** A graph line's task and the tasks it waits on, in turbo's words (`pkg#task`). */
export function readGraphLine(line: string): { task: string; after: string[] } | undefined {
  const match = GRAPH_LINE.exec(line);
  if (!match?.[1] || !match[2]) return undefined;
  return { task: match[1], after: match[2].split(', ') };
}

/**
 * What turbo skipped under --continue=dependencies-successful: every task that waits, directly or
 * through others, on a failed one. Each is said once, under the first failed task it waits on.
 */
export function describeNotRun(graph: ReadonlyMap<string, readonly string[]>, failed: readonly string[]): string[] {
  const dependents = new Map<string, string[]>();
  for (const [task, after] of graph) for (const before of after) dependents.set(before, [...(dependents.get(before) ?? []), task]);
  const said = new Set(failed);
  const lines: string[] = [];
  for (const root of failed) {
    const skipped: string[] = [];
    for (let queue = [...(dependents.get(root) ?? [])]; queue.length > 0; ) {
      const task = queue.shift() ?? '';
      if (said.has(task)) continue;
      said.add(task);
      skipped.push(task);
      queue = [...queue, ...(dependents.get(task) ?? [])];
    }
    if (skipped.length === 0) continue;
    const sorted = skipped.sort();
    const more = sorted.length > LISTED ? ` and ${sorted.length - LISTED} more` : '';
    lines.push(`Not run because ${root} failed: ${sorted.slice(0, LISTED).join(', ')}${more}`);
  }
  return lines;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
