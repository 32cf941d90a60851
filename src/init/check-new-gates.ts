import { checkGates } from '../commands/check-gates.js';
import { openProject } from '../commands/open-project.js';
import { describeOutcome } from '../report/describe-outcome.js';
import { recordCheckReceipt } from '../receipt/record-check-receipt.js';
import type { GateResult } from '../runner/gate-result.js';

const MARK: Record<GateResult['status'], string> = { passed: '✔', failed: '✖', 'timed-out': '⏱', 'not-started': '?', skipped: '-' };

/**
 * Every gate just written, run once in full on the tree as it is (`gate check --all`, which also
 * writes the receipt doctor reads), each gate said as it ends; or why they could not be run.
 */
export async function checkNewGates(projectDir: string, env: NodeJS.ProcessEnv, write: (text: string) => void): Promise<{ results: GateResult[] } | { error: string }> {
  try {
    const project = openProject(projectDir);
    const budget = project.config.gates.length > 0 ? ` (each up to its timeout; "gate init --no-check" skips this)` : '';
    write(`\nRunning every gate once, in full, on this tree, as no agent has touched it yet${budget}:\n`);
    const { results } = await checkGates(project, {
      all: true,
      names: [],
      env,
      onDone: (result) => write(`  ${MARK[result.status]} ${result.name}  ${result.status === 'passed' ? 'passed' : result.status === 'skipped' ? `skipped (${result.detail ?? ''})` : describeOutcome(result)}  ${(result.durationMs / 1000).toFixed(1)}s\n`),
    });
    const note = await recordCheckReceipt(project, results);
    if (note !== undefined && project.repo !== undefined) write(`  (${note})\n`);
    if (results.length > 0 && results.every((result) => result.status === 'passed' || result.status === 'skipped')) write(`Every gate passed on this tree.\n`);
    return { results };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
