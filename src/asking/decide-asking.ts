import { endsWithQuestion } from './ends-with-question.js';

/** The `whenAsking` setting (docs/configuration.md). */
export type WhenAsking = 'allow' | 'plan-only' | 'block';
export const WHEN_ASKING: readonly WhenAsking[] = ['allow', 'plan-only', 'block'];
export const DEFAULT_WHEN_ASKING: WhenAsking = 'plan-only';

/** Why a stop is not the agent claiming to be done: it plans (the harness says so) or asks. */
export type Asking = 'plan' | 'question';

/** The stop's asking, if the setting steps aside for it. */
export function askingAt(payload: { planMode: boolean; lastMessage: string | undefined }, setting: WhenAsking): Asking | undefined {
  if (setting === 'block') return undefined;
  if (payload.planMode) return 'plan';
  return setting === 'allow' && endsWithQuestion(payload.lastMessage) ? 'question' : undefined;
}

/** Stops in a row let through red because the agent asked, and the gates red at the last one (kept in the session state). */
export interface AskedStreak {
  stops: number;
  red: string[];
}

export interface AskingJudgement {
  /** Let the stop through red instead of blocking. */
  letThrough: boolean;
  /** The streak after this stop. */
  streak: AskedStreak;
}

/**
 * A stop gate would block, at which the agent asks: let through and counted, unless the agent has
 * already asked on `maxBlocks` such stops in a row while the same gates stayed red — then a question
 * is gated as usual, so asking never stands in for fixing for longer than blocking would. Plan mode
 * is always let through: the harness forbids the agent to edit, so a report could not be acted on.
 */
export function judgeAsking(asking: Asking, red: string[], previous: AskedStreak | undefined, maxBlocks: number): AskingJudgement {
  const continues = previous !== undefined && (red.length === 0 || previous.red.some((name) => red.includes(name)));
  const stops = continues ? previous.stops + 1 : 1;
  return { letThrough: asking === 'plan' || stops <= maxBlocks, streak: { stops, red } };
}

/** The stop log's words for an asking stop (docs/log-and-stats.md). */
export function askingReason(asking: Asking, judgement: AskingJudgement): string {
  const who = asking === 'plan' ? 'plan mode' : 'asked the human';
  const times = judgement.streak.stops > 1 ? ` (${judgement.streak.stops} in a row)` : '';
  return judgement.letThrough ? `${who}${times}: let through red` : `${who}${times}: gated as usual`;
}
