// `gate history` as built, on the real transcripts in tests/fixtures/transcripts/ placed where each CLI
// keeps them (temp CLAUDE_CONFIG_DIR, CODEX_HOME, QWEN_HOME and HOME: the real ones are never read),
// with their stop logs merged into the temp repository's .git/gate/stops.jsonl.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { escapePath } from '../../src/history/find-transcripts.js';
import { runBin } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'transcripts');
const CAPTURED = '/tmp/gate-fixture/repo';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

/** Copies a harness's captured files under `to`, the captured repository's path replaced by `project`. */
function place(harness: string, from: string, to: string, project: string): void {
  const move = (text: string) => text.split(CAPTURED).join(project).split(escapePath(CAPTURED)).join(escapePath(project));
  for (const file of files(join(FIXTURES, harness, from))) {
    const target = join(to, move(relative(join(FIXTURES, harness, from), file)));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, move(readFileSync(file, 'utf8')));
  }
}

function setUp(): { env: Record<string, string>; dirs: { claude: string; codex: string; qwen: string; gemini: string } } {
  repo = makeRepo({ 'src/sum.ts': 'export function sum(a: number, b: number): number {\n  return a + b;\n}\n' });
  const base = dirname(repo.home);
  const dirs = { claude: join(base, 'claude-config'), codex: join(base, 'codex-home'), qwen: join(base, 'qwen-home'), gemini: join(repo.home, '.gemini') };
  place('claude', 'projects', join(dirs.claude, 'projects'), repo.dir);
  place('codex', 'sessions', join(dirs.codex, 'sessions'), repo.dir);
  place('gemini', 'tmp', join(dirs.gemini, 'tmp'), repo.dir);
  place('qwen', 'projects', join(dirs.qwen, 'projects'), repo.dir);
  const stops = ['claude', 'codex', 'gemini', 'qwen'].flatMap((harness) => readFileSync(join(FIXTURES, harness, 'stops.jsonl'), 'utf8').trimEnd().split('\n'));
  mkdirSync(join(repo.dir, '.git', 'gate'), { recursive: true });
  writeFileSync(join(repo.dir, '.git', 'gate', 'stops.jsonl'), `${stops.map((line) => line.split(CAPTURED).join(repo.dir)).join('\n')}\n`);
  return { env: { ...repo.env, CLAUDE_CONFIG_DIR: dirs.claude, CODEX_HOME: dirs.codex, QWEN_HOME: dirs.qwen }, dirs };
}

// Per harness, five turns (tests/unit/history-transcripts.test.ts): fixed after a block and tested by the
// agent; the README with no check; a question; checked green by gate; refused and left red. Claude Code's
// README turn continued the first session, so it has one file fewer.
const HARNESS = { transcripts: 5, turns: 5, editedAndEnded: 4, passed: 2, byAgent: 1, byGate: 1, unchecked: 1, red: 1, blocked: 2, blockedThenFixed: 1 };
const PER_HARNESS = { claude: { ...HARNESS, transcripts: 4 }, codex: HARNESS, gemini: HARNESS, qwen: HARNESS };
const TOTAL = { transcripts: 19, turns: 20, editedAndEnded: 16, passed: 8, byAgent: 4, byGate: 4, unchecked: 4, red: 4, blocked: 8, blockedThenFixed: 4 };

const history = (args: string[], env: Record<string, string>, cwd = repo.dir) => runBin(['history', ...args], { cwd, env });

describe('gate history on the transcripts the end-to-end suites produce', () => {
  it('counts, per harness and in all, the turns that edited files and ended, and what checked them', () => {
    const { env } = setUp();
    const result = history(['--json'], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ scope: repo.dir, since: null, stopLogs: 1, skippedLines: 0 });
    expect(summary.byHarness).toMatchObject(PER_HARNESS);
    expect(summary).toMatchObject(TOTAL);
  });

  it('prints a table that holds counts only, and says nothing leaves the machine', () => {
    const { env } = setUp();
    const result = history([], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^gate history: transcripts of .*\n\n +all +Claude Code +Codex +Gemini CLI +Qwen Code\n/);
    expect(result.stdout).toMatch(/^turns that edited files and ended +16 +4 +4 +4 +4$/m);
    expect(result.stdout).toMatch(/^ {2}with a passing check after the last edit +8 \(50%\) +2 \(50%\)/m);
    expect(result.stdout).toContain('nothing leaves it');
    // Nothing of what the agent or the user wrote: no prompt, no command, no file content.
    for (const text of ['Refactor sum', 'vitest', 'Adds numbers', 'return a']) expect(result.stdout).not.toContain(text);
  });

  it('leaves out other projects unless --all-projects, skips torn lines, and honours --since', () => {
    const { env, dirs } = setUp();
    const elsewhere = join(dirname(repo.dir), 'elsewhere');
    place('claude', 'projects', join(dirs.claude, 'projects'), elsewhere);
    const [file] = files(join(dirs.claude, 'projects', escapePath(repo.dir)));
    appendFileSync(file ?? '', '{"type":"assistant","mess');
    const mine = JSON.parse(history(['--json'], env).stdout);
    expect(mine).toMatchObject({ transcripts: TOTAL.transcripts, skippedLines: 1 });
    const all = JSON.parse(history(['--json', '--all-projects'], env).stdout);
    expect(all).toMatchObject({ scope: null, transcripts: TOTAL.transcripts + PER_HARNESS.claude.transcripts });
    const later = JSON.parse(history(['--json', '--since', '2099-01-01'], env).stdout);
    expect(later).toMatchObject({ since: '2099-01-01T00:00:00.000Z', transcripts: 0, turns: 0 });
    expect(history(['--since', 'yesterday-ish'], env)).toMatchObject({ code: 2, stderr: expect.stringContaining('--since takes a date') });
  });
});

