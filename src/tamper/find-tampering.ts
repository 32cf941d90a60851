import { isGitError } from '../git/exec-git.js';
import { isConfigPath, isGateConfig, isHookFile, isTestPath } from './classify-path.js';
import { parseDiff, type FileDiff } from './parse-diff.js';
import { FileReader } from './read-changed-file.js';
import { rebuildBaseline } from './rebuild-baseline.js';
import { scanChanges } from './scan-changes.js';
import { MAX_DIFF_BYTES, MAX_PATHS, startScan, type StartedScan } from './start-scan.js';
import type { AddedLine, FileChange, TamperScan } from './tamper-finding.js';

export { MAX_PATHS };
const MAX_READ_BYTES = 16 * 1024 * 1024;
const MAX_ADDED_LINES = 200_000;
const LINES_NOTE = `only the first ${MAX_ADDED_LINES} added lines were looked at`;

/**
 * Looks at what changed since `baselineHead` (null: no commit yet, everything is new) for ways of
 * making the checks pass without fixing the code: skipped or focused tests, deleted or emptied test
 * files, weakened checks, edits to gate's own config. One `git diff` against the baseline commit
 * (`started`: already running, when the hook began it for these same arguments); untracked files
 * are read whole. `scripts`: the check scripts the gates run (src/tamper/check-scripts.ts), looked
 * at whatever their name (a second diff, for those the first one left out). Never throws: what it
 * could not look at is in `incomplete`.
 */
export async function findTampering(
  root: string,
  baselineHead: string | null,
  changedPaths: string[],
  started?: StartedScan,
  scripts: ReadonlyMap<string, string> = new Map(),
): Promise<TamperScan> {
  try {
    const matches = started?.root === root && started.baselineHead === baselineHead && sameList(started.changedPaths, changedPaths);
    const first = matches && started ? started : startScan(root, baselineHead, changedPaths);
    const changed = new Set(changedPaths);
    const missed = [...scripts.keys()].filter((path) => changed.has(path) && !first.paths.includes(path));
    const scans = [await scan(first, scripts), ...(missed.length > 0 ? [await scan(startScan(root, baselineHead, missed, missed), scripts)] : [])];
    const notes = scans.flatMap((found) => found.incomplete ?? []);
    return { findings: scans.flatMap((found) => found.findings), incomplete: notes.length > 0 ? notes.join('; ') : undefined };
  } catch (error) {
    return { findings: [], incomplete: `the tamper check failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function scan({ root, baselineHead, paths, relevant, states, diffing, badBaseline }: StartedScan, scripts: ReadonlyMap<string, string>): Promise<TamperScan> {
  const notes: string[] = [];
  if (relevant > MAX_PATHS) notes.push(`only ${MAX_PATHS} of the ${relevant} changed files were looked at`);
  if (paths.length === 0) return { findings: [], incomplete: undefined };
  if (badBaseline) return { findings: [], incomplete: `the baseline "${(baselineHead ?? '').slice(0, 80)}" is not a commit id` };

  let diffs = new Map<string, FileDiff>();
  if (diffing) {
    const result = await diffing;
    if ('error' in result) {
      const { error } = result;
      if (!isGitError(error)) throw error;
      const detail = /maxBuffer/i.test(error.message) ? `the diff is larger than ${MAX_DIFF_BYTES / 1024 / 1024} MiB` : error.message;
      return { findings: [], incomplete: `could not compare with the baseline commit: ${detail}` };
    }
    diffs = new Map(parseDiff(result.text).map((fileDiff) => [fileDiff.path, fileDiff]));
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
      const current = !deleted && (untracked || wantsText(path) || scripts.has(path)) ? reader.read(path) : undefined;
      const added = untracked ? linesOf(current ?? '') : diff.added;
      // gate's own config is compared by what it says, not its bytes: its baseline text is in the diff.
      const baseline = current !== undefined && !untracked && !diff.created && isGateConfig(path) ? rebuildBaseline(current, diff.added, diff.removed, diff.removedBefore) : undefined;
      changes.push({ path, added, removed: diff.removed, deleted, created: diff.created, baselineKnown: true, current, ...(baseline === undefined ? {} : { baseline }) });
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
  return { findings: scanChanges(changes, scripts), incomplete: notes.length > 0 ? notes.join('; ') : undefined };
}

function linesOf(text: string): AddedLine[] {
  if (text === '') return [];
  return text.split('\n').map((line, index) => ({ line: index + 1, text: line.replace(/\r$/, '') }));
}

function wantsText(path: string): boolean {
  return isTestPath(path) || isConfigPath(path) || isGateConfig(path) || isHookFile(path);
}

function sameList(a: string[], b: string[]): boolean {
  return a === b || (a.length === b.length && a.every((item, index) => item === b[index]));
}
