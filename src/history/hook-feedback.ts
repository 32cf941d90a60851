/**
 * Gemini CLI and Qwen Code hand a Stop hook's refusal to the model as a plain user message, with
 * nothing to tell it from a prompt but its words: gate's own report opens with this line
 * (src/report/render-report.ts), so gate's refusals don't split a turn in two there.
 */
const GATE_REPORT = /^gate: (?:\d+ of \d+ checks failed \(.*\); )?stop refused, block \d+ of \d+\./;

export function isGateReport(text: string): boolean {
  return GATE_REPORT.test(text.trimStart());
}
