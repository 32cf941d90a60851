import { gateTable } from '../report/gate-table.js';
import { formatMs, formatTime } from '../report/format-units.js';
import { short, type CurrentTree, type ReceiptJudgement } from './judge-receipt.js';
import type { Receipt } from './receipt.js';
import { gateHint } from '../package/gate-command.js';

/** `gate receipt`'s exit code: 0 PASS, 1 FAIL, 2 no receipt for this tree (STALE, NONE). */
export const RECEIPT_EXIT = { pass: 0, fail: 1, stale: 2, none: 2 } as const;

const MARK: Record<string, string> = { passed: '✔', failed: '✖', 'timed-out': '⏱', 'not-started': '?', skipped: '-' };

/** For a person: the state and why, where the run was, then one line per gate. */
export function renderReceiptText(judged: ReceiptJudgement): string {
  const head = `${judged.state.toUpperCase()}: ${judged.reason}.`;
  const { receipt } = judged;
  if (judged.state === 'none' || judged.state === 'stale' || !receipt) return `${head}\nRun "${gateHint('check --all')}" to record one for this tree.\n`;
  const width = Math.max(...receipt.gates.map((gate) => gate.name.length));
  const gates = receipt.gates.map((gate) => `  ${MARK[gate.status] ?? ' '} ${gate.name.padEnd(width)}  ${gate.outcome}  ${formatMs(gate.durationMs)}`);
  return `${[head, provenance(receipt), ...gates].join('\n')}\n`;
}

/** To paste into a pull request: the state, where the run was, and a gate | outcome | time table. */
export function renderReceiptMarkdown(judged: ReceiptJudgement): string {
  const head = `**gate receipt: ${judged.state.toUpperCase()}** — ${judged.reason}.`;
  const { receipt } = judged;
  if (judged.state === 'none' || judged.state === 'stale' || !receipt) return `${head}\n`;
  return `${[head, '', provenance(receipt, '`'), '', ...gateTable(receipt.gates)].join('\n')}\n`;
}

export function receiptJson(judged: ReceiptJudgement, now: CurrentTree): object {
  return { state: judged.state, reason: judged.reason, current: { head: now.head, tree: now.digest, config: now.config }, receipt: judged.receipt ?? null };
}

function provenance(receipt: Receipt, quote = ''): string {
  const changed = receipt.tree.changedFiles;
  const tree = changed === 0 ? 'clean work tree' : `${changed} uncommitted ${changed === 1 ? 'change' : 'changes'}`;
  const by = receipt.by === 'check' ? `${quote}gate check --all${quote}` : 'a stop';
  return `commit ${quote}${short(receipt.tree.head)}${quote} (${tree}), tree ${quote}${receipt.tree.digest}${quote}, by ${by} at ${formatTime(receipt.time)}`;
}
