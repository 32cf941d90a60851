import { describe, expect, it } from 'vitest';
import { judgeTurn } from '../../src/history/judge-turn.js';
import { splitTurns, type Turn } from '../../src/history/split-turns.js';
import type { TranscriptEvent } from '../../src/history/transcript-events.js';
import { stopAt } from '../helpers/stop-records.js';

const at = (minute: number): string => `2025-06-02T09:${String(minute).padStart(2, '0')}:30.000Z`;
const passed = { name: 'test', status: 'passed' as const, durationMs: 900 };
const failed = { name: 'test', status: 'failed' as const, durationMs: 900 };

/** One turn: a prompt at :00, then the events. */
function turn(...events: TranscriptEvent[]): Turn {
  const [only] = splitTurns([{ kind: 'prompt', at: at(0) }, ...events]);
  if (!only) throw new Error('no turn');
  return only;
}

describe('splitTurns', () => {
  it('starts a turn at each prompt, keeps only the checks after the last edit, and knows whether the agent had the last word', () => {
    const turns = splitTurns([
      { kind: 'edit', at: at(0) },
      { kind: 'prompt', at: at(1) },
      { kind: 'command', at: at(2), check: true, ok: false },
      { kind: 'edit', at: at(3) },
      { kind: 'command', at: at(4), check: true, ok: true },
      { kind: 'command', at: at(5), check: false, ok: true },
      { kind: 'reply', at: at(6) },
      { kind: 'prompt', at: at(7) },
      { kind: 'prompt', at: at(7) },
      { kind: 'edit', at: at(8) },
    ]);
    expect(turns).toEqual([
      { start: at(1), next: at(7), ended: true, lastEdit: at(3), checksAfterEdit: [{ at: at(4), ok: true }] },
      { start: at(7), next: undefined, ended: false, lastEdit: at(8), checksAfterEdit: [] },
    ]);
  });
});

describe('judgeTurn', () => {
  const edited = turn({ kind: 'edit', at: at(1) }, { kind: 'reply', at: at(2) });

  it('counts a green stop that ran the gates after the last edit as checked by gate', () => {
    expect(judgeTurn(edited, [stopAt(2, { reason: 'all passed', path: 'checked', gates: [passed] })])).toEqual({ status: 'passed', byAgent: false, byGate: true, blocked: false, fixed: false });
  });

  it('does not count a stop that found nothing to check', () => {
    expect(judgeTurn(edited, [stopAt(2, { reason: 'no gate triggered' })])).toMatchObject({ status: 'unchecked', byGate: false });
  });

  it("counts the agent's own passing check, and its failing one as red", () => {
    const pass = turn({ kind: 'edit', at: at(1) }, { kind: 'command', at: at(2), check: true, ok: true }, { kind: 'reply', at: at(3) });
    const fail = turn({ kind: 'edit', at: at(1) }, { kind: 'command', at: at(2), check: true, ok: false }, { kind: 'reply', at: at(3) });
    expect(judgeTurn(pass, [])).toMatchObject({ status: 'passed', byAgent: true, byGate: false });
    expect(judgeTurn(fail, [])).toMatchObject({ status: 'red', byAgent: false });
  });

  it("lets gate's later refusal overrule the agent's passing check", () => {
    const pass = turn({ kind: 'edit', at: at(1) }, { kind: 'command', at: at(2), check: true, ok: true }, { kind: 'reply', at: at(3) });
    const stops = [stopAt(3, { outcome: 'block', reason: 'failed', gates: [failed] }), stopAt(4, { outcome: 'escape', reason: 'max blocks', gates: [failed] })];
    expect(judgeTurn(pass, stops)).toEqual({ status: 'red', byAgent: false, byGate: false, blocked: true, fixed: false });
  });

  it('counts a refusal followed by a green stop in the same turn as fixed', () => {
    const fixedTurn = turn({ kind: 'edit', at: at(1) }, { kind: 'reply', at: at(2) }, { kind: 'edit', at: at(3) }, { kind: 'reply', at: at(4) });
    const stops = [stopAt(2, { outcome: 'block', reason: 'failed', gates: [failed] }), stopAt(4, { reason: 'all passed', gates: [passed] })];
    expect(judgeTurn(fixedTurn, stops)).toEqual({ status: 'passed', byAgent: false, byGate: true, blocked: true, fixed: true });
  });

  it("ignores stops before the turn's prompt and after the next one", () => {
    const [first] = splitTurns([{ kind: 'prompt', at: at(1) }, { kind: 'edit', at: at(2) }, { kind: 'reply', at: at(3) }, { kind: 'prompt', at: at(5) }]);
    if (!first) throw new Error('no turn');
    const stops = [stopAt(0, { outcome: 'block', reason: 'failed', gates: [failed] }), stopAt(6, { reason: 'all passed', gates: [passed] })];
    expect(judgeTurn(first, stops)).toEqual({ status: 'unchecked', byAgent: false, byGate: false, blocked: false, fixed: false });
  });
});
