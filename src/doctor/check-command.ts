import { spawnSync } from 'node:child_process';
import { ADAPTERS, type Adapter, type HarnessName } from '../harness/adapters.js';
import { detectManager } from '../package/package-manager.js';
import { explainNodeMissing, nodeOnPath } from './explain-not-run.js';
import { installAdvice } from './install-advice.js';
import type { Finding } from './judge-delivery.js';
import { probeDelivery } from './probe-delivery.js';

/** The command runs from the launch directory, and a failing stop through it reaches the agent. */
export function checkCommand(harness: HarnessName, command: string, projectDir: string, env: NodeJS.ProcessEnv): Finding[] {
  const runs = checkCommandRuns(command, projectDir, env, ADAPTERS[harness]);
  if (runs.level !== 'ok') return [runs];
  const findings = [runs, probeDelivery(ADAPTERS[harness], command, projectDir, env)];
  if (!nodeOnPath(env['PATH'])) {
    findings.push({
      level: 'info',
      message: "node is not on this PATH: gate's bin finds it itself (nvm, volta, fnm, asdf, mise, Homebrew, /usr/local/bin, or GATE_NODE) and puts its directory first on the gates' PATH; a gate whose program is elsewhere off this PATH still cannot start",
    });
  }
  return findings;
}

/** Runs the hook's command as the harness would (sh, its project variable set), asking for --version. */
export function checkCommandRuns(command: string, projectDir: string, env: NodeJS.ProcessEnv, adapter: Pick<Adapter, 'projectEnv' | 'substitutesInCommand'>): Finding {
  // Everything from the `run` word on (--harness, --event, a trailing `|| exit 1`) gives way to --version.
  const variable = adapter.substitutesInCommand;
  const text = variable === undefined ? command : command.split(`$${variable}`).join(`'${projectDir.replace(/'/g, `'\\''`)}'`);
  const probe = text.replace(/\s+run(?:\s.*)?$/, ' --version');
  const projectVars = Object.fromEntries(adapter.projectEnv.map((name) => [name, projectDir]));
  const result = spawnSync('/bin/sh', ['-c', probe], { cwd: projectDir, env: { ...env, ...projectVars }, encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status === 0) return { level: 'ok', message: `hook command runs from ${projectDir}: ${command} (gate ${result.stdout.trim()})` };
  const node = result.status === 127 ? explainNodeMissing(result.stderr, { onPath: nodeOnPath(env['PATH']), execPath: process.execPath }) : undefined;
  if (node !== undefined) return { level: 'problem', message: `hook command does not run from ${projectDir}: ${command} — ${node}` };
  const why = result.status === 127 ? 'not found (exit 127): every harness treats that as a non-blocking error, so the gate would silently do nothing' : `exit ${result.status}: ${result.stderr.trim()}`;
  return { level: 'problem', message: `hook command does not run from ${projectDir}: ${command} — ${why}. ${installAdvice(command, detectManager(projectDir))}` };
}
