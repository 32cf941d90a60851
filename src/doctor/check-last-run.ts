import { openProject } from '../commands/open-project.js';
import { ConfigError } from '../config/config-problem.js';
import { SetupError } from '../errors.js';
import { gateHint } from '../package/gate-command.js';
import { judgeCurrentReceipt } from '../receipt/judge-current.js';
import type { Finding } from './judge-delivery.js';

/**
 * What the last full run of every gate (gate check --all, init's own run, a full stop) said about
 * this exact tree: a gate red before any change refuses stops no turn caused. Doctor runs nothing
 * itself (a suite can take minutes); it reads the receipt, and says how to get one.
 */
export async function checkLastRun(projectDir: string): Promise<Finding[]> {
  let project;
  try {
    project = openProject(projectDir);
  } catch (error) {
    // No config, or an invalid one: checkConfigs says so.
    if (error instanceof SetupError || error instanceof ConfigError) return [];
    throw error;
  }
  const { judged } = await judgeCurrentReceipt(project, projectDir);
  const receipt = judged.receipt;
  const run = `run "${gateHint('check --all')}" to run every gate on this tree`;
  if (judged.state === 'none') return [{ level: 'info', message: `${judged.reason}, so a gate red before any change would not be known here: ${run}` }];
  if (receipt === undefined) return [];
  const when = `the last full run, by ${receipt.by === 'check' ? 'gate check --all' : 'a stop'} at ${receipt.time}`;
  if (judged.state === 'stale') {
    const red = receipt.gates.filter((gate) => gate.status === 'failed' || gate.status === 'timed-out').map((gate) => gate.name);
    return [{ level: 'info', message: `${judged.reason}${red.length > 0 ? ` (red: ${red.join(', ')})` : ''}; ${run}` }];
  }
  if (judged.state === 'pass') return [{ level: 'ok', message: `every gate passed on this tree (${when})` }];
  return receipt.gates.flatMap((gate): Finding[] => {
    if (gate.status === 'failed' || gate.status === 'timed-out') {
      return [
        {
          level: 'problem',
          message: `gate "${gate.name}" is red on this tree (${when}: ${gate.outcome}): every stop that runs it is refused for a failure no turn caused. Fix it, or drop or adjust the gate; "${gateHint(`check ${gate.name}`)}" shows its failures`,
        },
      ];
    }
    if (gate.status === 'not-started') return [{ level: 'info', message: `gate "${gate.name}" could not run at ${when} (${gate.outcome}): it gives no verdict` }];
    return [];
  });
}
