import type { RunningGate } from './running-stop.js';
import type { StopGateStatus } from './stop-record.js';
import { recordTrace, type StopTrace } from './stop-trace.js';

const SIGNALS = [
  ['SIGHUP', 1],
  ['SIGINT', 2],
  ['SIGTERM', 15],
] as const;
const ENDED: StopGateStatus[] = ['passed', 'failed', 'timed-out', 'not-started'];

/**
 * While a stop runs its gates, a signal (a harness killing the hook on its timeout, a person's
 * Ctrl-C) records the stop as killed before gate goes, so `gate verdict` says "unchecked" instead
 * of finding no stop at all. Prepended: the runner's own handler (which kills the gates' process
 * groups and exits) runs after this one. Returns the function that stops listening.
 */
export function recordIfKilled(trace: StopTrace, gates: () => readonly RunningGate[], cleanUp: () => void): () => void {
  const handlers = SIGNALS.map(([signal, number]) => {
    const handler = () => {
      stopListening();
      trace.outcome = 'error';
      trace.reason = `killed by ${signal}`;
      trace.killed = { signal, running: runningNames(gates()) };
      if (gates().length > 0) trace.path = 'checked';
      trace.gates = finishedGates(gates());
      recordTrace(trace);
      cleanUp();
      // The runner's handler, next in line, kills the gates' groups and exits; if there is none yet
      // (no gate started) or it does not exit, this does, once the signal's handlers have run.
      process.nextTick(() => process.exit(128 + number));
    };
    process.prependListener(signal, handler);
    return [signal, handler] as const;
  });
  const stopListening = () => {
    for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  };
  return stopListening;
}

function runningNames(gates: readonly RunningGate[]): string[] {
  return gates.filter((gate) => gate.endedAt === undefined).map((gate) => (gate.purpose === 'baseline' ? `${gate.name} (on the turn's baseline)` : gate.name));
}

/** The stop's own runs that ended before the kill, as the log records gates. */
function finishedGates(gates: readonly RunningGate[]): StopTrace['gates'] {
  return gates.flatMap((gate) => (gate.endedAt === undefined || gate.purpose === 'baseline' ? [] : [{ name: gate.name, status: statusOf(gate.status), durationMs: gate.endedAt - gate.startedAt }]));
}

function statusOf(status: string | undefined): StopGateStatus {
  return ENDED.find((known) => known === status) ?? 'not-run';
}
