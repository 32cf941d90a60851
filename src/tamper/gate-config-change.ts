import { baseName } from './classify-path.js';
import { compareGateConfigs } from './config-meaning.js';
import { keyChain, keysIn } from './key-chain.js';
import type { FileChange } from './tamper-finding.js';

const MAX_PARTS = 3;

/**
 * What an edit to gate's own config did, in words: "changes gate.config.json: removes the gate
 * "test", raises maxBlocks from 3 to 50". Undefined when it says what it said before (reformatted).
 * Compared parsed when both sides are JSON, else read from the added and removed lines.
 */
export function describeGateConfigChange(change: FileChange): string | undefined {
  const name = baseName(change.path);
  if (change.deleted) return `deletes ${name}`;
  if (change.created) return `creates ${name}`;
  const meaning = change.baseline === undefined || change.current === undefined ? undefined : compareGateConfigs(change.baseline, change.current);
  if (meaning?.same) return undefined;
  if (meaning) return phrase(name, meaning.parts);
  const added = change.added.map((line) => line.text);
  const parts: string[] = [];
  const lines = change.current?.split('\n');
  const names = new Set(valuesOf(lines ?? added, 'name'));
  for (const gate of valuesOf(change.removed, 'name')) {
    if (!names.has(gate)) parts.push(`removes the gate "${gate}"`);
  }
  const before = numberOf(change.removed, 'maxBlocks');
  const after = numberOf(added, 'maxBlocks');
  if (after !== undefined && (before === undefined || after > before)) {
    parts.push(before === undefined ? `sets maxBlocks to ${after}` : `raises maxBlocks from ${before} to ${after}`);
  }
  for (const [key, value] of [['tamper', undefined], ['onTimeout', 'allow']] as const) {
    const set = valuesOf(added, key)[0];
    if (set !== undefined && (value === undefined || set === value)) parts.push(`sets ${key} to ${JSON.stringify(set)}`);
  }
  const keys = new Set(change.added.flatMap((line) => (lines ? Object.values(keyChain(lines, line.line - 1, false)).flat() : keysIn(line.text))));
  if (keys.has('on') || keys.has('ignore')) parts.push('changes which files a gate runs for');
  if (keys.has('run')) parts.push('changes a gate command');
  return phrase(name, parts);
}

function phrase(name: string, parts: string[]): string {
  if (parts.length === 0) return `changes ${name}`;
  const shown = parts.slice(0, MAX_PARTS).join(', ');
  return `changes ${name}: ${shown}${parts.length > MAX_PARTS ? ', …' : ''}`;
}

function valuesOf(lines: string[], key: string): string[] {
  const pattern = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`, 'g');
  return lines.flatMap((line) => [...line.matchAll(pattern)].map((match) => match[1] ?? ''));
}

function numberOf(lines: string[], key: string): number | undefined {
  const pattern = new RegExp(`"${key}"\\s*:\\s*(\\d+)`);
  for (const line of lines) {
    const match = pattern.exec(line);
    if (match?.[1]) return Number(match[1]);
  }
  return undefined;
}
