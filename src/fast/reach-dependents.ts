/** The seeds and everything that depends on them, following `dependents` transitively. */
export function reachDependents<T>(seeds: Iterable<T>, dependents: (node: T) => Iterable<T> | undefined): Set<T> {
  const reached = new Set<T>(seeds);
  const queue = [...reached];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    for (const dependent of dependents(node) ?? []) {
      if (reached.has(dependent)) continue;
      reached.add(dependent);
      queue.push(dependent);
    }
  }
  return reached;
}

/** `a`, `a and b`, `a, b and c`, `a, b, c and 4 more`: a bounded list for a plan's reason. */
export function listNames(names: string[], shown = 3): string {
  if (names.length <= 1) return names[0] ?? '';
  if (names.length <= shown + 1) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}
