import { createHash } from 'node:crypto';
import type { GateStatus } from '../runner/gate-result.js';

/** One gate of a full run, as the receipt keeps it. */
export interface ReceiptGate {
  name: string;
  status: GateStatus;
  /** In words: "passed", "failed (exit 1)", "timed out after 60 s", "skipped (…)". */
  outcome: string;
  durationMs: number;
}

/** What a full run of every gate came to, bound to the tree and config it ran on. */
export interface ReceiptBody {
  version: 1;
  verdict: 'pass' | 'fail';
  /** ISO time the run ended. */
  time: string;
  /** What ran it: `gate check --all` or a stop; `ci` is `gate ci`'s, never written (its digest goes in the pull-request comment). */
  by: 'check' | 'stop' | 'ci';
  /** The work tree: the commit checked out, the snapshot digest (src/snapshot/), how many paths differed from the commit. */
  tree: { head: string | null; digest: string; changedFiles: number };
  /** Every config's hash in the repository (configDigest). */
  config: string;
  gates: ReceiptGate[];
}

export interface Receipt extends ReceiptBody {
  /** sha256 over everything above: a record edited by hand no longer matches it. */
  digest: string;
}

export function sealReceipt(body: ReceiptBody): Receipt {
  const canonical = canonicalBody(body);
  return { ...canonical, digest: digestOf(canonical) };
}

/** Passes only when every gate passed or had nothing to run on. */
export function verdictOf(gates: ReceiptGate[]): ReceiptBody['verdict'] {
  return gates.every((gate) => gate.status === 'passed' || gate.status === 'skipped') ? 'pass' : 'fail';
}

/** The record is whole, its digest matches its content, and its verdict its gates. */
export function isIntact(receipt: Receipt): boolean {
  return receipt.digest === digestOf(canonicalBody(receipt)) && receipt.verdict === verdictOf(receipt.gates);
}

// Rebuilt key by key: the digest must not depend on how the file's keys were ordered or spaced.
function canonicalBody(body: ReceiptBody): ReceiptBody {
  return {
    version: 1,
    verdict: body.verdict,
    time: body.time,
    by: body.by,
    tree: { head: body.tree.head, digest: body.tree.digest, changedFiles: body.tree.changedFiles },
    config: body.config,
    gates: body.gates.map((gate) => ({ name: gate.name, status: gate.status, outcome: gate.outcome, durationMs: gate.durationMs })),
  };
}

function digestOf(body: ReceiptBody): string {
  return createHash('sha256').update('stopgate receipt 1\n').update(JSON.stringify(body)).digest('hex');
}
