import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installer } from '../../src/harness/install/claude.js';
import { hookPayload, runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// An editor that starts the agent without the shell's PATH (nvm users, a macOS app launched from the
// Dock): the hook runs with a PATH where `node` is not. Before the bin found node itself, the command
// exited 127 (`/usr/bin/env: 'node': No such file or directory`): every stop passed unchecked.
// Red because of the turn's edit (a.txt: one → two): the copy of the start passes, so the failure is
// the turn's — not the same output as at the start, which would let the stop through (issue 37).
const failingGate = { gates: [{ name: 'check', run: ['node', '-e', "if (require('fs').readFileSync('a.txt', 'utf8') === 'two\\n') { process.stderr.write('the check failed\\n'); process.exitCode = 1 }"], on: ['**'] }] };
const command = installer.command({ mode: 'local', relativePath: 'node_modules/.bin/gate', program: undefined });

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

/** A PATH holding one directory with git in it, and nothing else. */
function pathWithoutNode(repoBase: string): string {
  const dir = join(repoBase, 'path-without-node');
  mkdirSync(dir);
  const git = spawnSync('/bin/sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  symlinkSync(git, join(dir, 'git'));
  expect(existsSync(join(dir, 'node'))).toBe(false);
  return dir;
}

/** The installed hook command, as Claude Code runs it: `/bin/sh -c`, from the project, a stop on stdin. */
function runHook(r: TempRepo, env: Record<string, string>) {
  return spawnSync('/bin/sh', ['-c', command], {
    cwd: r.dir,
    env: { ...r.env, CLAUDE_PROJECT_DIR: r.dir, ...env },
    input: hookPayload('Stop', 'node-off-path', r.dir),
    encoding: 'utf8',
    timeout: 60_000,
  });
}

function changedRepo(): TempRepo {
  const made = makeRepo({ 'gate.config.json': `${JSON.stringify(failingGate)}\n`, 'a.txt': 'one\n' }, { nodeModules: 'with-gate' });
  made.write('a.txt', 'two\n');
  return made;
}

describe('the hook when node is not on its PATH', () => {
  it('finds node where nvm put it, and the gate really runs and refuses the failing stop', () => {
    repo = changedRepo();
    const path = pathWithoutNode(join(repo.dir, '..'));
    const nvmBin = join(repo.home, '.nvm', 'versions', 'node', 'v20.99.0', 'bin');
    mkdirSync(nvmBin, { recursive: true });
    symlinkSync(process.execPath, join(nvmBin, 'node'));
    const result = runHook(repo, { PATH: path });
    expect(result.stderr).not.toContain('No such file');
    expect(result.status).toBe(2);
    // The gate's own `node` was found too: the failure is the check's, not a program that could not start.
    expect(result.stderr).toContain('the check failed');
  });

  it('finds none: allows the stop (never exit 127) and tells the human why, in the harness channel', () => {
    repo = changedRepo();
    const path = pathWithoutNode(join(repo.dir, '..'));
    const result = runHook(repo, { PATH: path, GATE_NODE: join(repo.home, 'no-node-here') });
    expect(result.status).toBe(0);
    const answer: unknown = JSON.parse(result.stdout);
    expect(answer).toEqual({ systemMessage: expect.stringContaining('gate: node was not found') });
    expect(JSON.stringify(answer)).toContain('This stop was allowed unchecked');
  });

  it('a turn start with no node says nothing (only a stop is worth a notice)', () => {
    repo = changedRepo();
    const path = pathWithoutNode(join(repo.dir, '..'));
    const result = spawnSync('/bin/sh', ['-c', command], {
      cwd: repo.dir,
      env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, PATH: path, GATE_NODE: join(repo.home, 'no-node-here') },
      input: hookPayload('UserPromptSubmit', 'node-off-path', repo.dir),
      encoding: 'utf8',
    });
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 0, stdout: '' });
  });

  it('with nothing but a PATH without node, never exits 127 (a node in a usual place runs the gate; none is said)', () => {
    repo = changedRepo();
    const path = pathWithoutNode(join(repo.dir, '..'));
    const result = runHook(repo, { PATH: path });
    expect(result.status).not.toBe(127);
    if (result.status === 0) expect(result.stdout).toContain('gate: node was not found');
    else expect(result.stderr).toContain('the check failed');
  });
});

describe('gate doctor with a PATH without node', () => {
  const settings = `${JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command, timeout: 600 }] }] } }, null, 2)}\n`;

  it('names node, not a missing install, and the fix, when the bin finds no node', () => {
    repo = changedRepo();
    repo.write('.claude/settings.json', settings);
    const path = pathWithoutNode(join(repo.dir, '..'));
    const result = runBin(['doctor'], { cwd: repo.dir, env: { ...repo.env, PATH: path, GATE_NODE: join(repo.home, 'no-node-here') } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('node is not on the PATH the agent gets');
    expect(result.stdout).toContain(`GATE_NODE=${process.execPath}`);
    expect(result.stdout).not.toContain('Is stopgate installed');
  });

  it('names node for an older bin that starts with `#!/usr/bin/env node`', () => {
    repo = changedRepo();
    repo.write('.claude/settings.json', settings);
    const bin = join(repo.dir, 'node_modules', '.bin', 'gate');
    rmSync(bin);
    writeFileSync(bin, "#!/usr/bin/env node\nrequire('stopgate/bin/gate.cjs');\n", { mode: 0o755 });
    const path = pathWithoutNode(join(repo.dir, '..'));
    const result = runBin(['doctor'], { cwd: repo.dir, env: { ...repo.env, PATH: path } });
    expect(result.stdout).toMatch(/node is not on the PATH the agent gets \(exit 127: .*node.*No such file or directory\)/);
    expect(result.stdout).not.toContain('Is stopgate installed');
  });

  it('says the hook finds node itself when it runs although node is not on this PATH', () => {
    repo = changedRepo();
    repo.write('.claude/settings.json', settings);
    const path = pathWithoutNode(join(repo.dir, '..'));
    const nvmBin = join(repo.home, '.nvm', 'versions', 'node', 'v20.99.0', 'bin');
    mkdirSync(nvmBin, { recursive: true });
    symlinkSync(process.execPath, join(nvmBin, 'node'));
    const result = runBin(['doctor'], { cwd: repo.dir, env: { ...repo.env, PATH: path } });
    expect(result.stdout).toContain('✔ hook command runs from');
    expect(result.stdout).toContain("node is not on this PATH: gate's bin finds it itself");
  });
});
