import type { BlockProtocol, BlockStdout } from '../harness/adapters.js';
import { fitsStopContext, type StopEventName } from '../harness/claude-stop-context.js';
import { messages } from '../messages.js';
import { wellFormed } from '../filters/whole-text.js';

/**
 * The three things a hook can say, in the harness's own protocol. Nothing else is ever printed:
 * where JSON on stdout is the channel, exactly one object; a stray line makes the harness fail open.
 */
export interface HookOutput {
  allow(): number;
  /** Let the turn end and tell the human (never the agent). */
  notice(message: string): number;
  /** Refuse the stop; the report is what the agent reads, `toHuman` one line for the person watching. */
  block(report: string, toHuman: string): number;
}

/**
 * `stopContext`: the hook runs under a Claude Code that continues the turn on additionalContext
 * (src/harness/claude-stop-context.ts); a report that fits goes that way, any other by exit 2.
 */
export function hookOutput(
  protocol: BlockProtocol,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
  blockStdout: BlockStdout = 'none',
  stopContext?: StopEventName,
): HookOutput {
  const json = (value: object): number => {
    stdout.write(`${asciiJson(value)}\n`);
    return 0;
  };
  switch (protocol) {
    case 'exit2':
      return {
        allow: () => 0,
        notice: (message) => json({ systemMessage: message }),
        block(report, toHuman) {
          // No "stop hook problem" for the human, and the model reads the report once, whole.
          if (stopContext !== undefined && fitsStopContext(report)) {
            return json({ systemMessage: toHuman, hookSpecificOutput: { hookEventName: stopContext, additionalContext: report } });
          }
          // Claude Code drops an exit-2 block with empty stdout whose stderr says "no such file" or
          // "can't open" (its guess for a missing hook script); any stdout turns that guess off, and a
          // systemMessage there reaches the human only (docs/stop-contract.md).
          if (blockStdout === 'system-message') json({ systemMessage: toHuman });
          stderr.write(report);
          return 2;
        },
      };
    case 'decision':
    case 'plugin':
      return {
        allow: () => 0,
        notice: (message) => json({ systemMessage: message }),
        block: (report) => json({ decision: 'block', reason: report }),
      };
    case 'followup':
      // Cursor shows nothing of a hook's output to the human; its hook log keeps stderr.
      // `continue: true` is what beforeSubmitPrompt must answer to let the prompt through; the stop
      // event reads only `followup_message`.
      return {
        allow: () => json({ continue: true }),
        notice(message) {
          stderr.write(`${message}\n`);
          return json({ continue: true });
        },
        block: (report) => json({ followup_message: report }),
      };
    case 'stop-output':
      // Auggie reads a Stop block only from `hookSpecificOutput` (exit 2 on Stop never blocks) and
      // shows `systemMessage` to the human; 0.36.0 drops the block itself, so the human gets the
      // report too (docs/harness-auggie.md).
      return {
        allow: () => 0,
        notice: (message) => json({ systemMessage: message }),
        block: (report, toHuman) =>
          json({ systemMessage: messages.blockMayBeDropped(toHuman, report), hookSpecificOutput: { hookEventName: 'Stop', decision: 'block', reason: report } }),
      };
  }
}

/**
 * JSON with everything outside ASCII as \u escapes: Gemini CLI decodes each 64 KiB read of a hook's
 * stdout on its own, so a character split between two reads would reach the model as U+FFFD. Lone
 * surrogates become U+FFFD first: Copilot CLI rejects the whole answer over one.
 */
export function asciiJson(value: object): string {
  const json = JSON.stringify(value, (_key, field: unknown) => (typeof field === 'string' ? wellFormed(field) : field));
  return json.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
