import { relative } from 'node:path';
import { openTree, type Project } from '../commands/open-project.js';
import { takeSnapshot } from '../snapshot/take-snapshot.js';
import { configDigest } from './config-digest.js';
import { judgeReceipt, type CurrentTree, type ReceiptJudgement } from './judge-receipt.js';
import { readReceipt, receiptPath } from './receipt-file.js';

/** The receipt of the work tree as it is now; the record's path is given relative to `from`. */
export async function judgeCurrentReceipt(project: Project, from: string): Promise<{ judged: ReceiptJudgement; now: CurrentTree }> {
  if (!project.repo) {
    return {
      judged: { state: 'none', reason: 'not a git repository, so there is no tree to bind a receipt to', receipt: undefined },
      now: { head: null, digest: '', config: '' },
    };
  }
  const [tree, taken] = await Promise.all([openTree(project, { paths: [], all: true }), takeSnapshot(project.repo)]);
  const now = { head: taken.snapshot.head, digest: taken.snapshot.digest, config: configDigest(tree.hashes, project.repo.root) };
  const path = receiptPath(project.stateDir);
  return { judged: judgeReceipt(readReceipt(path), now, relative(from, path) || path), now };
}
