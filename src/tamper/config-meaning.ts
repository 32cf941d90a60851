import { DEFAULTS } from '../config/defaults.js';

/**
 * What an edit to gate's config changed in what the config says, compared parsed: key order, line
 * endings, indentation and other reformatting change nothing. `undefined` when either side is not
 * JSON (then the caller reads the changed lines instead); `parts` in the words of
 * gate-config-change.ts, empty when the change is of another kind.
 */
export function compareGateConfigs(before: string, after: string): { same: true } | { same: false; parts: string[] } | undefined {
  const old = parse(before);
  const now = parse(after);
  if (old === undefined || now === undefined) return undefined;
  if (canonical(old) === canonical(now)) return { same: true };
  const parts: string[] = [];
  const oldGates = gatesOf(old);
  const newGates = gatesOf(now);
  for (const name of oldGates.keys()) if (!newGates.has(name)) parts.push(`removes the gate "${name}"`);
  const [blocksBefore, blocksAfter] = [old['maxBlocks'], now['maxBlocks']];
  if (typeof blocksAfter === 'number' && (typeof blocksBefore !== 'number' || blocksAfter > blocksBefore)) {
    parts.push(typeof blocksBefore === 'number' ? `raises maxBlocks from ${blocksBefore} to ${blocksAfter}` : `sets maxBlocks to ${blocksAfter}`);
  }
  if (now['tamper'] !== undefined && now['tamper'] !== old['tamper']) parts.push(`sets tamper to ${JSON.stringify(now['tamper'])}`);
  const [timeoutBefore, timeoutAfter] = [timeoutRule(old), timeoutRule(now)];
  if (TIMEOUT_STRENGTH[timeoutAfter] < TIMEOUT_STRENGTH[timeoutBefore]) parts.push(`sets onTimeout to ${JSON.stringify(timeoutAfter)}`);
  const kept = [...newGates].flatMap(([name, gate]) => (oldGates.has(name) ? [[oldGates.get(name) ?? {}, gate] as const] : []));
  if (kept.some(([was, is]) => differs(was, is, 'on') || differs(was, is, 'ignore'))) parts.push('changes which files a gate runs for');
  if (kept.some(([was, is]) => differs(was, is, 'run') || differs(was, is, 'shell'))) parts.push('changes a gate command');
  return { same: false, parts };
}

type Json = Record<string, unknown>;

// How much a timeout counts against the change: a turn that lowers it weakens the gate.
const TIMEOUT_STRENGTH = { allow: 0, once: 1, block: 2 } as const;

/** The config's `onTimeout`, the default when unset (or not one of the three). */
function timeoutRule(config: Json): keyof typeof TIMEOUT_STRENGTH {
  const value = config['onTimeout'];
  return value === 'allow' || value === 'block' ? value : DEFAULTS.onTimeout;
}

function parse(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The gates by name (a gate without a name by its place), each as its object. */
function gatesOf(config: Json): Map<string, Json> {
  const gates = Array.isArray(config['gates']) ? (config['gates'] as unknown[]) : [];
  return new Map(gates.map((gate, index) => (typeof gate === 'object' && gate !== null ? [nameOf(gate as Json, index), gate as Json] : [`#${index + 1}`, {}])));
}

function nameOf(gate: Json, index: number): string {
  return typeof gate['name'] === 'string' ? gate['name'] : `#${index + 1}`;
}

function differs(was: Json, is: Json, key: string): boolean {
  return canonical(was[key]) !== canonical(is[key]);
}

/** JSON with every object's keys sorted: equal for equal meaning. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
