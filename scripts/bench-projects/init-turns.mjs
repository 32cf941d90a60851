// A whole project as a new user meets it: a temp git repo made from the installed project, the
// gates `gate init --yes --no-check` writes for it (all of them: a monorepo's per package), then
// two turns through the chosen gate's bin, and the project's own full command for comparison.
//   turn 1  a one-module edit breaks a test                 → stop (module): must block (exit 2)
//           (same turn) the module fixed, still changed      → stop (fix):    must allow (exit 0)
//   turn 2  a test-only edit: a new failing test             → stop (test):   must block
//           (same turn) its expectation corrected            → stop (test fix): must allow
// and, where the project names them (issue 39), in later turns:
//   turn 3  a comment only, inside a shared module           → stop (comment): must allow
//   turn 4  one function of a shared module changed, a test breaks → stop (shared): must block
//           (same turn) that function fixed                  → stop (shared fix): must allow
//   turn 5  a module and its own test edited together, the module breaks one of its tests
//                                                            → stop (module+test): must block
//           (same turn) both corrected                       → stop (module+test fix): must allow
// With --turn-seconds N each turn's first stop comes N seconds after its prompt, as an agent's work
// takes time: the prompt hook's background gathering of the start's evidence runs meanwhile.
// The full command runs on the committed tree before turn 1, from a copy of the whole temp folder
// that is put back afterwards, so it warms nothing the stops use.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { edit, lastStop, payload, timed } from './turns.mjs';

/** The later turns a project may name, each a change and the verdict its stop must give (then its fix's). */
export const EXTRA_TURNS = [
  { key: 'comment', want: 0 },
  { key: 'shared', want: 2, fix: 'sharedFix' },
  { key: 'moduleAndTest', want: 2, fix: 'moduleAndTestFix' },
];

/**
 * Applies a change: one edit, or several ({ edits: [...] }) made in the same turn, each followed by
 * Claude Code's PostToolUse for a Write (`gate init` installs the post-edit hook: it starts the checks
 * ahead of the stop) unless `afterEdit` is undefined (edits made by a shell command).
 */
function applyChange(dir, what, afterEdit) {
  for (const one of what.edits ?? [what]) {
    edit(dir, one);
    afterEdit?.(one.file);
  }
}

/** The machine's 1-minute load average (the machine is shared: each figure says how loaded it was). */
const loadNow = () => Number(loadavg()[0].toFixed(1));

/** The number of gates in every gate.config.json of the repo (the root's and each package's). */
function countGates(dir, git) {
  const configs = git('ls-files', '-z').split('\0').filter((file) => file === 'gate.config.json' || file.endsWith('/gate.config.json'));
  return configs.reduce((sum, file) => sum + (JSON.parse(readFileSync(join(dir, file), 'utf8')).gates?.length ?? 0), 0);
}

/**
 * @param {object} options
 * @param {object} options.project   radashi.mjs and the like: full, module, fix, test, testFix, localPath, setup,
 *                                   and optionally comment, shared + sharedFix, moduleAndTest + moduleAndTestFix
 * @param {string} options.template  the prepared project (copied, never touched)
 * @param {Record<string, string>} options.env  the stack's environment
 * @param {string[]} options.path    folders put on PATH after the project's own (tools)
 * @param {object} options.ctx       passed to project.setup
 * @param {string} options.bin       the gate binary measured (bin/gate.cjs of some checkout)
 * @param {boolean} options.keep     keep the temp folder (printed) instead of deleting it
 * @param {boolean} [options.initCheck] `gate init --yes` as documented (every gate run once) instead of `--no-check`
 * @param {number} [options.turnSeconds] the agent's time in each turn, between its prompt and its first stop
 * @param {boolean} [options.postEdit] each edit followed by the post-edit hook, as Claude Code runs it (default true)
 */
export function benchInit(options) {
  const { project, bin } = options;
  const base = realpathSync(mkdtempSync(join(tmpdir(), `gate-bench-${project.id}-init-`)));
  const dir = join(base, 'repo');
  const home = join(base, 'home');
  const gateBin = join(base, 'gate-bin');
  for (const folder of [home, gateBin, join(base, 'tmp')]) mkdirSync(folder, { recursive: true });
  // `gate init` checks that the hook command `gate run` runs from the repo: the measured gate is on PATH.
  symlinkSync(bin, join(gateBin, 'gate'));
  execFileSync('cp', ['-a', options.template, dir]);
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.test\n[init]\n\tdefaultBranch = main\n');
  const env = {
    PATH: [...project.localPath.map((folder) => join(dir, folder)), gateBin, ...options.path, process.env.PATH ?? '/usr/bin:/bin'].join(delimiter),
    HOME: home,
    LANG: 'C.UTF-8',
    TMPDIR: join(base, 'tmp'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    ...options.env,
  };
  const git = (...args) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const session = `bench-${project.id}`;
  const hook = (event, active = false) => timed(process.execPath, [bin, 'run'], { cwd: dir, env: { ...env, CLAUDE_PROJECT_DIR: dir }, input: payload(event, session, dir, active) });
  const afterEdit =
    options.postEdit === false
      ? undefined
      : (file) => {
          const content = readFileSync(join(dir, file), 'utf8');
          const input = JSON.stringify({ session_id: session, transcript_path: '/nonexistent/transcript.jsonl', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(dir, file), content } });
          const result = timed(process.execPath, [bin, 'run'], { cwd: dir, env: { ...env, CLAUDE_PROJECT_DIR: dir }, input });
          if (result.code !== 0) throw new Error(`PostToolUse exited ${result.code}: ${result.stderr}`);
        };
  const prompt = () => {
    const result = hook('UserPromptSubmit');
    if (result.code !== 0) throw new Error(`UserPromptSubmit exited ${result.code}: ${result.stderr}`);
  };
  const stop = (active, change) => {
    // A turn's first stop comes after the agent worked (its later stops follow a block at once).
    if (!active && options.turnSeconds) execFileSync('sleep', [String(options.turnSeconds)]);
    const result = hook('Stop', active);
    const logged = lastStop(dir, env, bin);
    const report = `${result.stdout}\n${result.stderr}`.trim();
    return { ms: result.ms, code: result.code, load: loadNow(), named: change?.expect ? change.expect.every((pattern) => pattern.test(report)) : true, ...logged, report };
  };

  try {
    project.setup?.(dir, { ...process.env, ...env, HOME: process.env.HOME ?? home }, options.ctx);
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'baseline');
    const files = git('ls-files', '-z').split('\0').filter(Boolean).length;
    const initArgs = ['init', '--yes', ...(options.initCheck ? [] : ['--no-check'])];
    const init = spawnSync(process.execPath, [bin, ...initArgs], { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 26 });
    if (init.status !== 0) throw new Error(`gate ${initArgs.join(' ')} exited ${init.status}: ${`${init.stdout}\n${init.stderr}`.trim().slice(-3000)}`);
    git('add', '-A');
    const gates = countGates(dir, git);
    git('commit', '-q', '-m', 'gate init');

    const snapshot = `${base}.snapshot`;
    execFileSync('cp', ['-a', base, snapshot]);
    const [program, ...args] = project.full;
    const full = timed(program, args, { cwd: dir, env });
    const fullLoad = loadNow();
    rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    renameSync(snapshot, base);

    prompt();
    applyChange(dir, project.module, afterEdit);
    const module = stop(false, project.module);
    applyChange(dir, project.fix, afterEdit);
    const fix = stop(module.code === 2);
    prompt();
    applyChange(dir, project.test, afterEdit);
    const test = stop(false, project.test);
    applyChange(dir, project.testFix, afterEdit);
    const testFix = stop(test.code === 2);
    const extra = {};
    for (const turn of EXTRA_TURNS.filter(({ key }) => project[key])) {
      prompt();
      applyChange(dir, project[turn.key], afterEdit);
      extra[turn.key] = stop(false, project[turn.key]);
      if (turn.fix) {
        applyChange(dir, project[turn.fix], afterEdit);
        extra[turn.fix] = stop(extra[turn.key].code === 2);
      }
    }
    return {
      files,
      gates,
      command: project.full.join(' '),
      full: { ms: full.ms, code: full.code, output: `${full.stdout}\n${full.stderr}`.slice(-4000) },
      module,
      fix,
      test,
      testFix,
      ...extra,
      load: { full: fullLoad, end: loadNow() },
      kept: options.keep ? base : undefined,
    };
  } finally {
    rmSync(`${base}.snapshot`, { recursive: true, force: true });
    if (!options.keep) rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
