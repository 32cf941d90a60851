import { join, sep } from 'node:path';
import type { ConfigTree, Scope } from '../config/config-tree.js';
import { fastHash } from '../hash/fast-hash.js';
import type { GateSelection } from '../plan/select-gates.js';
import type { GateResult } from '../runner/gate-result.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { readState, writeState } from './state-files.js';

// Versioned: a change to what the key covers starts a new file rather than misreading an old one.
const FILE = 'content-results-v1.json';
const KEEP = 64;

/** A dependent's gate that passed, and on what content. */
export interface ContentPass {
  key: string;
  gate: string;
  /** ISO time of the pass. */
  at: string;
}

export function contentResultsPath(stateDir: string): string {
  return join(stateDir, FILE);
}

/**
 * For a gate that runs only because a package it depends on changed: the gate's definition, its
 * config, the commit and every changed file of its package, of the packages it depends on
 * (transitively) and outside every package. Undefined for any other gate.
 */
export function contentKey(selection: GateSelection, scope: Scope | undefined, configHash: string, snapshot: Snapshot, root: string): string | undefined {
  if (!selection.run || !selection.upstream || selection.files.length > 0 || !scope?.content) return undefined;
  const { related, packages } = scope.content;
  const files = Object.keys(snapshot.files)
    .sort()
    .filter((path) => {
      const owner = ownerOf(join(root, path), packages);
      return owner === undefined || related.includes(owner);
    })
    .map((path) => [path, snapshot.files[path] ?? '']);
  return fastHash(JSON.stringify([configHash, selection.gate, snapshot.head, files]));
}

/** The package dir (absolute) holding an absolute path: the longest that is a prefix. */
export function ownerOf(path: string, packages: string[]): string | undefined {
  let owner: string | undefined;
  for (const dir of packages) {
    if (path !== dir && !path.startsWith(`${dir}${sep}`)) continue;
    if (owner === undefined || dir.length > owner.length) owner = dir;
  }
  return owner;
}

export function readContentPasses(path: string): ContentPass[] {
  return readState(path, isPassList).value ?? [];
}

/** Adds passes, newest last, one per key, keeping the file bounded. */
export function rememberContentPasses(path: string, known: ContentPass[], fresh: ContentPass[]): void {
  if (fresh.length === 0) return;
  const keys = new Set(fresh.map((pass) => pass.key));
  writeState(path, [...known.filter((pass) => !keys.has(pass.key)), ...fresh].slice(-KEEP));
}

export function describeContentPass(pass: ContentPass): string {
  return `passed on this content at ${pass.at.slice(0, 19).replace('T', ' ')} UTC: not re-run`;
}

/** At a stop: the dependents' gates that passed on exactly this content, and how to remember this stop's passes. */
export function reuseContentPasses(stateDir: string, selections: GateSelection[], tree: ConfigTree, fallbackHash: string, snapshot: Snapshot, root: string) {
  const path = contentResultsPath(stateDir);
  const known = readContentPasses(path);
  const keys = new Map<string, string>();
  for (const selection of selections) {
    const key = contentKey(selection, tree.scopes.get(selection.gate.configDir), tree.hashes.get(selection.gate.configDir) ?? fallbackHash, snapshot, root);
    if (key !== undefined) keys.set(selection.gate.name, key);
  }
  const passes = new Map<string, ContentPass>();
  for (const [name, key] of keys) {
    const pass = known.find((candidate) => candidate.key === key);
    if (pass) passes.set(name, pass);
  }
  return {
    passes,
    /** A failed gate is never remembered: only a pass is reused. */
    remember(results: GateResult[], now: Date): void {
      const at = now.toISOString();
      const fresh = results.filter((result) => result.status === 'passed' && !result.flaky && !result.cached && keys.has(result.name));
      rememberContentPasses(path, known, fresh.map((result) => ({ key: keys.get(result.name) ?? '', gate: result.name, at })));
    },
  };
}

function isPassList(value: unknown): value is ContentPass[] {
  return (
    Array.isArray(value) &&
    value.every((pass: unknown) => {
      if (typeof pass !== 'object' || pass === null) return false;
      const { key, gate, at } = pass as Record<string, unknown>;
      return typeof key === 'string' && typeof gate === 'string' && typeof at === 'string';
    })
  );
}
