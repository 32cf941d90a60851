import { execGit } from '../git/exec-git.js';

/**
 * The starting commit's files that name the work tree by absolute path (a `paths` or
 * `moduleNameMapper` entry, a go `replace`, a cargo path dependency …): in the copy they still
 * lead to the edited code.
 */
export async function filesNamingWorkTree(root: string, head: string, roots: string[]): Promise<string[]> {
  // Whole path segments: `/repos/app-counter` does not name `/repos/app`.
  const patterns = roots.flatMap((path) => ['-e', `${escapeRegExp(path)}([^A-Za-z0-9._-]|$)`]);
  try {
    const listed = await execGit(root, ['grep', '-I', '-l', '-z', '-E', ...patterns, head, '--']);
    return listed
      .split('\0')
      .filter(Boolean)
      .map((entry) => entry.slice(head.length + 1));
  } catch {
    // git grep exits 1 when nothing matches.
    return [];
  }
}

/**
 * Paths of the live work tree's own files (not its node_modules or venv) that a baseline run's
 * output names: a stack frame or an import error pointing there says the copy ran edited code.
 * `topLevel` is the commit's top-level names; the copy's own paths are taken out first.
 */
export function workTreePathsIn(output: string, roots: string[], copy: string, topLevel: Set<string>): string[] {
  const text = output.split(copy).join('');
  const found = new Set<string>();
  for (const root of roots) {
    const pattern = new RegExp(`${escapeRegExp(root)}[\\\\/]([^\\s'"\`:,;()\\[\\]<>]+)`, 'g');
    for (const match of text.matchAll(pattern)) {
      const path = match[1] ?? '';
      const first = path.split(/[\\/]/)[0] ?? '';
      if (topLevel.has(first) && !IGNORED_TOP_LEVEL.includes(first)) found.add(path);
    }
  }
  return [...found].sort();
}

/** Top-level folders a baseline copy borrows or that are no project code. */
export const IGNORED_TOP_LEVEL = ['node_modules', '.venv', 'venv', '.git'];

/** A literal in a regular expression, JavaScript's or git grep -E's. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
