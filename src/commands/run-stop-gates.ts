// The slow half of a stop, as its phases (src/stop/); the change was taken by the hot path (run.ts).
// prepare (config, time, lock) → choose and run the gates → judge → decide → record → tell.
import type { SessionState } from '../state/session-state.js';
import { readSession } from '../state/session-state.js';
import { recordIfKilled } from '../state/record-kill.js';
import type { ConfigTree } from '../config/config-tree.js';
import { prepareStop, type Held } from '../stop/prepare.js';
import { runSelectedGates } from '../stop/run-chosen-gates.js';
import { judgeStop, lookForTampering } from '../stop/judge.js';
import { decide } from '../stop/decide.js';
import { traceDecision } from '../stop/trace-decision.js';
import { answerAllow, answerBlock, type StopFindings } from '../stop/answer.js';
import type { StopContext } from '../stop/stop-context.js';

export { gitLimitFor } from '../stop/hook-timeout.js';

/** The slow half of a stop: something relevant changed, so load the config and run the gates. */
export async function runStopGates(stop: StopContext): Promise<number> {
  const held: Held = {};
  const stopListening = recordIfKilled(stop.trace, () => held.running?.gates() ?? [], () => {
    held.running?.end();
    held.release?.();
  });
  try {
    const prepared = await prepareStop(stop, held);
    if (prepared.kind === 'answered') return prepared.code;
    try {
      return await checkStop(prepared.stop, prepared.tree);
    } finally {
      prepared.end();
    }
  } finally {
    stopListening();
  }
}

async function checkStop(stop: StopContext, tree: ConfigTree): Promise<number> {
  const state = latestState(stop);
  // The tamper check's git diff starts first: with a quick gate, it is what the stop waits for.
  const [scanned, ran] = await Promise.all([lookForTampering(stop, tree.root, tree.gates), runSelectedGates(stop, tree)]);
  const judgement = await judgeStop(stop, tree, state, ran, scanned);
  const verdict = decide(stop, tree, state, ran, judgement);
  const { judged, tampering, runs } = judgement;
  traceDecision(stop, verdict, ran.results, judged, tampering, state.blocks);
  const { decision, notices, named, asking, asked } = verdict;
  const found: StopFindings = { stop, tree, state, results: ran.results, judged, decision, tampering, notices, named, asking, asked, runs, sameCode: ran.sameCode ?? [] };
  return decision.kind === 'block' && !verdict.letThrough ? answerBlock(found, decision) : answerAllow(found);
}

/** Another run for this session may have finished while we waited for the lock: count from its result. */
function latestState(stop: StopContext): SessionState {
  const fresh = readSession(stop.sessionFile).value;
  return fresh ? { ...fresh, hinted: fresh.hinted === true || stop.state.hinted === true } : stop.state;
}
