import { openTree, type Project } from '../commands/open-project.js';
import type { GateResult } from '../runner/gate-result.js';
import { takeSnapshot } from '../snapshot/take-snapshot.js';
import { configDigest } from './config-digest.js';
import { makeReceipt } from './make-receipt.js';
import { receiptPath, writeReceipt } from './receipt-file.js';

/**
 * After `gate check --all`: the receipt of this tree, pass or fail. Returns what to tell the person
 * when there is none to write (outside git, a gate skipped by GATE_SKIP).
 */
export async function recordCheckReceipt(project: Project, results: GateResult[], now = new Date()): Promise<string | undefined> {
  if (!project.repo) return 'no receipt: not a git repository, so there is no tree to bind it to';
  const tree = await openTree(project, { paths: [], all: true });
  const { snapshot } = await takeSnapshot(project.repo);
  const made = makeReceipt({ gates: tree.gates, results, snapshot, config: configDigest(tree.hashes, project.repo.root), by: 'check', now });
  if ('missing' in made) return `no receipt: not every gate ran (${made.missing.join(', ')})`;
  writeReceipt(receiptPath(project.stateDir), made.receipt);
  return undefined;
}
