import type { Receipt } from './receipt.js';
import type { ReadReceipt } from './receipt-file.js';

export type ReceiptState = 'pass' | 'fail' | 'stale' | 'none';

export interface ReceiptJudgement {
  state: ReceiptState;
  /** One sentence, without the state word. */
  reason: string;
  /** The record, when there is an intact one (also when stale). */
  receipt: Receipt | undefined;
}

export interface CurrentTree {
  head: string | null;
  /** The snapshot digest of the work tree now. */
  digest: string;
  /** configDigest of the configs now. */
  config: string;
}

/** `gate receipt`'s answer: what the last full run says about exactly this tree and config. */
export function judgeReceipt(read: ReadReceipt, now: CurrentTree, where: string): ReceiptJudgement {
  if (read.kind === 'missing') return { state: 'none', reason: 'no full run of every gate is recorded here', receipt: undefined };
  if (read.kind === 'unreadable') return { state: 'none', reason: `the record (${where}) cannot be read`, receipt: undefined };
  if (read.kind === 'edited') return { state: 'none', reason: `the record (${where}) does not match its digest: it was edited by hand or damaged`, receipt: undefined };
  const { receipt } = read;
  const treeMoved = receipt.tree.digest !== now.digest;
  const configMoved = receipt.config !== now.config;
  if (treeMoved || configMoved) {
    const what = treeMoved && configMoved ? 'the work tree and the config' : treeMoved ? 'the work tree' : 'the config';
    const commits = treeMoved && receipt.tree.head !== now.head ? ` (commit ${short(receipt.tree.head)} then, ${short(now.head)} now)` : '';
    return { state: 'stale', reason: `${what} changed since the last full run${commits}, which was ${receipt.verdict.toUpperCase()}`, receipt };
  }
  if (receipt.verdict === 'pass') return { state: 'pass', reason: 'every gate passed on exactly this tree and config', receipt };
  const red = receipt.gates.filter((gate) => gate.status !== 'passed' && gate.status !== 'skipped');
  return { state: 'fail', reason: `${red.length} of ${receipt.gates.length} gates did not pass on exactly this tree and config (${red.map((gate) => gate.name).join(', ')})`, receipt };
}

export function short(head: string | null): string {
  return head === null ? '(no commit)' : head.slice(0, 7);
}
