import type { FileChange, TamperFinding } from './tamper-finding.js';

const EXIT_OK = /^exit\s+0\s*;?\s*(?:#.*)?$/;
const NO_OP = /^(?:true|:)\s*;?\s*(?:#.*)?$/;
const ERREXIT = /^set\s+(?:-[a-zA-Z]*e[a-zA-Z]*|-o\s+errexit)\b/;
const COMMENT = /^\s*#+\s?/;

/**
 * How an edit to a check script that a gate runs (src/tamper/check-scripts.ts) makes it pass
 * whatever the code does: an `exit 0` before its checks or at its end, its check lines deleted or
 * commented out. Pure: from the added and removed lines and the current text.
 */
export function describeScriptChange(change: FileChange, gate: string): TamperFinding[] {
  if (change.deleted || change.current === undefined || !change.baselineKnown) return [];
  const runs = `the gate "${gate}" runs this script`;
  const found = (detail: string, line?: number): TamperFinding => ({ path: change.path, ...(line === undefined ? {} : { line }), kind: 'weakened-check', detail: `${detail} (${runs})` });
  const lines = change.current.split('\n').map(codeOf);
  const findings: TamperFinding[] = [];
  const errexit = lines.some((line) => line !== undefined && ERREXIT.test(line));
  for (const { line, text } of change.added) {
    const code = codeOf(text);
    if (code === undefined || !(EXIT_OK.test(code) || NO_OP.test(code))) continue;
    const after = lines.slice(line).filter((later) => later !== undefined);
    if (after.length > 0 && EXIT_OK.test(code)) findings.push(found('adds "exit 0" before its checks', line));
    else if (after.length === 0 && !errexit) findings.push(found(`ends it with "${code}": it succeeds whatever its checks found`, line));
  }
  const removed = change.removed.map(codeOf).filter((line): line is string => line !== undefined && !EXIT_OK.test(line) && !NO_OP.test(line));
  const now = new Set(lines.filter((line) => line !== undefined));
  const commented = new Set(change.added.filter((line) => COMMENT.test(line.text)).map((line) => line.text.replace(COMMENT, '').trim()));
  const written = change.added.map((line) => codeOf(line.text)).filter((line) => line !== undefined && !EXIT_OK.test(line) && !NO_OP.test(line) && !removed.includes(line));
  for (const line of removed.filter((text) => !now.has(text))) {
    if (commented.has(line)) findings.push(found(`comments out "${clip(line)}"`));
    else if (written.length === 0) findings.push(found(`deletes "${clip(line)}"`));
  }
  return findings;
}

/** A line's command, or undefined for a blank line, a comment or the shebang. */
function codeOf(text: string): string | undefined {
  const code = text.replace(/\r$/, '').trim();
  return code === '' || code.startsWith('#') ? undefined : code;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
