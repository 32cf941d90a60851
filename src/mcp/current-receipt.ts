import { relative } from 'node:path';
import { openTree, type Project } from '../commands/open-project.js';
import { configDigest } from '../receipt/config-digest.js';
import { judgeReceipt, type CurrentTree, type ReceiptJudgement } from '../receipt/judge-receipt.js';
import { readReceipt, receiptPath } from '../receipt/receipt-file.js';
import { receiptJson, renderReceiptText } from '../receipt/render-receipt.js';
import { takeSnapshot } from '../snapshot/take-snapshot.js';

/** `gate receipt --json` and its text, for the gate_receipt tool (the same steps as src/commands/receipt.ts). */
export async function currentReceipt(project: Project): Promise<{ text: string; json: object }> {
  let judged: ReceiptJudgement;
  let now: CurrentTree = { head: null, digest: '', config: '' };
  if (project.repo) {
    const [tree, taken] = await Promise.all([openTree(project, { paths: [], all: true }), takeSnapshot(project.repo)]);
    now = { head: taken.snapshot.head, digest: taken.snapshot.digest, config: configDigest(tree.hashes, project.repo.root) };
    const path = receiptPath(project.stateDir);
    judged = judgeReceipt(readReceipt(path), now, relative(project.projectDir, path) || path);
  } else {
    judged = { state: 'none', reason: 'not a git repository, so there is no tree to bind a receipt to', receipt: undefined };
  }
  return { text: renderReceiptText(judged), json: receiptJson(judged, now) };
}
