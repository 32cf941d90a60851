import { join } from 'node:path';
import type { ResolvedGate } from '../../src/config/load-config.js';
import { loadConfig } from '../../src/config/load-config.js';
import { buildCommand } from '../../src/runner/build-command.js';
import { runGate } from '../../src/runner/run-gate.js';
import { hasTool } from './tools.js';

/**
 * The tools come from scripts/install-tools.mjs (npm test's pretest): a missing one is a broken
 * set-up that fails the file, unless GATE_TEST_ALLOW_MISSING_TOOLS=1 (then its tests are skipped).
 */
export function requireTools(...tools: string[]): boolean {
  const missing = tools.filter((tool) => !hasTool(tool));
  if (missing.length > 0 && process.env['GATE_TEST_ALLOW_MISSING_TOOLS'] !== '1') {
    throw new Error(`${missing.join(' and ')} not found: run node scripts/install-tools.mjs (or set GATE_TEST_ALLOW_MISSING_TOOLS=1 to skip)`);
  }
  return missing.length === 0;
}

/** The gate `{ name, preset, env }` resolves to in a gate.config.json at `dir`, as `gate` loads it. */
export function presetGate(dir: string, preset: string, env: Record<string, string>, name = 'check'): ResolvedGate {
  const text = JSON.stringify({ gates: [{ name, preset, env }] });
  const gate = loadConfig({ dir, team: { path: join(dir, 'gate.config.json'), text }, hash: 'test' }, dir).gates[0];
  if (!gate) throw new Error('no gate');
  return gate;
}

/** Where a gate's cache and log go in these tests: beside the project, as under .git/gate/. */
export function stateOf(dir: string, gate: ResolvedGate) {
  return { cacheDir: join(dir, '.git', 'gate', 'cache', gate.name), logPath: join(dir, '.git', 'gate', 'logs', `${gate.name}.log`) };
}

export function build(dir: string, gate: ResolvedGate, files: string[], full = false) {
  return buildCommand(gate, files, { projectDir: dir, cacheDir: stateOf(dir, gate).cacheDir, full });
}

export function run(dir: string, gate: ResolvedGate, files: string[], env: Record<string, string>, full = false) {
  return runGate({ gate, files, projectDir: dir, env, full, ...stateOf(dir, gate) });
}
