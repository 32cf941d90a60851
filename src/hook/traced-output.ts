import type { StopTrace } from '../state/stop-trace.js';
import type { HookOutput } from './hook-output.js';

/** The harness's output, noting in the trace what was said. */
export function tracedOutput(output: HookOutput, trace: StopTrace): HookOutput {
  return {
    allow: () => {
      trace.outcome ??= 'allow';
      return output.allow();
    },
    notice: (message) => {
      trace.outcome ??= 'allow';
      return output.notice(message);
    },
    block: (report, toHuman) => {
      trace.outcome = 'block';
      trace.reportChars = report.length;
      return output.block(report, toHuman);
    },
  };
}
