import type { StopRecord } from '../state/stop-record.js';

export interface DurationSummary {
  medianMs: number;
  p95Ms: number;
}

export interface StopStats {
  stops: number;
  sessions: number;
  /** The first and last record's time; null when there are none. */
  from: string | null;
  to: string | null;
  /** Stops decided without running any gate; `share` is 0 … 1. */
  fastPath: { stops: number; share: number };
  durations: { all: DurationSummary | null; fast: DurationSummary | null; checked: DurationSummary | null };
  outcomes: Record<StopRecord['outcome'], number>;
  /** Why stops ended the way they did, most frequent first. */
  reasons: Array<{ reason: string; stops: number }>;
  /** Gates that failed at least once: how often, out of how many times they ran. */
  failingGates: Array<{ name: string; failures: number; runs: number }>;
  flakyTests: Array<{ gate: string; test: string; times: number }>;
  /** Gates that met failures already there at the turn's start: at how many stops, and how many at the latest. */
  preExisting: Array<{ gate: string; stops: number; latest: number }>;
  /** Per session that was refused: the characters of feedback the agent was sent, in how many blocks, how many of them reminders of a report it had. Most first. */
  feedback: Array<{ session: string; chars: number; blocks: number; repeats: number }>;
}

const RAN = new Set(['passed', 'failed', 'timed-out']);

/** Pure and deterministic: the same records give the same numbers, ties broken by name. */
export function summariseStops(records: StopRecord[]): StopStats {
  const fast = records.filter((record) => record.path === 'fast');
  const checked = records.filter((record) => record.path === 'checked');
  const outcomes = { allow: 0, block: 0, escape: 0, error: 0 };
  const reasons = new Map<string, number>();
  const gates = new Map<string, { failures: number; runs: number }>();
  const flaky = new Map<string, { gate: string; test: string; times: number }>();
  const preExisting = new Map<string, { stops: number; latest: number }>();
  const feedback = new Map<string, { chars: number; blocks: number; repeats: number }>();
  for (const record of records) {
    outcomes[record.outcome]++;
    if (record.outcome === 'block') {
      const sent = feedback.get(record.session) ?? { chars: 0, blocks: 0, repeats: 0 };
      feedback.set(record.session, { chars: sent.chars + record.reportChars, blocks: sent.blocks + 1, repeats: sent.repeats + (record.repeat ? 1 : 0) });
    }
    reasons.set(record.reason, (reasons.get(record.reason) ?? 0) + 1);
    for (const gate of record.gates) {
      const counts = gates.get(gate.name) ?? { failures: 0, runs: 0 };
      if (RAN.has(gate.status)) counts.runs++;
      if (gate.status === 'failed') counts.failures++;
      gates.set(gate.name, counts);
      for (const test of gate.flaky ?? []) {
        const key = `${gate.name}\0${test}`;
        flaky.set(key, { gate: gate.name, test, times: (flaky.get(key)?.times ?? 0) + 1 });
      }
      if (gate.preExisting) preExisting.set(gate.name, { stops: (preExisting.get(gate.name)?.stops ?? 0) + 1, latest: gate.preExisting });
    }
  }
  return {
    stops: records.length,
    sessions: new Set(records.map((record) => record.session)).size,
    from: records[0]?.time ?? null,
    to: records.at(-1)?.time ?? null,
    fastPath: { stops: fast.length, share: records.length === 0 ? 0 : fast.length / records.length },
    durations: { all: summariseDurations(records), fast: summariseDurations(fast), checked: summariseDurations(checked) },
    outcomes,
    reasons: [...reasons].map(([reason, stops]) => ({ reason, stops })).sort((a, b) => b.stops - a.stops || compare(a.reason, b.reason)),
    failingGates: [...gates]
      .filter(([, counts]) => counts.failures > 0)
      .map(([name, counts]) => ({ name, ...counts }))
      .sort((a, b) => b.failures - a.failures || compare(a.name, b.name)),
    flakyTests: [...flaky.values()].sort((a, b) => b.times - a.times || compare(a.gate, b.gate) || compare(a.test, b.test)),
    preExisting: [...preExisting].map(([gate, counts]) => ({ gate, ...counts })).sort((a, b) => b.stops - a.stops || compare(a.gate, b.gate)),
    feedback: [...feedback].map(([session, sent]) => ({ session, ...sent })).sort((a, b) => b.chars - a.chars || compare(a.session, b.session)),
  };
}

function summariseDurations(records: StopRecord[]): DurationSummary | null {
  if (records.length === 0) return null;
  const sorted = records.map((record) => record.durationMs).sort((a, b) => a - b);
  return { medianMs: median(sorted), p95Ms: nearestRank(sorted, 0.95) };
}

/** The middle value, or the mean of the two middle ones (rounded to the millisecond). */
export function median(sorted: number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2);
}

/** The smallest value with at least `p` of all values at or below it: always one that occurred. */
export function nearestRank(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
