import { execGit } from '../git/exec-git.js';
import { priorityOf } from './classify-path.js';
import { MAX_FILE_BYTES, stateOf, type PathState } from './read-changed-file.js';

export const MAX_PATHS = 300;
export const MAX_DIFF_BYTES = 8 * 1024 * 1024;

/**
 * The first half of a tamper scan: which changed paths to look at, and the one `git diff` against
 * the baseline commit, already running. The hook starts it as soon as it knows the change, so that
 * git (which reads the whole index: tens of milliseconds on a big repository) works while the rest
 * of the stop loads; findTampering reads it.
 */
export interface StartedScan {
  root: string;
  baselineHead: string | null;
  changedPaths: string[];
  /** The paths to look at, most telling first, at most MAX_PATHS of them. */
  paths: string[];
  /** How many changed paths were worth looking at. */
  relevant: number;
  states: Map<string, PathState>;
  /** The diff, or what went wrong; undefined without a baseline commit. Never rejects. */
  diffing: Promise<{ text: string } | { error: unknown }> | undefined;
  /** The baseline is not a commit id: nothing was asked. */
  badBaseline: boolean;
}

/**
 * Never throws: a failure is handed to findTampering in `diffing`, which reports it. `always`:
 * paths looked at whatever their kind (the check scripts a gate runs, `scripts/check`).
 */
export function startScan(root: string, baselineHead: string | null, changedPaths: string[], always: readonly string[] = []): StartedScan {
  try {
    return launch(root, baselineHead, changedPaths, always);
  } catch (error) {
    return { root, baselineHead, changedPaths, paths: [...changedPaths], relevant: 0, states: new Map(), diffing: Promise.resolve({ error }), badBaseline: false };
  }
}

function launch(root: string, baselineHead: string | null, changedPaths: string[], always: readonly string[]): StartedScan {
  const relevant = [...new Set(changedPaths)]
    .filter((path) => isSafePath(path) && (priorityOf(path) !== undefined || always.includes(path)))
    .sort((a, b) => (priorityOf(a) ?? 9) - (priorityOf(b) ?? 9) || (a < b ? -1 : a > b ? 1 : 0));
  const paths = relevant.slice(0, MAX_PATHS);
  const states = new Map(paths.map((path) => [path, stateOf(root, path)]));
  const started = { root, baselineHead, changedPaths, paths, relevant: relevant.length, states, diffing: undefined, badBaseline: false };
  if (paths.length === 0 || baselineHead === null) return started;
  if (!/^[0-9a-f]{7,64}$/i.test(baselineHead)) return { ...started, badBaseline: true };
  const asked = paths.filter((path) => {
    const state = states.get(path);
    return state?.kind === 'gone' || (state?.kind === 'file' && state.size <= MAX_FILE_BYTES);
  });
  const diffing = diffAgainst(root, baselineHead, asked).then(
    (text) => ({ text }),
    (error: unknown) => ({ error }),
  );
  return { ...started, diffing };
}

/** Work tree against the baseline commit, staged and unstaged alike, without context lines. */
async function diffAgainst(root: string, baselineHead: string, paths: string[]): Promise<string> {
  if (paths.length === 0) return '';
  // Every option that a user's config could change is pinned: prefixes, renames, colour, external
  // diff drivers, textconv, relative paths, submodule format, context.
  // No index preloading: it starts a thread per 500 index entries, for a diff of a few paths.
  const args = ['-c', 'core.preloadIndex=false', ...(await withoutFilterDrivers(root)), 'diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--no-relative', '--submodule=short'];
  args.push('-U0', '--inter-hunk-context=0', '--src-prefix=a/', '--dst-prefix=b/', baselineHead, '--');
  return execGit(root, [...args, ...paths.map((path) => `:(literal)${path}`)], MAX_DIFF_BYTES);
}

/**
 * `-c` options that switch off every clean filter driver the config defines (`filter.<name>.clean`
 * or `.process`): the stop's `git status` has run each changed file's filter once, and a diff
 * against the work tree would run it twice more per file — a filter can take seconds. The diff
 * then reads a filtered file's bytes as they are on disk; line endings are still converted.
 */
async function withoutFilterDrivers(root: string): Promise<string[]> {
  // Exit 1 when no key matches: no driver.
  const listed = await execGit(root, ['config', '-z', '--get-regexp', '^filter\\.']).catch(() => '');
  const drivers = new Set(listed.split('\0').flatMap((entry) => /^filter\.(.+)\.(?:clean|process)\n/s.exec(entry)?.[1] ?? []));
  return [...drivers].flatMap((name) => ['-c', `filter.${name}.clean=`, '-c', `filter.${name}.process=`, '-c', `filter.${name}.required=false`]);
}

function isSafePath(path: string): boolean {
  return path !== '' && !path.startsWith('/') && !path.includes('\0') && !path.split('/').includes('..');
}
