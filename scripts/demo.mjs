// npm run demo: a throwaway repo with a seeded bug, gate installed, one stop simulated as Claude
// Code would deliver it, and the report the agent would read printed. Then the fix, and the stop
// that follows it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const gate = join(root, 'bin', 'gate.cjs');
const base = mkdtempSync(join(tmpdir(), 'gate-demo-'));
const repo = join(base, 'demo-app');
const home = join(base, 'home');
mkdirSync(repo);
mkdirSync(home);
writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Demo\n\temail = demo@example.test\n');
const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(home, '.gitconfig') };
const write = (path, text) => {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
};
const git = (...args) => execFileSync('git', args, { cwd: repo, env });
const say = (text) => console.log(`\n\x1b[1m${text}\x1b[0m`);
const stop = (event) => {
  const payload = JSON.stringify({ session_id: 'demo-session', cwd: repo, hook_event_name: event, stop_hook_active: false });
  return spawnSync(process.execPath, [gate, 'run'], { cwd: repo, env: { ...env, CLAUDE_PROJECT_DIR: repo }, input: payload, encoding: 'utf8' });
};

try {
  say(`1. A small TypeScript project with vitest, in ${repo}`);
  write('.gitignore', 'node_modules\n');
  write('package.json', JSON.stringify({ name: 'demo-app', private: true, type: 'module', devDependencies: { vitest: '4.1.12' } }, null, 2));
  write('src/price.ts', 'export function totalWithTax(net: number, rate: number): number {\n  return Math.round(net * (1 + rate) * 100) / 100;\n}\n');
  write(
    'src/price.test.ts',
    "import { expect, it } from 'vitest';\nimport { totalWithTax } from './price.js';\n\nit('adds the tax to the net price', () => {\n  expect(totalWithTax(100, 0.2)).toBe(120);\n});\n",
  );
  symlinkSync(join(root, 'node_modules'), join(repo, 'node_modules'));
  write('gate.config.json', `${JSON.stringify({ gates: [{ name: 'test', preset: 'vitest' }] }, null, 2)}\n`);
  const command = `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run`;
  const hook = (timeout) => [{ hooks: [{ type: 'command', command, timeout }] }];
  write('.claude/settings.json', `${JSON.stringify({ hooks: { Stop: hook(330), UserPromptSubmit: hook(30) } }, null, 2)}\n`);
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  console.log('gate.config.json: one gate, "test", from the vitest preset; hooks in .claude/settings.json');

  say('2. The user sends a prompt: gate records the turn\'s baseline (UserPromptSubmit)');
  const prompt = stop('UserPromptSubmit');
  console.log(`exit ${prompt.status}, nothing printed`);

  say('3. The agent "refactors" and seeds a bug: the tax is now subtracted');
  write('src/price.ts', 'export function totalWithTax(net: number, rate: number): number {\n  return Math.round(net * (1 - rate) * 100) / 100;\n}\n');
  console.log('-   return Math.round(net * (1 + rate) * 100) / 100;\n+   return Math.round(net * (1 - rate) * 100) / 100;');

  say('4. The agent tries to end its turn (Stop): gate runs the tests and refuses');
  const blocked = stop('Stop');
  console.log(`exit ${blocked.status} — Claude Code keeps the turn going and sends the model this (stderr):\n`);
  console.log(blocked.stderr.replace(/^/gm, '  │ '));

  say('5. The agent fixes it and tries to stop again');
  write('src/price.ts', 'export function totalWithTax(net: number, rate: number): number {\n  return Math.round(net * (1 + rate) * 100) / 100;\n}\n');
  const allowed = stop('Stop');
  console.log(`exit ${allowed.status}: the tests pass, the turn ends${allowed.stdout ? `; notice: ${allowed.stdout}` : ''}`);

  say('6. It stops once more without changing anything');
  const started = performance.now();
  const again = stop('Stop');
  console.log(`exit ${again.status} in ${(performance.now() - started).toFixed(0)} ms: this tree already passed, nothing runs`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
