// npm run bench: what a stop costs, as ratios against baselines measured in the same run.
//   floor       = one Node process that runs `git status --porcelain` once (the least a hook can do)
//   no-change   = `gate run` on a Stop whose tree equals the turn's baseline (the common case)
//   snapshot    = `gate run` on UserPromptSubmit (records the baseline)
// Usage: node scripts/bench.mjs [--files 5000,100000] [--runs 30]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { files: { type: 'string', default: '5000,100000' }, runs: { type: 'string', default: '30' } } });
const sizes = values.files.split(',').map(Number);
const runs = Number(values.runs);
const bin = resolve(import.meta.dirname, '..', 'bin', 'gate.cjs');

function makeRepo(fileCount) {
  const dir = mkdtempSync(join(tmpdir(), `gate-bench-${fileCount}-`));
  const home = join(dir, '.home');
  mkdirSync(home);
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.test\n');
  const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), CLAUDE_PROJECT_DIR: dir };
  const git = (...args) => execFileSync('git', args, { cwd: dir, env, maxBuffer: 1 << 30 });
  git('init', '-q');
  writeFileSync(join(dir, '.gitignore'), '.home/\n');
  const perDir = 500;
  for (let i = 0; i < fileCount; i++) {
    const sub = join(dir, 'src', `d${Math.floor(i / perDir)}`);
    if (i % perDir === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  writeFileSync(join(dir, 'gate.config.json'), JSON.stringify({ gates: [{ name: 'test', run: ['node', '-e', 'process.exit(1)'] }] }));
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
    const payload = (event) => JSON.stringify({ hook_event_name: event, session_id: 'bench', cwd: repo.dir });
    const options = (event) => ({ cwd: repo.dir, env: repo.env, input: payload(event), encoding: 'utf8' });
    time(process.execPath, [bin, 'run'], options('UserPromptSubmit'));
    const floor = [];
    const nodeOnly = [];
    const noChange = [];
    const snapshot = [];
    const gitStatus = [];
    for (let i = 0; i < runs; i++) {
      nodeOnly.push(time(process.execPath, ['-e', '0'], { env: repo.env }));
      gitStatus.push(time('git', ['status', '--porcelain'], { cwd: repo.dir, env: repo.env, maxBuffer: 1 << 30 }));
      floor.push(time(process.execPath, ['-e', floorScript], { cwd: repo.dir, env: repo.env }));
      snapshot.push(time(process.execPath, [bin, 'run'], options('UserPromptSubmit')));
      noChange.push(time(process.execPath, [bin, 'run'], options('Stop')));
    }
    const base = median(floor);
    const row = (name, samples) => console.log(`  ${name.padEnd(34)} ${median(samples).toFixed(1).padStart(7)} ms  ${(median(samples) / base).toFixed(2)}× floor`);
    console.log(`repo of ${size} files (+5 edited, 1 untracked):`);
    row('node -e 0', nodeOnly);
    row('git status --porcelain', gitStatus);
    row('floor: node + git status', floor);
    row('gate run, Stop, nothing changed', noChange);
    row('gate run, UserPromptSubmit snapshot', snapshot);
    console.log(`  snapshot vs git status alone: ${(median(snapshot) / median(gitStatus)).toFixed(2)}× (includes starting Node)\n`);
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
}
