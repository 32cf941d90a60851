// The stop's phase that decides: block, allow or escape after `maxBlocks` (decide-stop.ts), whether the
// agent asking the human lets it through (src/asking/), and what the human is told besides.
import { type Asking, type AskingJudgement, askingAt, judgeAsking } from '../asking/decide-asking.js';
import type { StopContext } from './stop-context.js';
import type { ConfigTree } from '../config/config-tree.js';
import { decideStop, type StopDecision } from './decide-stop.js';
import { messages } from '../messages.js';
import type { SessionState } from '../state/session-state.js';
import { describeTampering } from '../tamper/describe-tampering.js';
import type { StopJudgement } from './judge.js';
import type { Reruns } from './run-chosen-gates.js';
import { noticesFor } from './tell.js';

export interface StopVerdict {
  decision: StopDecision;
  /** For the human, in order. */
  notices: string[];
  /** The uncovered package folders the human has been told of. */
  named: string[] | undefined;
  asking: Asking | undefined;
  asked: AskingJudgement | undefined;
  /** A block the agent's question or plan lets through. */
  letThrough: boolean;
}

export function decide(stop: StopContext, tree: ConfigTree, state: SessionState, ran: Reruns, { judged, tampering, timedOutBefore }: StopJudgement): StopVerdict {
  const config = tree.root;
  const { results } = ran;
  const decision = decideStop(results, state.blocks, config.maxBlocks, config.onTimeout, judged.preExistingOnly, config.tamper === 'block' && tampering.length > 0, timedOutBefore);
  const notices = [...stop.notices, ...ran.notes, ...noticesFor(decision, judged), ...results.flatMap((result) => (result.leftRunning ? [messages.leftRunning(result.name, result.leftRunning)] : []))];
  // Once a session: the human adds a config, or has decided not to.
  const unnamed = tree.uncovered.filter((dir) => !state.named?.includes(dir));
  if (unnamed.length > 0) notices.push(messages.uncoveredPackages(unnamed));
  const named = unnamed.length > 0 ? [...(state.named ?? []), ...unnamed] : state.named;
  // whenAsking: the agent plans or asks the human instead of claiming to be done.
  const asking = decision.kind === 'block' ? askingAt(stop.payload, config.whenAsking) : undefined;
  const red = decision.kind === 'allow' ? [] : decision.failed.map((result) => result.name);
  const asked = asking === undefined ? undefined : judgeAsking(asking, red, state.asked, config.maxBlocks);
  const letThrough = asked?.letThrough === true;
  if (tampering.length > 0 && (decision.kind !== 'block' || letThrough)) notices.push(messages.tampering(describeTampering(tampering, 5)));
  if (asked !== undefined && !letThrough) notices.push(messages.askedGated(asked.streak.stops - 1, asked.streak.red));
  return { decision, notices, named, asking, asked, letThrough };
}
