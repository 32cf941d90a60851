import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { findProgram } from '../runner/find-program.js';
import { findSetupFault } from '../runner/setup-fault.js';
import { withLocalBins } from '../runner/spawn-group.js';
import type { Finding } from './judge-delivery.js';

/**
 * A task runner (turbo, nx) starts each task through the package manager the repository names: a
 * stop with that manager off the agent's PATH gets no verdict at all. Found at install time: the
 * manager looked up as the gate would find it, then the runner's own dry run (which reads turbo.json,
 * nx's graph) checked for a setup fault.
 */
export function checkRunnerSetup(name: string, program: string, argv: string[], cwd: string, env: NodeJS.ProcessEnv): Finding[] {
  const runner = basename(program);
  if (runner !== 'turbo' && runner !== 'nx') return [];
  const path = withLocalBins(env['PATH'] ?? '', cwd);
  const findings: Finding[] = [];
  const manager = packageManagerOf(cwd);
  if (manager && 'missing' in findProgram(manager.name, cwd, path)) {
    findings.push({ level: 'problem', message: `gate "${name}": ${runner} runs each task through ${manager.name} (packageManager in ${manager.file}), which is not on PATH here: every stop would get no verdict from it. Fix: install ${manager.name} or put it on the PATH the agent gets (corepack enable)` });
  }
  const dry = runner === 'turbo' ? [program, 'run', argv[argv.indexOf('run') + 1] ?? 'test', '--dry=json', '--no-update-notifier'] : [program, 'show', 'projects'];
  const run = spawnSync(dry[0] ?? program, dry.slice(1), { cwd, env: { ...env, PATH: path, TURBO_TELEMETRY_DISABLED: '1', NX_DAEMON: 'false' }, encoding: 'utf8', timeout: 60_000 });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  const fault = run.status !== 0 ? findSetupFault(output) : undefined;
  if (fault) findings.push({ level: 'problem', message: `gate "${name}": ${dry.slice(0, 3).map((word) => basename(word)).join(' ')} … failed: ${fault.what}. Fix: ${fault.fix}` });
  else if (run.status !== 0) findings.push({ level: 'warning', message: `gate "${name}": its dry run (${basename(program)} ${dry.slice(1).join(' ')}) failed: ${output.trim().split('\n').slice(-3).join(' / ') || run.error?.message || `exit ${run.status}`}` });
  return findings;
}

/** The package manager the nearest package.json with a "packageManager" field names, from `dir` up. */
function packageManagerOf(dir: string): { name: string; file: string } | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const file = join(current, 'package.json');
    try {
      const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const field = typeof value === 'object' && value !== null && 'packageManager' in value ? value.packageManager : undefined;
      if (typeof field === 'string' && /^(npm|pnpm|yarn|bun)@/.test(field)) return { name: field.split('@')[0] ?? field, file };
    } catch {
      // No package.json here, or not JSON: look further up.
    }
    if (dirname(current) === current) return undefined;
  }
}
