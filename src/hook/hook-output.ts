/**
 * Claude Code's side of the stop contract (claude-code-facts.md): exit 2 with the report on stderr
 * blocks, and the model reads stderr verbatim; exit 0 with `{"systemMessage": …}` on stdout lets
 * the turn end and shows the message to the human only. Nothing else is ever printed.
 */
export interface HookOutput {
  allow(): number;
  notice(message: string): number;
  block(report: string): number;
}

export function claudeOutput(stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): HookOutput {
  return {
    allow: () => 0,
    notice(message) {
      stdout.write(`${JSON.stringify({ systemMessage: message })}\n`);
      return 0;
    },
    block(report) {
      stderr.write(report);
      return 2;
    },
  };
}
