import { findRepo, stateDirOf } from '../git/find-repo.js';
import { sessionFileName } from '../state/session-file-name.js';
import { readStopLog } from '../state/read-stop-log.js';
import type { StopRecord } from '../state/stop-record.js';
import { findTranscripts, isWithin, type TranscriptFile } from './find-transcripts.js';
import { judgeTurn } from './judge-turn.js';
import { parseClaude } from './parse-claude.js';
import { parseCodex } from './parse-codex.js';
import { parseGemini } from './parse-gemini.js';
import { parseQwen } from './parse-qwen.js';
import { readTranscript } from './read-transcript.js';
import { splitTurns } from './split-turns.js';
import { summariseHistory, type HistorySummary, type TranscriptResult } from './summarise-history.js';
import type { Harness, Transcript } from './transcript-events.js';

export interface HistoryOptions {
  /** Transcripts of this directory and below; every project when undefined. */
  root: string | undefined;
  /** Turns that started at or after this time (ms). */
  since: number | undefined;
  env: Record<string, string | undefined>;
  home: string;
}

const PARSERS: Record<Harness, (lines: unknown[]) => Transcript> = {
  claude: parseClaude,
  codex: parseCodex,
  gemini: (lines) => parseGemini(lines, 'gemini'),
  qwen: parseQwen,
};

/**
 * Reads the transcripts one file at a time, each project's stop log once, and counts. Only numbers
 * leave this function: no text, path or command of a transcript.
 */
export function collectHistory(options: HistoryOptions): HistorySummary & { stopLogs: number } {
  const stopLogs = new Map<string, Map<string, StopRecord[]>>();
  const results: TranscriptResult[] = [];
  for (const file of findTranscripts(options.env, options.home, options)) {
    const result = readOne(file, options, stopLogs);
    if (result) results.push(result);
  }
  return { ...summariseHistory(results), stopLogs: [...stopLogs.values()].filter((sessions) => sessions.size > 0).length };
}

function readOne(file: TranscriptFile, options: HistoryOptions, stopLogs: Map<string, Map<string, StopRecord[]>>): TranscriptResult | undefined {
  const { lines, torn } = readTranscript(file.path);
  const transcript = PARSERS[file.harness](lines);
  const cwd = transcript.cwd ?? file.project;
  if (options.root !== undefined && (cwd === undefined || !isWithin(cwd, options.root))) return undefined;
  const turns = splitTurns(transcript.events).filter((turn) => options.since === undefined || Date.parse(turn.start) >= (options.since ?? 0));
  const stops = cwd === undefined || transcript.session === undefined ? [] : (stopsBySession(cwd, stopLogs).get(sessionFileName(transcript.session)) ?? []);
  const verdicts = turns.filter((turn) => turn.ended && turn.lastEdit !== undefined).map((turn) => judgeTurn(turn, stops));
  return { harness: file.harness, turns: turns.length, verdicts, skipped: transcript.skipped + torn };
}

/** The stop log of the repository `cwd` is in, by session, oldest first. */
function stopsBySession(cwd: string, cache: Map<string, Map<string, StopRecord[]>>): Map<string, StopRecord[]> {
  const repo = findRepo(cwd);
  const stateDir = repo ? stateDirOf(repo) : '';
  let sessions = cache.get(stateDir);
  if (sessions) return sessions;
  sessions = new Map();
  const records = repo ? readStopLog(stateDir).records : [];
  for (const record of [...records].sort((a, b) => Date.parse(a.time) - Date.parse(b.time))) {
    const list = sessions.get(record.session) ?? [];
    list.push(record);
    sessions.set(record.session, list);
  }
  cache.set(stateDir, sessions);
  return sessions;
}
