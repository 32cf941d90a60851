// One gate on one project, as an agent's session meets it: a temp git repo made from the project,
// then three turns through the built bin (UserPromptSubmit, an edit, Stop), and the preset's full
// command run directly for comparison.
//   turn 1  edit 1 breaks something                       → stop (a): cold, must block (exit 2)
//   turn 2  edit 1 undone                                 → stop: must allow (exit 0)
//   turn 3  edit 2 (another file) breaks something else   → (c) full command, then stop (b): must block
// (c) and (b) start from the same state: the whole temp folder (tree, .git, every cache) is copied
// before (c) and put back before (b), so neither warms the other.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
export const TIMEOUT_MS = 30 * 60_000;

export function timed(command, args, options) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, timeout: TIMEOUT_MS, ...options });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  return { ms, code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A hook's input; `active` is Claude Code's stop_hook_active: this stop follows a refused one in the same turn. */
export function payload(event, session, cwd, active = false) {
  return JSON.stringify({ session_id: session, transcript_path: '/nonexistent/transcript.jsonl', cwd, hook_event_name: event, stop_hook_active: active });
}

/** Applies an edit ({ file, replace: [from, to] } or { file, append }) and returns the undo. */
export function edit(dir, change) {
  const file = join(dir, change.file);
  const before = readFileSync(file, 'utf8');
  let after;
  if (change.append !== undefined) after = before + change.append;
  else {
    const [from, to] = change.replace;
    if (!before.includes(from)) throw new Error(`${change.file} does not contain ${JSON.stringify(from)}: the project changed, fix the bench's edit`);
    after = before.replace(from, to);
  }
  writeFileSync(file, after);
  return () => writeFileSync(file, before);
}

/**
 * What `gate log --json` recorded of the last stop (best effort, '?' when it says nothing): the tier
 * each gate ran, and how much of the stop the gates took (the rest is gate itself: change detection,
 * and at a first block the full command on the baseline, to tell pre-existing failures apart).
 */
export function lastStop(dir, env, bin) {
  const result = spawnSync(process.execPath, [bin, 'log', '--json'], { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  try {
    const parsed = JSON.parse(result.stdout);
    const entries = Array.isArray(parsed) ? parsed : (parsed.entries ?? parsed.stops ?? []);
    const last = entries.at(-1);
    const gates = last?.gates ?? [];
    const tiers = gates.map((gate) => (typeof gate.tier === 'string' ? gate.tier : [gate.tier?.kind, gate.tier?.why].filter(Boolean).join(': ')));
    // A gate that ran ahead of the stop, while the agent worked, took none of the stop's time.
    const gateMs = Math.max(0, ...gates.filter((gate) => !gate.ahead).map((gate) => gate.durationMs ?? 0));
    return { tier: tiers.filter(Boolean).join('; ') || '?', gateMs, stopMs: last?.durationMs ?? null };
  } catch {
    return { tier: '?', gateMs: null, stopMs: null };
  }
}

/**
 * @param {object} options
 * @param {string} options.template   the prepared project (copied, never touched)
 * @param {string} options.preset     the preset id, also the gate's name
 * @param {object} options.first      edit 1 and `expect` (regexes the report must match)
 * @param {object} options.second     edit 2 and its `expect`
 * @param {(caches: string) => Record<string, string>} options.env  the stack's environment (caches under `caches`)
 * @param {string[]} options.path     folders put first on PATH (tools)
 * @param {string} options.label      for the temp folder's name
 * @param {boolean} options.keep      keep the temp folder (printed) instead of deleting it
 * @param {string} options.bin        the gate binary measured (bin/gate.cjs of some checkout)
 */
export function benchGate(options) {
  const bin = options.bin;
  const base = realpathSync(mkdtempSync(join(tmpdir(), `gate-bench-${options.label}-`)));
  const dir = join(base, 'repo');
  const home = join(base, 'home');
  const caches = join(base, 'caches');
  for (const folder of [home, caches, join(base, 'tmp')]) mkdirSync(folder, { recursive: true });
  execFileSync('cp', ['-a', options.template, dir]);
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.test\n[init]\n\tdefaultBranch = main\n');
  const env = {
    PATH: [join(dir, 'node_modules', '.bin'), ...options.path, process.env.PATH ?? '/usr/bin:/bin'].join(delimiter),
    HOME: home,
    LANG: 'C.UTF-8',
    TMPDIR: join(base, 'tmp'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    ...options.env(caches),
  };
  const git = (...args) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  writeFileSync(join(dir, 'gate.config.json'), `${JSON.stringify({ gates: [{ name: options.preset, preset: options.preset, timeout: TIMEOUT_MS / 1000 }] }, null, 2)}\n`);
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'baseline');
  const files = git('ls-files', '-z').split('\0').filter(Boolean).length;
  const session = `bench-${options.label}`;
  const hook = (event) => timed(process.execPath, [bin, 'run'], { cwd: dir, env: { ...env, CLAUDE_PROJECT_DIR: dir }, input: payload(event, session, dir) });
  const turn = (change) => {
    const prompt = hook('UserPromptSubmit');
    if (prompt.code !== 0) throw new Error(`UserPromptSubmit exited ${prompt.code}: ${prompt.stderr}`);
    return change();
  };
  const named = (report, change) => change.expect.every((pattern) => pattern.test(report));

  try {
    const undoFirst = turn(() => edit(dir, options.first));
    const cold = hook('Stop');
    const coldLog = lastStop(dir, env, bin);
    turn(undoFirst);
    const fix = hook('Stop');
    turn(() => edit(dir, options.second));
    const snapshot = `${base}.snapshot`;
    execFileSync('cp', ['-a', base, snapshot]);
    const preset = JSON.parse(readFileSync(join(root, 'presets', `${options.preset}.json`), 'utf8'));
    const [program, ...args] = preset.run;
    const full = timed(program, args, { cwd: dir, env });
    rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    renameSync(snapshot, base);
    const second = hook('Stop');
    const secondLog = lastStop(dir, env, bin);
    return {
      files,
      command: preset.run.join(' '),
      cold: { ms: cold.ms, code: cold.code, named: named(cold.stderr, options.first), ...coldLog, report: cold.stderr },
      fix: { ms: fix.ms, code: fix.code, report: fix.stderr },
      second: { ms: second.ms, code: second.code, named: named(second.stderr, options.second), ...secondLog, report: second.stderr },
      full: { ms: full.ms, code: full.code, named: named(`${full.stdout}\n${full.stderr}`, options.second), output: `${full.stdout}\n${full.stderr}`.slice(-4000) },
      kept: options.keep ? base : undefined,
    };
  } finally {
    rmSync(`${base}.snapshot`, { recursive: true, force: true });
    if (!options.keep) rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
