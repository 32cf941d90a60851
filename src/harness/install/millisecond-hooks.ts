import { findGateHooks } from './settings-merge.js';
import type { HookFileShape } from './gate-hook-entry.js';

/** gate's entries in a hook file whose timeouts are milliseconds (Gemini CLI, Auggie), in seconds for doctor. */
export function findMillisecondHooks(text: string, fileName: string, shape: HookFileShape): Array<{ event: string; command: string; timeoutSeconds?: number }> {
  return findGateHooks(text, fileName, shape).map((hook) => ({
    event: hook.event,
    command: hook.command,
    ...(hook.timeout === undefined ? {} : { timeoutSeconds: hook.timeout / 1000 }),
  }));
}
