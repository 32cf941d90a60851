import type { TurnVerdict } from './judge-turn.js';
import type { Harness } from './transcript-events.js';

export const HARNESSES: readonly Harness[] = ['claude', 'codex', 'gemini', 'qwen'];

export interface HistoryCounts {
  transcripts: number;
  /** Every turn seen (since the date, when one was given). */
  turns: number;
  /** Turns that edited files and then ended: the ones judged below. */
  editedAndEnded: number;
  /** A check passed after the last edit (by the agent, by gate, or both). */
  passed: number;
  byAgent: number;
  byGate: number;
  /** Nothing checked the last edit. */
  unchecked: number;
  /** The last check after the last edit failed, or gate's last word was a refusal. */
  red: number;
  /** gate refused a stop of the turn… */
  blocked: number;
  /** …and a later stop of the same turn was green. */
  blockedThenFixed: number;
}

export interface HistorySummary extends HistoryCounts {
  /** Lines of the transcripts that were not JSON or not a record their parser knows. */
  skippedLines: number;
  byHarness: Record<Harness, HistoryCounts>;
}

export interface TranscriptResult {
  harness: Harness;
  turns: number;
  verdicts: TurnVerdict[];
  skipped: number;
}

/** Pure: per-transcript results in, counts out. */
export function summariseHistory(results: TranscriptResult[]): HistorySummary {
  const byHarness = Object.fromEntries(HARNESSES.map((harness) => [harness, count(results.filter((result) => result.harness === harness))])) as Record<Harness, HistoryCounts>;
  return { ...count(results), skippedLines: results.reduce((sum, result) => sum + result.skipped, 0), byHarness };
}

function count(results: TranscriptResult[]): HistoryCounts {
  const verdicts = results.flatMap((result) => result.verdicts);
  const where = (test: (verdict: TurnVerdict) => boolean) => verdicts.filter(test).length;
  return {
    transcripts: results.length,
    turns: results.reduce((sum, result) => sum + result.turns, 0),
    editedAndEnded: verdicts.length,
    passed: where((verdict) => verdict.status === 'passed'),
    byAgent: where((verdict) => verdict.status === 'passed' && verdict.byAgent),
    byGate: where((verdict) => verdict.status === 'passed' && verdict.byGate),
    unchecked: where((verdict) => verdict.status === 'unchecked'),
    red: where((verdict) => verdict.status === 'red'),
    blocked: where((verdict) => verdict.blocked),
    blockedThenFixed: where((verdict) => verdict.fixed),
  };
}
