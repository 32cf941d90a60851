import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execGit, isGitError, limitGit } from '../../src/git/exec-git.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// gate's git calls end at the hook's time limit (src/git/exec-git.ts): a core.fsmonitor hook that
// hangs is killed with git, its process group, and the call rejects with the command and its time.

let repo: TempRepo;
afterEach(() => {
  limitGit(undefined);
  repo?.cleanup();
});

/** core.fsmonitor set to a hook that writes its pid and sleeps a minute. */
function hangingFsmonitor(): string {
  const pidFile = join(repo.home, 'fsmonitor.pid');
  const hook = join(repo.home, 'fsmonitor');
  writeFileSync(hook, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 60\n`);
  chmodSync(hook, 0o755);
  repo.git('config', 'core.fsmonitor', hook);
  return pidFile;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("git calls end at the hook's time limit", () => {
  it('kills a git status hung in its fsmonitor hook at the limit, hook included, and names the command', async () => {
    repo = makeRepo({ 'a.txt': 'a\n' });
    const pidFile = hangingFsmonitor();
    const started = Date.now();
    limitGit({ at: started + 500 });
    const error: unknown = await execGit(repo.dir, ['status', '--porcelain=v2', '-z']).catch((caught: unknown) => caught);
    expect(isGitError(error) && error.timedOut).toEqual({ command: 'git status', seconds: expect.any(Number) });
    expect(Date.now() - started).toBeLessThan(5000);
    // SIGKILL to the group: the hook's sleep is gone too, once the kernel has delivered it.
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => isRunning(pid), { timeout: 5000 }).toBe(false);
  });

  it('asks `later` once the early limit passes, and keeps to the later one', async () => {
    repo = makeRepo({ 'a.txt': 'a\n' });
    hangingFsmonitor();
    const started = Date.now();
    let asked = 0;
    limitGit({
      at: started + 200,
      later: async () => {
        asked++;
        return started + 1500;
      },
    });
    const error: unknown = await execGit(repo.dir, ['status', '--porcelain=v2', '-z']).catch((caught: unknown) => caught);
    expect(isGitError(error) && error.timedOut !== undefined).toBe(true);
    expect(asked).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
  });

  it('a call that ends before the limit is untouched', async () => {
    repo = makeRepo({ 'a.txt': 'a\n' });
    limitGit({ at: Date.now() + 30_000, later: async () => Promise.reject(new Error('not asked')) });
    expect(await execGit(repo.dir, ['rev-parse', '--is-inside-work-tree'])).toBe('true\n');
  });
});
