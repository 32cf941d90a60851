import type { Collector } from './collect-filtered.js';
import { readRustDiagnostic } from './rust-diagnostic.js';

/** Cargo's progress and status lines: "   Compiling x v0.1.0 (/path)", "    Finished `test` profile …". */
export const CARGO_STATUS = /^\s*(?:Compiling|Checking|Finished|Fresh|Building|Blocking|Downloading|Downloaded|Updating|Locking|Adding|Documenting|Running|Doc-tests)\b/;
/** Cargo's verdict on the build: kept as totals, once each. */
export const CARGO_VERDICT = /^error: (?:could not compile|\d+ targets? failed:|aborting due to)/;
/** "warning: `x` (lib) generated 3 warnings": the totals of a lint run, noise in a test run. */
export const CARGO_WARNING_COUNT = /^warning: `[^`]+` \(.+\) generated \d+ warnings?/;
/** Cargo's remarks about the build that say nothing the diagnostics don't. */
export const CARGO_REMARK = /^(?:warning: build failed, waiting for other jobs to finish|For more information about (?:this error|these errors|an error), try `rustc --explain)/;

/** A verdict line and the indented list under it ("error: 3 targets failed:" / "    `--lib`"). */
export function readVerdict(lines: string[], start: number): string[] {
  let end = start + 1;
  while (/^\s+\S/.test(lines[end] ?? '') && !CARGO_STATUS.test(lines[end] ?? '')) end++;
  return lines.slice(start, end);
}

/** Cargo builds targets in parallel, so its verdicts come in any order: once each, sorted, lists last. */
export function sortVerdicts(lines: string[]): string[] {
  const single = [...new Set(lines.filter((line) => /^(?:error|warning): (?:could not compile|`)/.test(line)))].sort();
  return [...single, ...lines.filter((line) => !single.includes(line))];
}

/**
 * Keeps the rustc or clippy diagnostic at `start` as one item, unless `keepWarnings` is off and it
 * is a warning, or the same diagnostic was kept before (a library's diagnostics show again for its
 * test target). Returns the index of the line after it.
 */
export function keepRustDiagnostic(out: Collector, lines: string[], start: number, seen: Set<string>, keepWarnings: boolean): number {
  const diagnostic = readRustDiagnostic(lines, start);
  const text = diagnostic.lines.join('\n');
  if ((keepWarnings || diagnostic.severity === 'error') && !seen.has(text)) {
    seen.add(text);
    out.item(diagnostic.lines);
    out.fail(diagnostic.failure);
  }
  return diagnostic.end;
}
