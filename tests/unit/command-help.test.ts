import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { asksForHelp, commandUsage } from '../../src/commands/usage.js';

// Issue 41: every command answers --help and -h with its usage, exit 0 ("gate ci --help" was "Unknown option").
const CLI = readFileSync(new URL('../../src/cli.ts', import.meta.url), 'utf8');
// Every command word cli.ts dispatches; `evidence` and `ahead` are the hooks', started in the background, not for a person.
const COMMANDS = [...CLI.matchAll(/case '([a-z][a-z-]*)':/g)].map((match) => match[1] ?? '').filter((word) => word !== 'evidence' && word !== 'ahead' && word !== 'help');

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

async function run(args: string[]): Promise<{ stdout: string; stderr: string; code: number | string | undefined }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  await main(args);
  return { stdout, stderr, code: process.exitCode ?? 0 };
}

describe('gate COMMAND --help', () => {
  it('knows every command cli.ts runs', () => {
    expect(COMMANDS).toEqual(expect.arrayContaining(['run', 'check', 'ci', 'pr-comment', 'receipt', 'init', 'doctor', 'mcp', 'explain']));
    for (const command of COMMANDS) expect(commandUsage(command), command).toMatch(new RegExp(`^usage: gate ${command === 'explain' ? 'status' : command}\\b`));
  });

  it.each(['--help', '-h'])('every command prints its usage for %s and exits 0, whatever else is on the line', async (flag) => {
    for (const command of COMMANDS) {
      const result = await run([command, '--json', flag]);
      expect(result, command).toEqual({ stdout: `${commandUsage(command)}\n`, stderr: '', code: 0 });
    }
  });

  it('gate ci --help names the report flags', async () => {
    const { stdout } = await run(['ci', '--help']);
    for (const flag of ['--sarif FILE', '--junit FILE', '--codequality FILE', '--comment FILE', 'GITHUB_ACTIONS=true']) expect(stdout).toContain(flag);
  });

  it('answers on Windows too, where gate ci itself is refused', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform');
    Object.defineProperty(process, 'platform', { value: 'win32' });
    try {
      expect(await run(['ci', '--help'])).toMatchObject({ stdout: `${commandUsage('ci')}\n`, code: 0 });
      expect((await run(['ci'])).code).toBe(3);
    } finally {
      if (platform) Object.defineProperty(process, 'platform', platform);
    }
  });

  it('a --help after -- is an argument, not a request for help', () => {
    expect(asksForHelp(['--', '--help'])).toBe(false);
    expect(asksForHelp(['a', '-h'])).toBe(true);
  });
});
