import type { ResolvedGate } from '../config/load-config.js';
import { describeResult } from '../report/gate-table.js';
import type { GateResult } from '../runner/gate-result.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { sealReceipt, verdictOf, type Receipt, type ReceiptBody } from './receipt.js';

export interface ReceiptInput {
  /** Every gate of every config in the repository. */
  gates: ResolvedGate[];
  results: GateResult[];
  snapshot: Snapshot;
  config: string;
  by: ReceiptBody['by'];
  now: Date;
}

/** The receipt of a run, or the names of the gates it lacks: a receipt covers every gate or none. */
export function makeReceipt(input: ReceiptInput): { receipt: Receipt } | { missing: string[] } {
  const byName = new Map(input.results.map((result) => [result.name, result]));
  const missing = input.gates.filter((gate) => !byName.has(gate.name)).map((gate) => gate.name);
  if (missing.length > 0) return { missing };
  const gates = input.gates.flatMap((gate) => {
    const result = byName.get(gate.name);
    return result ? [{ name: gate.name, status: result.status, outcome: describeResult(result), durationMs: Math.round(result.durationMs) }] : [];
  });
  const { head, digest, files } = input.snapshot;
  return {
    receipt: sealReceipt({
      version: 1,
      verdict: verdictOf(gates),
      time: input.now.toISOString(),
      by: input.by,
      tree: { head, digest, changedFiles: Object.keys(files).length },
      config: input.config,
      gates,
    }),
  };
}
