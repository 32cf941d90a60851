import { join } from 'node:path';
import type { ConfigTree } from '../config/config-tree.js';
import type { ResolvedGate } from '../config/load-config.js';
import type { GateSelection } from '../plan/select-gates.js';
import { ownerOf } from '../state/content-results.js';
import { lintReadsPackages, type Linter } from './lint-reads-packages.js';

/**
 * A package's lint that runs only because a package it depends on changed is left out when its
 * configuration reads no other package: the dependency's change cannot change that lint's result.
 * Its typecheck and tests still run (an exported type can break a dependent). Not after a change
 * to a file every package depends on (a lockfile can change the linter itself).
 */
export function skipDependentLint(selections: GateSelection[], tree: ConfigTree, repoRoot: string): GateSelection[] {
  return selections.map((selection) => {
    const linter = linterOf(selection.gate);
    const scope = tree.scopes.get(selection.gate.configDir);
    if (!linter || !selection.run || selection.files.length > 0 || !scope?.upstream || !scope.content) return selection;
    const { related, packages } = scope.content;
    const upstream = selection.upstream ?? [];
    const fromDependencies = upstream.every((path) => {
      const owner = ownerOf(join(repoRoot, path), packages);
      return owner !== undefined && owner !== related[0] && related.includes(owner);
    });
    if (!fromDependencies || upstream.length === 0) return selection;
    const reach = lintReadsPackages(linter, selection.gate.cwd, repoRoot, configOption(selection.gate));
    if (reach.reads) return selection;
    // The lint config itself changed with the dependency: its result can change.
    if (upstream.some((path) => reach.files.includes(path))) return selection;
    return {
      ...selection,
      run: false,
      reason: `${scope.upstream.why}, but its ${linter} configuration (${reach.files.join(', ')}) turns on no type-aware or import-resolving rule, so that change cannot change its result: not run`,
    };
  });
}

// Flags that bring in rules, plugins or parser settings gate does not read.
const UNREAD_FLAGS = /^--(?:rulesdir|rule|plugin|parser|parser-options|resolve-plugins-relative-to|config-path)(?:=|$)/;

function linterOf(gate: ResolvedGate): Linter | undefined {
  if (gate.shell || typeof gate.run === 'string' || gate.run.some((arg) => UNREAD_FLAGS.test(arg))) return undefined;
  if (gate.preset === 'eslint' && gate.run[0] === 'eslint') return 'eslint';
  if (gate.preset === 'biome' && gate.run[0] === 'biome') return 'biome';
  return undefined;
}

/** eslint's `-c FILE` / `--config FILE` / `--config=FILE`. */
function configOption(gate: ResolvedGate): string | undefined {
  const argv = Array.isArray(gate.run) ? gate.run : [];
  for (const [index, arg] of argv.entries()) {
    if (arg === '-c' || arg === '--config') return argv[index + 1];
    if (arg.startsWith('--config=')) return arg.slice('--config='.length);
  }
  return undefined;
}
