// npm run bench: what a stop costs, as ratios against baselines measured in the same run.
//   floor       = one Node process that runs `git status --porcelain` once (the least a hook can do)
//   no-change   = `gate run` on a Stop whose tree equals the turn's baseline (the common case)
//   snapshot    = `gate run` on UserPromptSubmit (records the baseline)
//   checked     = `gate run` on a Stop after a one-file edit, with one instant gate (`true`): gate's
//                 own cost of a stop that runs its gates, given as floor + N ms (the goal: N <= 100)
//   concurrency = two gates of 1 s each, run by `gate check --all` with concurrency 1, then 2
//   related     = a real open-source suite (zod 4.6.7's own vitest tests, from its npm tarball):
//                 `gate check` after a one-file change (related tests only) vs `gate check --all`
//   baseline    = the same suite: a stop whose failures are partly old, its gate run vs its check of
//                 the baseline (the full suite again, as before, vs the failing test files only)
//   monorepo    = the 12-package npm workspace of the tests (tests/helpers/workspace-fixtures.ts, one
//                 `node --test` gate per package, one package with a 20 s suite): a stop after a
//                 one-leaf change and after a change to the shared library, vs every package
//                 (`gate check --all`)
//   post-edit   = `gate run` on a PostToolUse payload (the mid-turn nudge): a plain edit and one
//                 that adds `it.skip(`, given as node -e 0 + N ms (no git call)
// Usage: node scripts/bench.mjs [--files 5000,100000] [--runs 30] [--skip-related] [--skip-monorepo]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { files: { type: 'string', default: '5000,100000' }, runs: { type: 'string', default: '30' }, 'skip-related': { type: 'boolean', default: false }, 'skip-monorepo': { type: 'boolean', default: false } },
});
const sizes = values.files.split(',').map(Number);
const runs = Number(values.runs);
const bin = resolve(import.meta.dirname, '..', 'bin', 'gate.cjs');

function makeRepo(fileCount) {
  const dir = mkdtempSync(join(tmpdir(), `gate-bench-${fileCount}-`));
  const home = join(dir, '.home');
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.test\n');
  // GATE_EVIDENCE=0: a prompt's background gathering would run beside the next timings (docs/performance.md).
  // The post-edit hook's checks ahead of the stop are started (their spawn is part of its cost) but
  // wait past the run: the next edit or stop ends each before it does any work.
  const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), CLAUDE_PROJECT_DIR: dir, GATE_EVIDENCE: '0', GATE_AHEAD_SETTLE_MS: '600000' };
  const git = (...args) => execFileSync('git', args, { cwd: dir, env, maxBuffer: 1 << 30 });
  git('init', '-q');
  writeFileSync(join(dir, '.gitignore'), '.home/\n');
  const perDir = 500;
  for (let i = 0; i < fileCount; i++) {
    const sub = join(dir, 'src', `d${Math.floor(i / perDir)}`);
    if (i % perDir === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  // One instant gate: what a checked stop costs beyond its gates is gate's own. (No other stop runs it.)
  writeFileSync(join(dir, 'gate.config.json'), JSON.stringify({ gates: [{ name: 'test', run: ['true'] }] }));
  writeFileSync(join(dir, 'src', 'sum.test.ts'), "it('adds', () => {\n  expect(sum(2, 3)).toBe(5);\n});\n");
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
  // A dirty tree, as agents leave it: a few edited and untracked files.
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, 'src', 'd0', `f${i}.ts`), `export const edited = ${i};\n`);
  writeFileSync(join(dir, 'notes.txt'), 'untracked\n');
  return { dir, env };
}

function time(command, args, options) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, options);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && result.status !== 2) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const floorScript = "require('child_process').execFileSync('git', ['status', '--porcelain'], { maxBuffer: 1 << 30 })";
console.log(`node ${process.version}, ${runs} runs each, medians; floor = node + one git status --porcelain\n`);
for (const size of sizes) {
  const repo = makeRepo(size);
  try {
    const payload = (event, session) => JSON.stringify({ hook_event_name: event, session_id: session, cwd: repo.dir });
    const options = (event, session = 'bench') => ({ cwd: repo.dir, env: repo.env, input: payload(event, session), encoding: 'utf8' });
    time(process.execPath, [bin, 'run'], options('UserPromptSubmit'));
    // A turn of its own session that edits one more tracked file, new content each time (no verdict
    // to reuse); the file is put back after, so that the other session's stops still find no change.
    const edited = join(repo.dir, 'src', 'd0', 'f10.ts');
    const original = readFileSync(edited);
    let edits = 0;
    const checkedStop = () => {
      time(process.execPath, [bin, 'run'], options('UserPromptSubmit', 'bench-checked'));
      // Never the original (`v10 = 10`): that would be a stop with nothing changed.
      writeFileSync(edited, `export const v10 = -${++edits};\n`);
      const elapsed = time(process.execPath, [bin, 'run'], options('Stop', 'bench-checked'));
      writeFileSync(edited, original);
      return elapsed;
    };
    // The first checked stop after a build validates the config; later ones reuse that (config-cache.json).
    checkedStop();
    const floor = [];
    const nodeOnly = [];
    const noChange = [];
    const snapshot = [];
    const gitStatus = [];
    const checked = [];
    // The post-edit nudge (Claude Code's PostToolUse): an ordinary edit, and one that skips a test.
    const edit = (file, before, after) =>
      JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 'bench', cwd: repo.dir, tool_name: 'Edit', tool_input: { file_path: join(repo.dir, file), old_string: before, new_string: after } });
    const nudge = (input) => ({ cwd: repo.dir, env: repo.env, input, encoding: 'utf8' });
    const plainEdit = nudge(edit('src/d0/f11.ts', 'export const v11 = 11;', 'export const v11 = 11;'));
    const skipEdit = nudge(edit('src/sum.test.ts', "it('adds', () => {", "it.skip('adds', () => {"));
    if (!spawnSync(process.execPath, [bin, 'run'], skipEdit).stdout.includes('adds it.skip(')) throw new Error('the post-edit nudge did not name the skip');
    const postEdit = [];
    const postEditFinding = [];
    for (let i = 0; i < runs; i++) {
      postEdit.push(time(process.execPath, [bin, 'run'], plainEdit));
      postEditFinding.push(time(process.execPath, [bin, 'run'], skipEdit));
      nodeOnly.push(time(process.execPath, ['-e', '0'], { env: repo.env }));
      gitStatus.push(time('git', ['status', '--porcelain'], { cwd: repo.dir, env: repo.env, maxBuffer: 1 << 30 }));
      floor.push(time(process.execPath, ['-e', floorScript], { cwd: repo.dir, env: repo.env }));
      snapshot.push(time(process.execPath, [bin, 'run'], options('UserPromptSubmit')));
      noChange.push(time(process.execPath, [bin, 'run'], options('Stop')));
      checked.push(checkedStop());
    }
    assertChecked(repo.dir, runs + 1);
    const base = median(floor);
    const row = (name, samples) => console.log(`  ${name.padEnd(34)} ${median(samples).toFixed(1).padStart(7)} ms  ${(median(samples) / base).toFixed(2)}× floor`);
    console.log(`repo of ${size} files (+5 edited, 1 untracked):`);
    row('node -e 0', nodeOnly);
    row('git status --porcelain', gitStatus);
    row('floor: node + git status', floor);
    row('gate run, Stop, nothing changed', noChange);
    row('gate run, UserPromptSubmit snapshot', snapshot);
    console.log(`  ${'checked stop (one instant gate)'.padEnd(34)} ${median(checked).toFixed(1).padStart(7)} ms  floor + ${(median(checked) - base).toFixed(1)} ms`);
    const overNode = (samples) => `node + ${(median(samples) - median(nodeOnly)).toFixed(1)} ms`;
    console.log(`  ${'post-edit nudge, plain edit'.padEnd(34)} ${median(postEdit).toFixed(1).padStart(7)} ms  ${overNode(postEdit)}`);
    console.log(`  ${'post-edit nudge, edit adds it.skip('.padEnd(34)} ${median(postEditFinding).toFixed(1).padStart(7)} ms  ${overNode(postEditFinding)}`);
    console.log(`  snapshot vs git status alone: ${(median(snapshot) / median(gitStatus)).toFixed(2)}× (includes starting Node)\n`);
  } finally {
    rmSync(repo.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

// Each checked stop must have run its gate and passed: a figure for a stop that did less would flatter.
function assertChecked(dir, count) {
  const lines = readFileSync(join(dir, '.git', 'gate', 'stops.jsonl'), 'utf8').trim().split('\n');
  const records = lines.map((line) => JSON.parse(line)).filter((record) => record.session === 'bench-checked');
  const wrong = records.filter((record) => record.path !== 'checked' || record.reason !== 'all passed' || record.gates[0]?.status !== 'passed');
  if (records.length !== count || wrong.length > 0) throw new Error(`the checked stops did not all run their gate: ${JSON.stringify(wrong[0] ?? records.length)}`);
}

function timeOnce(args, options) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
}

function benchConcurrency() {
  const repo = makeRepo(10);
  try {
    const sleeper = (name) => ({ name, run: ['node', '-e', 'setTimeout(() => {}, 1000)'] });
    const run = (concurrency) => {
      writeFileSync(join(repo.dir, 'gate.config.json'), JSON.stringify({ concurrency, gates: [sleeper('one'), sleeper('two')] }));
      return median([1, 2, 3].map(() => timeOnce(['check', '--all'], { cwd: repo.dir, env: repo.env }).ms));
    };
    const sequential = run(1);
    const concurrent = run(2);
    console.log('concurrency: two gates of 1 s each, gate check --all, median of 3');
    console.log(`  one at a time                      ${sequential.toFixed(0).padStart(7)} ms  1.00×`);
    console.log(`  side by side                       ${concurrent.toFixed(0).padStart(7)} ms  ${(concurrent / sequential).toFixed(2)}× sequential\n`);
  } finally {
    rmSync(repo.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

// zod 4.6.7 from its npm tarball, committed in a fresh repository with one vitest gate.
function prepareZod(gates) {
  const base = mkdtempSync(join(tmpdir(), 'gate-bench-zod-'));
  execFileSync('npm', ['pack', 'zod@4.6.7', '--silent'], { cwd: base, stdio: 'ignore' });
  execFileSync('tar', ['xzf', 'zod-4.6.7.tgz'], { cwd: base });
  const dir = join(base, 'package');
  const home = join(base, 'home');
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.test\n');
  const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, '.gitconfig') };
  symlinkSync(resolve(import.meta.dirname, '..', 'node_modules'), join(dir, 'node_modules'));
  // zod's tests import "zod", "zod/v4" …: point those at its sources, as its own repository does.
  const alias = (find, file) => `{ find: /^${find.replaceAll('/', '\\/')}$/, replacement: fileURLToPath(new URL('./src/${file}', import.meta.url)) }`;
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `import { defineConfig } from 'vitest/config';\nimport { fileURLToPath } from 'node:url';\nexport default defineConfig({ resolve: { alias: [${[
      alias('zod/v4/core', 'v4/core/index.ts'),
      alias('zod/v4/locales', 'v4/locales/index.ts'),
      alias('zod/v4-mini', 'v4-mini/index.ts'),
      alias('zod/mini', 'mini/index.ts'),
      alias('zod/v4', 'v4/index.ts'),
      alias('zod/v3', 'v3/index.ts'),
      alias('zod', 'index.ts'),
    ].join(', ')}] }, test: { include: ['src/**/*.test.ts'] } });\n`,
  );
  writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
  writeFileSync(join(dir, 'gate.config.json'), JSON.stringify({ gates }));
  execFileSync('git', ['init', '-q'], { cwd: dir, env });
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', 'zod'], { cwd: dir, env });
  return { base, dir, env };
}

function benchRelated() {
  const { base, dir, env } = prepareZod([{ name: 'test', preset: 'vitest', timeout: 900 }]);
  try {
    const changed = 'src/v4/mini/iso.ts';
    writeFileSync(join(dir, changed), `${readFileSync(join(dir, changed), 'utf8')}\n// a one-line change\n`);
    const log = join(dir, '.git', 'gate', 'logs', 'test.log');
    const tests = () => /^\s+Tests\s+(.*)$/m.exec(readFileSync(log, 'utf8'))?.[1] ?? '?';
    const full = timeOnce(['check', '--all'], { cwd: dir, env });
    const fullTests = tests();
    const related = timeOnce(['check'], { cwd: dir, env });
    const relatedTests = tests();
    const files = execFileSync('git', ['ls-files', '*.test.ts'], { cwd: dir, env, encoding: 'utf8' }).trim().split('\n').length;
    console.log(`related tests: zod 4.6.7's own suite (${files} test files), one-file change to ${changed}`);
    console.log(`  full run (gate check --all)        ${full.ms.toFixed(0).padStart(7)} ms  1.00×   tests: ${fullTests}`);
    console.log(`  related run (gate check)           ${related.ms.toFixed(0).padStart(7)} ms  ${(related.ms / full.ms).toFixed(2)}× full   tests: ${relatedTests}\n`);
  } finally {
    rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

// A turn that loosens zod's email regex, on a tree where three test files already fail (optional
// packages not installed): the stop's own run of the gate vs its check of which failures are old,
// the full suite again on a copy of the baseline (GATE_BASELINE=full, as before) vs the failing files only.
function benchBaseline() {
  const { base, dir, env } = prepareZod([{ name: 'test', preset: 'vitest', timeout: 900 }]);
  try {
    const regexes = join(dir, 'src', 'v4', 'core', 'regexes.ts');
    const original = readFileSync(regexes, 'utf8');
    const loosened = original.replace(/^export const email: RegExp =\n.*$/m, 'export const email: RegExp = /^[^\\s@]+@[^\\s@]+$/;');
    if (loosened === original) throw new Error('zod\'s email regex was not found');
    const hook = (event, session, extra) => {
      const input = JSON.stringify({ session_id: session, transcript_path: '/nonexistent', cwd: dir, hook_event_name: event, stop_hook_active: false });
      return timeOnce(['run'], { cwd: dir, env: { ...env, CLAUDE_PROJECT_DIR: dir, ...extra }, input });
    };
    const turn = (session, extra) => {
      writeFileSync(regexes, original);
      rmSync(join(dir, '.git', 'gate', 'failures.json'), { force: true });
      hook('UserPromptSubmit', session, extra);
      writeFileSync(regexes, loosened);
      const stop = hook('Stop', session, extra);
      const record = readFileSync(join(dir, '.git', 'gate', 'stops.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line)).findLast((entry) => entry.session === session);
      const gate = record?.gates[0];
      if (stop.result.status !== 2 || gate?.baselineMs === undefined || !(gate.preExisting > 0)) throw new Error(`the stop did not block with pre-existing failures: ${JSON.stringify(record)}`);
      return { stop: stop.ms, gate: gate.durationMs, baseline: gate.baselineMs, old: gate.preExisting };
    };
    const before = turn('bench-baseline-full', { GATE_BASELINE: 'full' });
    const after = turn('bench-baseline-narrowed', {});
    console.log(`baseline check: zod 4.6.7, a turn that loosens the email regex; ${after.old} failures already there before it`);
    const row = (label, figures) =>
      console.log(`  ${label.padEnd(34)} stop ${figures.stop.toFixed(0).padStart(7)} ms  gate run ${String(figures.gate).padStart(7)} ms  baseline check ${String(figures.baseline).padStart(7)} ms  ${(figures.baseline / figures.gate).toFixed(2)}× gate run`);
    row('full re-run (GATE_BASELINE=full)', before);
    row('failing test files only', after);
    console.log('');
  } finally {
    rmSync(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

// The fixture builder is the tests' TypeScript: bundled here so that the bench builds the same repository.
async function loadWorkspaceFixtures() {
  const { build } = await import('esbuild');
  const outfile = resolve(import.meta.dirname, '..', '.cache', 'bench', 'workspace-fixtures.mjs');
  await build({ entryPoints: [resolve(import.meta.dirname, '..', 'tests', 'helpers', 'workspace-fixtures.ts')], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'error' });
  return import(pathToFileURL(outfile).href);
}

async function benchMonorepo() {
  const { npmWorkspace, touchLeaf } = await loadWorkspaceFixtures();
  const repo = npmWorkspace({ gateConfigs: true });
  try {
    const payload = (event) => JSON.stringify({ session_id: 'bench', transcript_path: '/nonexistent', cwd: repo.dir, hook_event_name: event, stop_hook_active: false });
    const hook = (event) => timeOnce(['run'], { cwd: repo.dir, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, input: payload(event) });
    const ran = () => {
      const lines = readFileSync(join(repo.dir, '.git', 'gate', 'stops.jsonl'), 'utf8').trim().split('\n');
      return JSON.parse(lines.at(-1) ?? '{}').gates?.filter((gate) => gate.status !== 'cached').length ?? 0;
    };
    const stopAfter = (edit) =>
      [1, 2, 3].map((round) => {
        execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: repo.dir, env: repo.env });
        hook('UserPromptSubmit');
        edit(round);
        const { ms, result } = hook('Stop');
        if (result.status !== 0) throw new Error(`the monorepo stop did not pass: ${result.stderr}`);
        return { ms, gates: ran() };
      });
    // Each round's content differs: a tree that passed before would be answered from the verdict cache.
    const append = (path, round) => writeFileSync(join(repo.dir, path), `${readFileSync(join(repo.dir, path), 'utf8')}\n// change ${round}\n`);
    const leaf = stopAfter((round) => append(`${touchLeaf(repo)}/src/index.js`, round));
    const shared = stopAfter((round) => append('packages/shared/src/index.js', round));
    execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: repo.dir, env: repo.env });
    const all = [1, 2, 3].map(() => timeOnce(['check', '--all'], { cwd: repo.dir, env: repo.env }).ms);
    const full = median(all);
    const row = (name, samples) => {
      const ms = median(samples.map((sample) => sample.ms));
      console.log(`  ${name.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms  ${(ms / full).toFixed(2)}× every package   gates run: ${samples[0].gates}`);
    };
    console.log('monorepo: a 12-package npm workspace, one node --test gate per package (one suite takes 20 s), median of 3');
    console.log(`  ${'every package (gate check --all)'.padEnd(34)} ${full.toFixed(0).padStart(7)} ms  1.00×                gates run: 12`);
    row('stop after a one-leaf change', leaf);
    row('stop after a shared-library change', shared);
    console.log('');
  } finally {
    repo.cleanup();
  }
}

benchConcurrency();
if (!values['skip-monorepo']) await benchMonorepo();
if (!values['skip-related']) {
  benchRelated();
  benchBaseline();
}
