import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION, claudeBinPath, runClaude } from './claude-cli.mjs';
import { lastUserText, startMockAnthropic, type MockAnthropic } from './mock-anthropic.mjs';

interface Sandbox {
  root: string;
  repo: string;
  configDir: string;
  gitEnv: Record<string, string>;
}

async function makeSandbox(): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'stopgate-claude-')));
  const repo = join(root, 'repo');
  const configDir = join(root, 'config');
  await mkdir(join(repo, '.claude'), { recursive: true });
  await mkdir(configDir);
  const gitconfig = join(root, 'gitconfig');
  await writeFile(gitconfig, '[user]\n\tname = Test\n\temail = test@example.invalid\n');
  const gitEnv = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: gitconfig };
  execFileSync('git', ['init', '-q', repo], { env: { PATH: process.env.PATH ?? '', HOME: root, ...gitEnv } });
  return { root, repo, configDir, gitEnv };
}

// Blocks the first stop (exit 2, report on stderr) and allows the next; dumps what it was given.
async function writeBlockOnceHook(sandbox: Sandbox): Promise<string> {
  const hook = join(sandbox.root, 'stop-hook.sh');
  const marker = join(sandbox.root, 'blocked-once');
  await writeFile(hook, [
    '#!/bin/sh',
    `n=$(ls "${sandbox.root}" | grep -c '^stdin-')`,
    `cat > "${sandbox.root}/stdin-$n.json"`,
    `printf '%s' "$CLAUDE_PROJECT_DIR" > "${sandbox.root}/project-dir-$n"`,
    `[ -e "${marker}" ] && exit 0`,
    `: > "${marker}"`,
    "echo 'FIX: the thing' >&2",
    'exit 2',
    '',
  ].join('\n'));
  await chmod(hook, 0o755);
  const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } };
  await writeFile(join(sandbox.repo, '.claude', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  return hook;
}

describe('the real Claude Code CLI against the mock API', { timeout: 120_000 }, () => {
  let mock: MockAnthropic;
  let sandbox: Sandbox;

  beforeEach(async () => {
    mock = await startMockAnthropic();
    sandbox = await makeSandbox();
  });

  afterEach(async () => {
    await mock.close();
    await rm(sandbox.root, { recursive: true, force: true });
  });

  const run = (prompt: string) =>
    runClaude({ cwd: sandbox.repo, prompt, mockUrl: mock.url, configDir: sandbox.configDir, env: sandbox.gitEnv });

  // Every test fails (none skips) when the CLI is missing: runClaude throws too.
  it(`has Claude Code ${CLAUDE_CODE_VERSION} installed`, () => {
    const version = execFileSync(claudeBinPath(), ['--version'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: sandbox.configDir, CLAUDE_CONFIG_DIR: sandbox.configDir },
    });
    expect(version.trim()).toBe(`${CLAUDE_CODE_VERSION} (Claude Code)`);
  });

  it('ends the turn after one model call when there is no hook', async () => {
    mock.script([{ text: 'Done.' }]);
    const result = await run('say done');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.json?.result).toBe('Done.');
    expect(mock.mainRequests()).toHaveLength(1);
    expect(mock.unscripted()).toEqual([]);
  });

  it('runs a tool, then sends the Stop hook report back to the model once', async () => {
    const hook = await writeBlockOnceHook(sandbox);
    mock.script([
      { toolUse: { name: 'Bash', input: { command: 'echo hi > written.txt' } } },
      { text: 'Done.' },
      { text: 'Fixed.' },
    ]);
    const result = await run('write the file');

    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.json?.result).toBe('Fixed.');
    expect(await readFile(join(sandbox.repo, 'written.txt'), 'utf8')).toBe('hi\n');
    const main = mock.mainRequests();
    expect(main).toHaveLength(3);
    expect(mock.unscripted()).toEqual([]);
    expect(lastUserText(main[1])).toContain('(Bash completed with no output)');
    const feedback = lastUserText(main[2]);
    expect(feedback).toContain('Stop hook feedback');
    expect(feedback).toContain(`[${hook}]: FIX: the thing`);

    const first: unknown = JSON.parse(await readFile(join(sandbox.root, 'stdin-0.json'), 'utf8'));
    const second: unknown = JSON.parse(await readFile(join(sandbox.root, 'stdin-1.json'), 'utf8'));
    expect(first).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' });
    expect(second).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'Fixed.' });
    expect(await readFile(join(sandbox.root, 'project-dir-0'), 'utf8')).toBe(sandbox.repo);
  });
});
