import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { GATE_BIN, hookPayload, runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 18, point 1: gate run from an installed package outside the repository — not a dependency
// of it, not on PATH — used to write `gate run` (exit 127 from the launch directory: every stop
// silently allowed). init now runs the command it is about to write, from the launch directory.

let repo: TempRepo;
afterEach(() => repo?.cleanup());

/** A project with vitest linked in but no stopgate, and a PATH without `gate` on it. */
function projectWithoutGate(): TempRepo {
  const files = vitestProject();
  delete files['gate.config.json'];
  return makeRepo(files, { nodeModules: true });
}

const read = (path: string) => readFileSync(join(repo.dir, path), 'utf8');
const gate = (args: string[]) => runBin(args, { cwd: repo.dir, env: repo.env });

describe('gate init verifies the hook command before writing it', () => {
  it('a team install whose command would not run writes nothing and says how to fix it', () => {
    repo = projectWithoutGate();
    expect(spawnSync('/bin/sh', ['-c', 'command -v gate'], { env: repo.env }).status).not.toBe(0);
    const result = gate(['init', '--yes']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/the hook command would not run from .*: gate run — not found \(exit 127\)/);
    expect(result.stderr).toMatch(/Fix: install stopgate in this project \(npm i -D stopgate\)/);
    expect(existsSync(join(repo.dir, '.claude', 'settings.json'))).toBe(false);
    expect(existsSync(join(repo.dir, 'gate.config.json'))).toBe(false);
  });

  it('a personal install uses the gate init ran from, by its path, and a stop through it blocks', () => {
    repo = projectWithoutGate();
    const result = gate(['init', '--personal', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`The hook runs ${GATE_BIN}: "gate run" does not run from ${repo.dir} (not found (exit 127)`);
    const settings = JSON.parse(read('.claude/settings.local.json')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    const command = settings.hooks['Stop']?.[0]?.hooks[0]?.command ?? '';
    expect(command).toBe(`${GATE_BIN} run`);
    // Ends with doctor's summary, which finds the installed command working.
    expect(result.stdout).toMatch(/\ngate doctor:\n[\s\S]*✔ hook command runs from /);
    expect(result.stdout).toMatch(/All is well\.\n$/);

    const run = (event: 'Stop' | 'UserPromptSubmit') =>
      spawnSync('/bin/sh', ['-c', command], { cwd: repo.dir, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, input: hookPayload(event, 's', repo.dir), encoding: 'utf8' });
    expect(run('UserPromptSubmit').status).toBe(0);
    repo.write('src/sum.ts', SUM_BROKEN);
    const stopped = run('Stop');
    expect(stopped.status, stopped.stderr).toBe(2);
    expect(stopped.stderr).toContain('expected -1 to be 3');
  });

  it('--harness cline (a harness its page says cannot be gated) is a usage error saying why, and writes nothing', () => {
    repo = makeRepo({ 'README.md': 'x\n' });
    const result = gate(['init', '--harness', 'cline', '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--harness cline is not supported: Cline CLI has no hook that can refuse the end of a task.* See docs\/harness-cline\.md \(/);
    expect(repo.git('status', '--porcelain')).toBe('');
  });
});
