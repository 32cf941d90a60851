import { join } from 'node:path';
import { relative } from 'node:path';
import type { ResolvedGate } from '../config/load-config.js';
import { fastHash } from '../hash/fast-hash.js';
import { pathMatcher } from '../plan/path-matcher.js';
import type { GateSelection } from '../plan/select-gates.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { readState, writeState } from './state-files.js';

const KEEP = 500;

export function verdictsPath(stateDir: string): string {
  return join(stateDir, 'verdicts.json');
}

/**
 * What a passing verdict depends on: the config, the gate's definition, the files it was asked
 * about, the commit, the content of every locally changed file the gate's globs cover, and of the
 * changed files in the packages it depends on.
 */
export function verdictKey(configHash: string, selection: GateSelection, snapshot: Snapshot, root: string): string {
  const gate = selection.gate;
  const covered = coveredFingerprints(gate, snapshot, root, gate.configDir);
  const upstream = (selection.upstream ?? []).map((path) => [path, snapshot.files[path] ?? '']);
  return fastHash(JSON.stringify([configHash, gate, selection.files, selection.partial, snapshot.head, covered, upstream]));
}

function coveredFingerprints(gate: ResolvedGate, snapshot: Snapshot, root: string, configDir: string): Array<[string, string]> {
  const matches = pathMatcher(gate.on);
  const ignored = pathMatcher(gate.ignore);
  return Object.keys(snapshot.files)
    .sort()
    .filter((path) => {
      const local = relative(configDir, join(root, path)).split('\\').join('/');
      return !local.startsWith('../') && matches(local) && !ignored(local);
    })
    .map((path) => [path, snapshot.files[path] ?? '']);
}

export function readVerdicts(path: string): string[] {
  return readState(path, isKeyList).value ?? [];
}

/** Adds keys, newest last, keeping the file bounded. */
export function rememberVerdicts(path: string, known: string[], keys: string[]): void {
  if (keys.length === 0) return;
  const merged = [...known.filter((key) => !keys.includes(key)), ...keys].slice(-KEEP);
  writeState(path, merged);
}

function isKeyList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((key) => typeof key === 'string');
}
