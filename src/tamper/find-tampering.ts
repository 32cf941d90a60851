import { isGitError, execGit } from '../git/exec-git.js';
import { isConfigPath, isGateConfig, isHookFile, isTestPath, priorityOf } from './classify-path.js';
import { parseDiff, type FileDiff } from './parse-diff.js';
import { FileReader, MAX_FILE_BYTES, stateOf } from './read-changed-file.js';
import { scanChanges } from './scan-changes.js';
import type { AddedLine, FileChange, TamperScan } from './tamper-finding.js';

export const MAX_PATHS = 300;
const MAX_DIFF_BYTES = 8 * 1024 * 1024;
const MAX_READ_BYTES = 16 * 1024 * 1024;
const MAX_ADDED_LINES = 200_000;
const LINES_NOTE = `only the first ${MAX_ADDED_LINES} added lines were looked at`;

/**
 * Looks at what changed since `baselineHead` (null: no commit yet, everything is new) for ways of
 * making the checks pass without fixing the code: skipped or focused tests, deleted or emptied test
 * files, weakened checks, edits to gate's own config. One `git diff` against the baseline commit;
 * untracked files are read whole. Never throws: what it could not look at is in `incomplete`.
 */
export async function findTampering(root: string, baselineHead: string | null, changedPaths: string[]): Promise<TamperScan> {
  try {
    return await scan(root, baselineHead, changedPaths);
  } catch (error) {
    return { findings: [], incomplete: `the tamper check failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function scan(root: string, baselineHead: string | null, changedPaths: string[]): Promise<TamperScan> {
  const notes: string[] = [];
  const relevant = [...new Set(changedPaths)]
    .filter((path) => isSafePath(path) && priorityOf(path) !== undefined)
    .sort((a, b) => (priorityOf(a) ?? 9) - (priorityOf(b) ?? 9) || (a < b ? -1 : a > b ? 1 : 0));
  const paths = relevant.slice(0, MAX_PATHS);
  if (relevant.length > MAX_PATHS) notes.push(`only ${MAX_PATHS} of the ${relevant.length} changed files were looked at`);
  if (paths.length === 0) return { findings: [], incomplete: undefined };
  const states = new Map(paths.map((path) => [path, stateOf(root, path)]));

  let diffs = new Map<string, FileDiff>();
  if (baselineHead !== null) {
    if (!/^[0-9a-f]{7,64}$/i.test(baselineHead)) return { findings: [], incomplete: `the baseline "${baselineHead.slice(0, 80)}" is not a commit id` };
    const asked = paths.filter((path) => {
      const state = states.get(path);
      return state?.kind === 'gone' || (state?.kind === 'file' && state.size <= MAX_FILE_BYTES);
    });
    try {
      diffs = new Map(parseDiff(await diffAgainst(root, baselineHead, asked)).map((diff) => [diff.path, diff]));
    } catch (error) {
      if (!isGitError(error)) throw error;
      const detail = /maxBuffer/i.test(error.message) ? `the diff is larger than ${MAX_DIFF_BYTES / 1024 / 1024} MiB` : error.message;
      return { findings: [], incomplete: `could not compare with the baseline commit: ${detail}` };
    }
  }

  const reader = new FileReader(root, MAX_READ_BYTES);
  const changes: FileChange[] = [];
  for (const path of paths) {
    const state = states.get(path);
    if (!state || state.kind === 'other') continue;
    const diff = diffs.get(path);
    const deleted = state.kind === 'gone';
    if (diff) {
      if (diff.binary) continue;
      // Deleted from the index but still on disk (`git rm --cached`): it is untracked now, read it whole.
      const untracked = diff.deleted && !deleted;
      const current = !deleted && (untracked || wantsText(path)) ? reader.read(path) : undefined;
      const added = untracked ? linesOf(current ?? '') : diff.added;
      changes.push({ path, added, removed: diff.removed, deleted, created: diff.created, baselineKnown: true, current });
    } else if (deleted) {
      changes.push({ path, added: [], removed: [], deleted, created: false, baselineKnown: false, current: undefined });
    } else {
      // Not in the diff: untracked, so new since the baseline commit. (A tracked file put back to
      // the baseline's content is not in the diff either; see docs/tamper-guard.md.)
      const current = reader.read(path);
      if (current === undefined) continue;
      changes.push({ path, added: linesOf(current), removed: [], deleted, created: true, baselineKnown: false, current });
    }
  }
  if (reader.exhausted) notes.push(`files past ${MAX_READ_BYTES / 1024 / 1024} MiB in all were not read`);
  let lines = MAX_ADDED_LINES;
  for (const change of changes) {
    if (change.added.length > lines) {
      change.added = change.added.slice(0, lines);
      if (!notes.includes(LINES_NOTE)) notes.push(LINES_NOTE);
    }
    lines -= change.added.length;
  }
  return { findings: scanChanges(changes), incomplete: notes.length > 0 ? notes.join('; ') : undefined };
}

/** Work tree against the baseline commit, staged and unstaged alike, without context lines. */
function diffAgainst(root: string, baselineHead: string, paths: string[]): Promise<string> {
  if (paths.length === 0) return Promise.resolve('');
  // Every option that a user's config could change is pinned: prefixes, renames, colour, external
  // diff drivers, textconv, relative paths, submodule format, context.
  const args = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--no-relative', '--submodule=short'];
  args.push('-U0', '--inter-hunk-context=0', '--src-prefix=a/', '--dst-prefix=b/', baselineHead, '--');
  return execGit(root, [...args, ...paths.map((path) => `:(literal)${path}`)], MAX_DIFF_BYTES);
}

function linesOf(text: string): AddedLine[] {
  if (text === '') return [];
  return text.split('\n').map((line, index) => ({ line: index + 1, text: line.replace(/\r$/, '') }));
}

function wantsText(path: string): boolean {
  return isTestPath(path) || isConfigPath(path) || isGateConfig(path) || isHookFile(path);
}

function isSafePath(path: string): boolean {
  return path !== '' && !path.startsWith('/') && !path.includes('\0') && !path.split('/').includes('..');
}
