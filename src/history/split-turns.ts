import type { TranscriptEvent } from './transcript-events.js';

/** One user prompt and everything the agent did for it, up to the next prompt. */
export interface Turn {
  start: string;
  /** When the next prompt came; undefined for the transcript's last turn. */
  next: string | undefined;
  /** The agent answered last: the turn ended rather than being cut off mid-tool. */
  ended: boolean;
  /** The last successful file edit; undefined for a turn that edited nothing. */
  lastEdit: string | undefined;
  /** Check commands the agent ran after its last edit, in order. */
  checksAfterEdit: Array<{ at: string; ok: boolean | undefined }>;
}

/** Pure: events in transcript order in, turns out (events before the first prompt are dropped). */
export function splitTurns(events: TranscriptEvent[]): Turn[] {
  const turns: Turn[] = [];
  let current: { turn: Turn; last: TranscriptEvent['kind'] } | undefined;
  for (const event of events) {
    if (event.kind === 'prompt') {
      // A harness may mark one prompt twice (Codex: task_started, then user_message).
      if (current && current.last === 'prompt') continue;
      if (current) current.turn.next = event.at;
      current = { turn: { start: event.at, next: undefined, ended: false, lastEdit: undefined, checksAfterEdit: [] }, last: 'prompt' };
      turns.push(current.turn);
      continue;
    }
    if (!current) continue;
    current.last = event.kind;
    const { turn } = current;
    turn.ended = event.kind === 'reply';
    if (event.kind === 'edit') {
      turn.lastEdit = event.at;
      turn.checksAfterEdit = [];
    } else if (event.kind === 'command' && event.check && turn.lastEdit !== undefined) {
      turn.checksAfterEdit.push({ at: event.at, ok: event.ok });
    }
  }
  return turns;
}
