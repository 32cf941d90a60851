import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { selectGates } from '../plan/select-gates.js';
import type { GateResult } from '../runner/gate-result.js';
import { runGates } from '../runner/run-gates.js';
import { passedPath, writePassed } from '../state/session-state.js';
import { describeOutcome } from '../decide-stop.js';
import { changeSinceBaseline, openProject, openTree } from './open-project.js';

/** `gate check`: the same gates as a stop, run now for a person; exit 0 when all pass, 1 otherwise. */
export async function checkCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCheckArgs(args);
  const project = openProject(process.cwd());
  const everything = values.all || positionals.length > 0;
  const since = everything ? undefined : await changeSinceBaseline(project);
  const change = since?.change ?? { paths: [], all: true };
  // Asked for by name or --all: every config in the repository, so a package's gate can be named.
  const tree = await openTree(project, change);
  const known = new Set(tree.gates.flatMap((gate) => [gate.name, gate.shortName]));
  const unknown = positionals.filter((name) => !known.has(name));
  if (unknown.length > 0) throw new UsageError(`no gate named ${unknown.join(', ')}; the gates are: ${tree.gates.map((gate) => gate.name).join(', ')}`);

  const skip = new Set((env['GATE_SKIP'] ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  const only = positionals.length > 0 ? new Set(positionals) : undefined;
  const selections = selectGates(tree.gates, change, project.repo?.root ?? project.config.dir, tree.scopes, skip, only);
  const human = !values.json;
  if (human && !selections.some((selection) => selection.run)) {
    process.stdout.write(`Nothing to check: no changed file since ${since?.baseline ?? 'the baseline'} triggers a gate. Use --all to run every gate.\n`);
  }
  const progress = human ? startProgress() : undefined;
  const results = await runGates({
    selections,
    concurrency: tree.root.concurrency,
    projectDir: project.projectDir,
    logDir: join(project.stateDir, 'logs'),
    cacheDir: join(project.stateDir, 'cache'),
    env,
    onStart: progress?.start,
    onDone: progress?.done,
  });
  progress?.stop();
  const failed = results.filter((result) => result.status === 'failed' || (project.config.onTimeout === 'block' && result.status === 'timed-out'));
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ok: failed.length === 0, results: results.map(toJson) }, null, 2)}\n`);
  } else {
    for (const result of failed) process.stdout.write(`\n── ${result.name}: ${result.command}\n${result.output.trimEnd()}\n`);
    for (const result of results.filter((r) => r.status === 'not-started' || r.status === 'timed-out')) {
      process.stdout.write(`\n${result.name}: ${describeOutcome(result)}\n`);
    }
  }
  // Every gate passed on this tree: a stop on the same tree needn't run them again.
  const allPassed = tree.gates.every((gate) => results.some((result) => result.name === gate.name && result.status === 'passed'));
  if (allPassed && project.repo) {
    const snapshot = since?.snapshot ?? (await changeSinceBaseline(project)).snapshot;
    if (snapshot) writePassed(passedPath(project.stateDir), { snapshot, configHash: project.configFiles.hash });
  }
  return failed.length === 0 ? 0 : 1;
}

function parseCheckArgs(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, options: { all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate check [--all] [--json] [NAME…]`);
  }
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
