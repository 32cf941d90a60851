import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { GateResult } from '../runner/gate-result.js';

const BEAT_MS = 15_000;

/**
 * Progress while the gates run, for a client that asked for it (a progressToken): each gate as it
 * starts and ends, and a beat while one runs, so a long suite does not run into a client's request
 * timeout where progress resets it.
 */
export function sendProgress(extra: RequestHandlerExtra<ServerRequest, ServerNotification>) {
  const token = extra._meta?.progressToken;
  if (token === undefined) return { onStart: undefined, onDone: undefined, stop: () => undefined };
  let progress = 0;
  const running = new Set<string>();
  const send = (message: string) => {
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++progress, message } }).catch(() => undefined);
  };
  const beat = setInterval(() => send(`running ${[...running].join(', ')}`), BEAT_MS);
  return {
    onStart: (name: string) => {
      running.add(name);
      send(`running ${name}`);
    },
    onDone: (result: GateResult) => {
      running.delete(result.name);
      send(`${result.name}: ${result.status}`);
    },
    stop: () => clearInterval(beat),
  };
}
