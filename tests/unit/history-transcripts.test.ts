// The parsers on real transcripts: each agent CLI, run against its mock model with gate installed
// (scripts/experiments/capture-transcripts.test.ts), broke src/sum.ts with its own edit tool, was
// blocked, fixed it, ran the tests and stopped; then edited the README with no check; then answered a
// question. Their transcript files and gate's stop log are in tests/fixtures/transcripts/<harness>/.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionFileName } from '../../src/state/session-file-name.js';
import { judgeTurn } from '../../src/history/judge-turn.js';
import { parseClaude } from '../../src/history/parse-claude.js';
import { parseCodex } from '../../src/history/parse-codex.js';
import { parseGemini } from '../../src/history/parse-gemini.js';
import { parseQwen } from '../../src/history/parse-qwen.js';
import { readTranscript } from '../../src/history/read-transcript.js';
import { splitTurns } from '../../src/history/split-turns.js';
import { summariseHistory } from '../../src/history/summarise-history.js';
import type { Transcript } from '../../src/history/transcript-events.js';
import { readStopLog } from '../../src/state/read-stop-log.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'transcripts');

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

function load(harness: string, parse: (lines: unknown[]) => Transcript): Transcript[] {
  return files(join(FIXTURES, harness))
    .filter((path) => /\.jsonl$/.test(path) && !path.endsWith('stops.jsonl'))
    .map((path) => parse(readTranscript(path).lines));
}

function summarise(harness: 'claude' | 'codex' | 'gemini' | 'qwen', transcripts: Transcript[]) {
  const stops = readStopLog(join(FIXTURES, harness)).records;
  return summariseHistory(
    transcripts.map((transcript) => {
      const turns = splitTurns(transcript.events);
      const mine = stops.filter((stop) => stop.session === sessionFileName(transcript.session));
      return { harness, turns: turns.length, skipped: transcript.skipped, verdicts: turns.filter((turn) => turn.ended && turn.lastEdit !== undefined).map((turn) => judgeTurn(turn, mine)) };
    }),
  );
}

// Five turns: broken, blocked, fixed and tested by the agent; the README with no check; a question; a doc
// comment gate checked green; a change gate refused and the agent left red.
const EXPECTED = { transcripts: 5, turns: 5, editedAndEnded: 4, passed: 2, byAgent: 1, byGate: 1, unchecked: 1, red: 1, blocked: 2, blockedThenFixed: 1 };

describe('gate history on real transcripts', () => {
  it('Claude Code 2.1.332: Write and Edit, Bash `npx vitest run`, a --continue turn in the same session', () => {
    const transcripts = load('claude', parseClaude);
    expect(transcripts.every((t) => t.cwd === '/tmp/gate-fixture/repo' && t.skipped === 0)).toBe(true);
    // Four files: the README turn continued the refactor's session (--continue).
    expect(summarise('claude', transcripts)).toMatchObject({ ...EXPECTED, transcripts: 4 });
  });

  it('Codex 0.171.0: apply_patch and a heredoc through exec_command, a hook prompt inside the turn', () => {
    const transcripts = load('codex', parseCodex);
    expect(transcripts.every((t) => t.cwd === '/tmp/gate-fixture/repo' && t.session !== undefined)).toBe(true);
    expect(summarise('codex', transcripts)).toMatchObject(EXPECTED);
  });

  it("Gemini CLI 0.61.0: write_file and replace, run_shell_command, gate's report as a user message", () => {
    const transcripts = load('gemini', (lines) => parseGemini(lines));
    expect(transcripts.every((t) => t.session !== undefined && t.skipped === 0)).toBe(true);
    expect(summarise('gemini', transcripts)).toMatchObject(EXPECTED);
  });

  it('Qwen Code 0.24.4: read_file, write_file and edit, run_shell_command with its exit code', () => {
    const transcripts = load('qwen', parseQwen);
    expect(transcripts.every((t) => t.cwd === '/tmp/gate-fixture/repo' && t.skipped === 0)).toBe(true);
    expect(summarise('qwen', transcripts)).toMatchObject(EXPECTED);
  });

  it('skips and counts torn and unknown lines', () => {
    const [claude] = load('claude', (lines) => parseClaude([...lines, 'torn', 42, { no: 'type' }]));
    expect(claude?.skipped).toBe(3);
    const codex = parseCodex(['{"timestamp":', null, { type: 'session_meta' }]);
    expect(codex.skipped).toBe(3);
    expect(parseQwen([{ type: 'mystery' }]).skipped).toBe(1);
    expect(parseGemini([[1, 2]]).skipped).toBe(1);
  });
});
