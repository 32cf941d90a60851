import { join } from 'node:path';
import { readState, writeState } from '../state/state-files.js';
import { isIntact, type Receipt } from './receipt.js';

export type ReadReceipt = { kind: 'found'; receipt: Receipt } | { kind: 'missing' } | { kind: 'unreadable' } | { kind: 'edited' };

export function receiptPath(stateDir: string): string {
  return join(stateDir, 'receipt.json');
}

export function writeReceipt(path: string, receipt: Receipt): void {
  writeState(path, receipt);
}

/** A record that is not whole, or whose digest does not match, is no receipt at all. */
export function readReceipt(path: string): ReadReceipt {
  const read = readState(path, isReceiptShape);
  if (read.corrupt) return { kind: 'unreadable' };
  if (!read.value) return { kind: 'missing' };
  return isIntact(read.value) ? { kind: 'found', receipt: read.value } : { kind: 'edited' };
}

const STATUSES = new Set(['passed', 'failed', 'timed-out', 'not-started', 'skipped']);

function isReceiptShape(value: unknown): value is Receipt {
  if (typeof value !== 'object' || value === null) return false;
  const { version, verdict, time, by, tree, config, gates, digest } = value as Record<string, unknown>;
  return (
    version === 1 &&
    (verdict === 'pass' || verdict === 'fail') &&
    typeof time === 'string' &&
    (by === 'check' || by === 'stop') &&
    isTree(tree) &&
    typeof config === 'string' &&
    Array.isArray(gates) &&
    gates.every(isGate) &&
    typeof digest === 'string'
  );
}

function isTree(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { head, digest, changedFiles } = value as Record<string, unknown>;
  return (head === null || typeof head === 'string') && typeof digest === 'string' && Number.isInteger(changedFiles);
}

function isGate(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { name, status, outcome, durationMs } = value as Record<string, unknown>;
  return typeof name === 'string' && typeof status === 'string' && STATUSES.has(status) && typeof outcome === 'string' && Number.isFinite(durationMs);
}
