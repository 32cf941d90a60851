import type { TamperFinding } from './tamper-finding.js';

const MAX_LINE = 200;

/**
 * Report lines, one per finding: "tests/sum.test.ts:12: adds it.skip(". The first `max`, then
 * "… N more". Deterministic for the same findings; each line cut to 200 characters.
 */
export function describeTampering(findings: TamperFinding[], max = 10): string[] {
  const limit = Math.max(1, Math.floor(max));
  const lines = findings.slice(0, limit).map((finding) => {
    const where = finding.line === undefined ? finding.path : `${finding.path}:${finding.line}`;
    return clip(`${where}: ${finding.detail}`);
  });
  if (findings.length > limit) lines.push(`… ${findings.length - limit} more`);
  return lines;
}

function clip(line: string): string {
  const flat = line.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return flat.length > MAX_LINE ? `${flat.slice(0, MAX_LINE - 1)}…` : flat;
}
