import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fsPath } from '../git/path-bytes.js';
import { pathMatcher } from '../plan/path-matcher.js';
import { fullRunFirst, type FastPlan, type Planner } from './planner.js';

/**
 * The tool runs on the changed files only (related tests for vitest and jest, the changed files for
 * linters) — unless a changed file is one that affects every run (a config, setup file, lockfile),
 * one was deleted (what imported it isn't known), or the tool's config turns on rules that read
 * other files, where an edit here can break a file that didn't change.
 */
export const planChangedFiles: Planner = async (input): Promise<FastPlan> => {
  const full = fullRunFirst(input, 'run');
  if (full) return full;
  const { gate, files } = input;
  const deleted = files.find((file) => !existsSync(fsPath(join(gate.cwd, file))));
  if (deleted) return { kind: 'full', why: `${deleted} was deleted` };
  const crossFile = gate.tier.crossFile && findCrossFileRule(gate.cwd, gate.tier.crossFile);
  if (crossFile) {
    const why = `${crossFile.config} mentions ${crossFile.word}: rules that read other files`;
    return gate.preset === 'eslint' ? (await import('./eslint-cache.js')).planCachedEslint(input, why) : { kind: 'full', why };
  }
  const count = files.length === 1 ? files[0] : `${files.length} changed files`;
  if (gate.preset === 'vitest') {
    const graph = (await import('./vitest-graph.js')).planVitestGraph(input);
    if (!('fallback' in graph)) return graph;
    // A change in a package this one depends on: vitest's own selection can't be handed paths outside its root.
    if (files.some((file) => file.startsWith('../'))) return { kind: 'full', why: `a package it depends on changed, and ${graph.fallback}` };
    return { kind: 'fast', run: gate.tier.run, targets: files.map((file) => resolve(gate.cwd, file)), why: `only what ${count} touches (vitest's own selection: ${graph.fallback})` };
  }
  if (gate.preset === 'jest') {
    const graph = (await import('./jest-graph.js')).planJestGraph(input);
    if (!('fallback' in graph)) return graph;
    return { kind: 'fast', run: gate.tier.run, targets: files.map((file) => resolve(gate.cwd, file)), why: `only what ${count} touches (jest's own selection: ${graph.fallback})` };
  }
  // A test runner resolves a relative path against its own root (vitest's `test.root`, jest's
  // `rootDir`), not the cwd: under another root it finds no test and passes. Absolute paths mean one file.
  const targets = gate.preset === 'jest' ? files.map((file) => resolve(gate.cwd, file)) : files;
  return { kind: 'fast', run: gate.tier.run, targets, why: `only what ${count} touches` };
};

function findCrossFileRule(cwd: string, rule: { configs: string[]; mentions: string[] }): { config: string; word: string } | undefined {
  const isConfig = pathMatcher(rule.configs);
  let names: string[];
  try {
    names = readdirSync(cwd).filter((name) => isConfig(name));
  } catch {
    return undefined;
  }
  for (const config of names) {
    let text: string;
    try {
      // Regular files (or links to one) only: reading a FIFO would wait forever.
      if (!statSync(join(cwd, config)).isFile()) continue;
      text = readFileSync(join(cwd, config), 'utf8');
    } catch {
      continue;
    }
    const word = rule.mentions.find((mention) => text.includes(mention));
    if (word) return { config, word };
  }
  return undefined;
}
