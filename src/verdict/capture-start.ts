import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execGitIndexed } from '../git/exec-git.js';
import type { Repo } from '../git/find-repo.js';
import type { ConfigFiles } from '../config/find-config.js';
import { startConfigOf } from '../config/start-config.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { fingerprintEnvironment } from '../start/environment.js';
import type { StartState } from '../start/start-state.js';

/** Past this many changed paths the start is not written as a tree (its failures then count as new). */
const MOST_PATHS = 2000;

/**
 * The turn's start, taken when the prompt arrives: the whole work tree as a git tree (the user's
 * uncommitted work and untracked files included) and the environment the gates run in. Written
 * through an index of gate's own: the user's index and files are never touched. And the root
 * config's text, which the turn's stops use when the turn deletes it.
 */
export async function captureStart(repo: Repo, stateDir: string, snapshot: Snapshot, dirs: string[], env: NodeJS.ProcessEnv, configFiles: ConfigFiles): Promise<StartState> {
  const environment = fingerprintEnvironment(dirs, env);
  const config = startConfigOf(configFiles, repo.root);
  const written = await writeStartTree(repo, stateDir, snapshot);
  return { digest: snapshot.digest, tree: written.tree, ...(written.unwritten !== undefined && { unwritten: written.unwritten }), environment, ...(config ? { config } : {}) };
}

async function writeStartTree(repo: Repo, stateDir: string, snapshot: Snapshot): Promise<{ tree: string | undefined; unwritten?: string }> {
  if (snapshot.head === null) return { tree: undefined };
  const paths = Object.entries(snapshot.files).filter(([, print]) => print !== 'dir' && !print.startsWith('special:'));
  if (paths.length > MOST_PATHS) return { tree: undefined, unwritten: `${paths.length} changed files at its start, more than ${MOST_PATHS} to write` };
  try {
    const tree = await writeTree(repo, stateDir, snapshot);
    return tree === undefined ? { tree, unwritten: 'git wrote no tree of its files' } : { tree };
  } catch (error) {
    const text = (error instanceof Error ? error.message : String(error)).trim().split('\n')[0] ?? '';
    return { tree: undefined, unwritten: `git could not write its files as a tree: ${text.slice(0, 200)}` };
  }
}

async function writeTree({ root, gitDir }: Repo, stateDir: string, snapshot: Snapshot): Promise<string | undefined> {
  if (snapshot.head === null) return undefined;
  const paths = Object.entries(snapshot.files)
    // An untracked repository inside (a folder) or a FIFO is no file a checkout would write.
    .filter(([, print]) => print !== 'dir' && !print.startsWith('special:'))
    .map(([path]) => path);
  if (paths.length === 0) return snapshot.head;
  if (paths.length > MOST_PATHS) return undefined;
  const index = join(stateDir, `start-index-${process.pid}`);
  const list = paths.map((path) => `${path}\0`).join('');
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    // A copy of the user's index knows every unchanged file already (and its folders' trees): only
    // the changed paths are read. Failing that (no index yet, a split index), the commit's tree.
    try {
      copyFileSync(join(gitDir, 'index'), index);
      return await treeWith(root, index, list);
    } catch {
      await execGitIndexed(root, ['read-tree', snapshot.head], index);
      return await treeWith(root, index, list);
    }
  } finally {
    rmSync(index, { force: true });
  }
}

/** Each changed path as the work tree has it now (a deleted one leaves the index), written as a tree. */
async function treeWith(root: string, index: string, paths: string): Promise<string | undefined> {
  await execGitIndexed(root, ['update-index', '--add', '--remove', '-z', '--stdin'], index, paths);
  return (await execGitIndexed(root, ['write-tree'], index)).trim() || undefined;
}
