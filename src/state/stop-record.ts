// One line of the stop log (`stops.jsonl`): what it holds, bounded for writing, checked on reading.

/** One stop as gate decided it: a line of `stops.jsonl`. */
export interface StopRecord {
  /** ISO 8601. */
  time: string;
  /** The session's state file name (already safe). */
  session: string;
  harness: string;
  event: 'stop' | 'subagent-stop';
  outcome: 'allow' | 'block' | 'escape' | 'error';
  /** fast: decided without running any gate. */
  path: 'fast' | 'checked';
  /** Short words: 'no change', 'already passed', 'all passed', 'failed', 'config invalid' … */
  reason: string;
  changed: { count: number; sample: string[] };
  gates: Array<{ name: string; status: StopGateStatus; durationMs: number; ahead?: boolean; reason?: string; tier?: string; flaky?: string[]; preExisting?: number; baselineMs?: number; baselineDoubt?: string }>;
  /** The whole hook, start to decision. */
  durationMs: number;
  /** 0 when nothing was reported to the agent. */
  reportChars: number;
  /** A block whose failures were exactly those of the report the agent had: it got a reminder instead. */
  repeat?: boolean;
  /** The session's consecutive blocks after this stop. */
  blocks: number;
  /** What the tamper check found at this stop (docs/tamper-guard.md); absent when it found nothing. */
  tamper?: { count: number; sample: StopTamper[] };
  /** Gates past the log's bound of 1000, counted. */
  gatesLeftOut?: number;
  /** The stop was killed (by the harness on its hook timeout, or by a person) before it was decided. */
  killed?: { signal: string; running: string[] };
}

export interface StopTamper {
  path: string;
  line?: number;
  kind: string;
  detail: string;
}

export type StopGateStatus = 'passed' | 'failed' | 'timed-out' | 'not-started' | 'skipped' | 'cached' | 'not-run';

const SAMPLE = 20;
const TAMPER_SAMPLE = 10;
const TEXT = 200;
const FILE_PATH = 300;
const MAX_GATES = 1000;
const DETAILED_GATES = 50;

/** Fixed key order (the reader finds a record's start by `{"time":`) and every field bounded. */
export function boundRecord(record: StopRecord): StopRecord {
  return {
    time: record.time,
    session: clip(record.session, TEXT),
    harness: clip(record.harness, TEXT),
    event: record.event,
    outcome: record.outcome,
    path: record.path,
    reason: clip(record.reason, TEXT),
    changed: { count: record.changed.count, sample: record.changed.sample.slice(0, SAMPLE).map((file) => clip(file, FILE_PATH)) },
    gates: record.gates.slice(0, MAX_GATES).map((gate, index) => {
      // Every gate is kept (`gate verdict` judges a session by them); the words only for the first
      // ones and those not green, so a stop over a big monorepo's gates stays one short line.
      const detailed = index < DETAILED_GATES || (gate.status !== 'passed' && gate.status !== 'cached');
      return {
        name: clip(gate.name, TEXT),
        status: gate.status,
        durationMs: Math.round(gate.durationMs),
        ...(gate.ahead ? { ahead: true } : {}),
        ...(gate.reason === undefined || !detailed ? {} : { reason: clip(gate.reason, TEXT) }),
        ...(gate.tier === undefined || !detailed ? {} : { tier: clip(gate.tier, TEXT) }),
        ...(gate.flaky === undefined ? {} : { flaky: gate.flaky.slice(0, SAMPLE).map((test) => clip(test, TEXT)) }),
        ...(gate.preExisting === undefined ? {} : { preExisting: gate.preExisting }),
        ...(gate.baselineMs === undefined ? {} : { baselineMs: Math.round(gate.baselineMs) }),
        ...(gate.baselineDoubt === undefined ? {} : { baselineDoubt: clip(gate.baselineDoubt, TEXT) }),
      };
    }),
    ...(record.gates.length > MAX_GATES ? { gatesLeftOut: record.gates.length - MAX_GATES } : {}),
    durationMs: Math.round(record.durationMs),
    reportChars: record.reportChars,
    ...(record.repeat ? { repeat: true } : {}),
    blocks: record.blocks,
    ...(record.tamper === undefined ? {} : { tamper: { count: record.tamper.count, sample: record.tamper.sample.slice(0, TAMPER_SAMPLE).map(boundTamper) } }),
    ...(record.killed === undefined ? {} : { killed: { signal: clip(record.killed.signal, 20), running: record.killed.running.slice(0, SAMPLE).map((name) => clip(name, TEXT)) } }),
  };
}

function boundTamper(finding: StopTamper): StopTamper {
  return { path: clip(finding.path, FILE_PATH), ...(finding.line === undefined ? {} : { line: finding.line }), kind: clip(finding.kind, 40), detail: clip(finding.detail, TEXT) };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const OUTCOMES = ['allow', 'block', 'escape', 'error'];
const STATUSES = ['passed', 'failed', 'timed-out', 'not-started', 'skipped', 'cached', 'not-run'];

export function isStopRecord(value: unknown): value is StopRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const changed = r['changed'] as Record<string, unknown> | null | undefined;
  return (
    ['time', 'session', 'harness', 'reason'].every((key) => typeof r[key] === 'string') &&
    ['durationMs', 'reportChars', 'blocks'].every((key) => typeof r[key] === 'number') &&
    (r['event'] === 'stop' || r['event'] === 'subagent-stop') &&
    OUTCOMES.includes(r['outcome'] as string) &&
    (r['path'] === 'fast' || r['path'] === 'checked') &&
    typeof changed === 'object' &&
    changed !== null &&
    typeof changed['count'] === 'number' &&
    isStrings(changed['sample']) &&
    Array.isArray(r['gates']) &&
    r['gates'].every(isGateEntry) &&
    (r['tamper'] === undefined || isTamper(r['tamper'])) &&
    (r['killed'] === undefined || isKilled(r['killed']))
  );
}

function isTamper(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { count, sample } = value as Record<string, unknown>;
  return typeof count === 'number' && Array.isArray(sample) && sample.every(isTamperFinding);
}

function isTamperFinding(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { path, line, kind, detail } = value as Record<string, unknown>;
  return typeof path === 'string' && (line === undefined || typeof line === 'number') && typeof kind === 'string' && typeof detail === 'string';
}

function isKilled(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { signal, running } = value as Record<string, unknown>;
  return typeof signal === 'string' && isStrings(running);
}

function isGateEntry(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const g = value as Record<string, unknown>;
  return (
    typeof g['name'] === 'string' &&
    STATUSES.includes(g['status'] as string) &&
    typeof g['durationMs'] === 'number' &&
    (g['ahead'] === undefined || typeof g['ahead'] === 'boolean') &&
    (g['reason'] === undefined || typeof g['reason'] === 'string') &&
    (g['tier'] === undefined || typeof g['tier'] === 'string') &&
    (g['flaky'] === undefined || isStrings(g['flaky'])) &&
    (g['preExisting'] === undefined || typeof g['preExisting'] === 'number') &&
    (g['baselineMs'] === undefined || typeof g['baselineMs'] === 'number') &&
    (g['baselineDoubt'] === undefined || typeof g['baselineDoubt'] === 'string')
  );
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
