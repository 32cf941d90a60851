import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import type { GateResult } from '../runner/gate-result.js';
import { describeOutcome } from '../report/describe-outcome.js';
import { messages } from '../messages.js';
import { recordCheckReceipt } from '../receipt/record-check-receipt.js';
import { stateKeyNow } from '../start/start-state.js';
import { checkGates } from './check-gates.js';
import { openProject } from './open-project.js';

/** `gate check`: the same gates as a stop, run now for a person; exit 0 when all pass, 1 when one failed or could not start. */
export async function checkCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCheckArgs(args);
  const project = openProject(process.cwd());
  const human = !values.json;
  const progress = human ? startProgress() : undefined;
  const { baseline, selections, results, failed, reruns, baseDigest } = await checkGates(project, { all: values.all, names: positionals, env, onStart: progress?.start, onDone: progress?.done }).finally(
    () => progress?.stop(),
  );
  for (const again of reruns) process.stderr.write(`${messages.transientRerun(again.name, again.files, again.status)}\n`);
  if (human && !selections.some((selection) => selection.run)) {
    process.stdout.write(`Nothing to check: no changed file since ${baseline ?? 'the baseline'} triggers a gate. Use --all to run every gate.\n`);
  }
  // A gate that could not start gave no verdict: a person asking "does it pass?" must not read yes.
  const ok = failed.length === 0 && !results.some((result) => result.status === 'not-started');
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ok, results: results.map(toJson) }, null, 2)}\n`);
  } else {
    for (const result of failed) process.stdout.write(`\n── ${result.name}: ${result.command}\n${result.output.trimEnd()}\n`);
    for (const result of results.filter((r) => r.status === 'not-started' || r.status === 'timed-out')) {
      process.stdout.write(`\n${result.name}: ${describeOutcome(result)}\n`);
    }
  }
  if (values.sarif || values.junit || values.codequality) {
    const { placeFailures, writeReportFiles } = await import('./report-files.js');
    const repoRoot = project.repo?.root ?? project.projectDir;
    const baseKey = baseDigest === undefined ? undefined : stateKeyNow(baseDigest, [repoRoot, project.projectDir], env);
    const gates = placeFailures({ repoRoot, stateDir: project.stateDir, gates: selections.map((selection) => selection.gate), results, baseKey });
    writeReportFiles(values, gates, undefined);
  }
  // --all is a full run of every gate on this tree: its receipt (docs/receipts-and-ci.md).
  if (values.all && positionals.length === 0) {
    const note = await recordCheckReceipt(project, results);
    if (note) process.stderr.write(`gate: ${note}\n`);
  }
  return ok ? 0 : 1;
}

export const CHECK_USAGE = 'usage: gate check [--all] [--json] [--sarif FILE] [--junit FILE] [--codequality FILE] [NAME…]';

function parseCheckArgs(args: string[]) {
  let parsed;
  try {
    const file = { type: 'string' } as const;
    parsed = parseArgs({ args, allowPositionals: true, options: { all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, sarif: file, junit: file, codequality: file } });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${CHECK_USAGE}`);
  }
  for (const name of ['sarif', 'junit', 'codequality'] as const) if (parsed.values[name] === '') throw new UsageError(`--${name} takes a file; ${CHECK_USAGE}`);
  return parsed;
}

const MARK: Record<GateResult['status'], string> = { passed: '✔', failed: '✖', 'timed-out': '⏱', 'not-started': '?', skipped: '-' };

// Progress goes to stderr so that stdout stays the result; on a terminal a ticking line, else one line per gate.
function startProgress() {
  const running = new Map<string, number>();
  const tty = process.stderr.isTTY;
  const timer = tty
    ? setInterval(() => {
        const names = [...running.entries()].map(([name, start]) => `${name} ${((Date.now() - start) / 1000).toFixed(0)}s`);
        process.stderr.write(`\r\x1b[K… running ${names.join(', ')}`);
      }, 250)
    : undefined;
  return {
    start: (name: string) => {
      running.set(name, Date.now());
      if (!tty) process.stderr.write(`… ${name}\n`);
    },
    done: (result: GateResult) => {
      running.delete(result.name);
      const outcome = result.status === 'passed' ? 'passed' : result.status === 'skipped' ? `skipped (${result.detail ?? ''})` : describeOutcome(result);
      process.stderr.write(`${tty ? '\r\x1b[K' : ''}${MARK[result.status]} ${result.name}  ${outcome}  ${(result.durationMs / 1000).toFixed(1)}s\n`);
    },
    stop: () => {
      if (timer) clearInterval(timer);
      if (tty) process.stderr.write('\r\x1b[K');
    },
  };
}

function toJson(result: GateResult) {
  const { output: _output, ...rest } = result;
  return { ...rest, outcome: result.status === 'passed' ? 'passed' : describeOutcome(result) };
}
