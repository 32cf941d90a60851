import type { ConfigTree } from '../config/config-tree.js';
import { listConfigDirs } from '../config/list-config-dirs.js';
import type { GateResult } from '../runner/gate-result.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { configDigest } from './config-digest.js';

export interface StopReceiptInput {
  root: string;
  stateDir: string;
  tree: ConfigTree;
  results: GateResult[];
  snapshot: Snapshot;
  now?: Date;
}

/**
 * After a green stop: a receipt only when that stop was a full run of every gate of the repository
 * — each one run now (not taken from the verdict cache), with its full command (no fast tier, no
 * `{files}`), and every config's gates among them.
 */
export async function recordStopReceipt({ root, stateDir, tree, results, snapshot, now = new Date() }: StopReceiptInput): Promise<void> {
  const full = (gate: { name: string }) => results.some((result) => result.name === gate.name && result.status === 'passed' && !result.cached && !result.narrowed);
  if (tree.gates.length === 0 || !tree.gates.every(full)) return;
  // Without ignored files (a package's personal gate.local.json): too slow for a stop. A config this
  // stop did not load still changes the digest `gate receipt` computes, so its receipt reads STALE.
  const dirs = await listConfigDirs(root, { ignored: false }).catch(() => undefined);
  if (!dirs?.every((dir) => tree.hashes.has(dir))) return;
  // Loaded only now: node:crypto costs a stop that writes no receipt more than it would notice.
  const [{ makeReceipt }, { receiptPath, writeReceipt }] = await Promise.all([import('./make-receipt.js'), import('./receipt-file.js')]);
  const made = makeReceipt({ gates: tree.gates, results, snapshot, config: configDigest(tree.hashes, root), by: 'stop', now });
  if ('receipt' in made) writeReceipt(receiptPath(stateDir), made.receipt);
}
