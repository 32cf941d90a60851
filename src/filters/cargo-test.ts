import { cleanText } from './clean-text.js';
import type { Failure, Filtered } from './filter.js';
import { CARGO_REMARK, CARGO_STATUS, CARGO_VERDICT, CARGO_WARNING_COUNT, keepRustDiagnostic, readVerdict, sortVerdicts } from './native/cargo-lines.js';
import { collectFiltered, type Collector } from './native/collect-filtered.js';
import { isRustDiagnostic } from './native/rust-diagnostic.js';
import { trimRustBacktrace } from './native/rust-backtrace.js';
import { rustValues } from './native/native-values.js';

const RUNNING = /^\s*Running (?:unittests )?\S+ \((?:.*[\\/])?([\w-]+?)(?:-[0-9a-f]{16})?(?:\.exe)?\)$/;
const DOC_TESTS = /^\s*Doc-tests (\S+)$/;
const BLOCK = /^---- (.+?) stdout ----$/;
const PROGRESS = /^(?:test .+ \.\.\. (?:ok|FAILED|ignored)|running \d+ tests?$)/;
const RESULT = /^test result: (FAILED|ok)\. (.*?)(?:; finished in [\d.]+s)?$/;
const RERUN = /^error: test failed, to rerun pass /;
const PANIC = /^thread '(.+?)'(?: \(\d+\))? panicked at (?:'(.*)', )?(.+?):(\d+):(\d+):?$/;
const NOT_PANICKING = /^note: test did not panic as expected at (.+?):(\d+):\d+$/;
const MAX_RESULTS = 10;

interface Block {
  name: string;
  lines: string[];
}

/**
 * `cargo test` (also --no-fail-fast across test binaries, and build failures): one item per failing
 * test with its panic message, left/right values and user frames, and one per compile error.
 * Compiling/Running lines, passing tests, warnings, std/core frames and timings go.
 */
export function cargoTestFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const out = collectFiltered('failures', raw, lines);
  const results: string[] = [];
  const verdicts: string[] = [];
  const reruns: string[] = [];
  const seen = new Set<string>();
  let binary: string | undefined;
  let blocks: Block[] = [];
  // After the first "failures:" come the failures' output blocks, after the second only their names.
  let section: 'none' | 'blocks' | 'names' = 'none';
  const flush = () => {
    emitBlocks(out, binary, blocks);
    [blocks, section] = [[], 'none'];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const running = RUNNING.exec(line) ?? DOC_TESTS.exec(line);
    const result = RESULT.exec(line);
    const block = BLOCK.exec(line);
    if (running !== null) {
      flush();
      binary = running[1];
    } else if (result !== null) {
      flush();
      if (result[1] === 'FAILED') results.push(`test result: FAILED. ${result[2] ?? ''}`);
    } else if (block !== null) {
      blocks.push({ name: block[1] ?? '', lines: [] });
      section = 'blocks';
    } else if (line === 'failures:') section = section === 'none' ? 'blocks' : 'names';
    else if (section === 'names' || CARGO_STATUS.test(line) || PROGRESS.test(line) || CARGO_REMARK.test(line) || CARGO_WARNING_COUNT.test(line)) continue;
    else if (RERUN.test(line)) reruns.push(line);
    else if (CARGO_VERDICT.test(line)) {
      const verdict = readVerdict(lines, index);
      verdicts.push(...verdict);
      index += verdict.length - 1;
    } else if (section === 'blocks' && blocks.length > 0) blocks.at(-1)?.lines.push(line);
    else if (isRustDiagnostic(line)) index = keepRustDiagnostic(out, lines, index, seen, false) - 1;
    else if (line !== '') out.item([line]);
  }
  flush();
  const totals = results.length > MAX_RESULTS ? [...results.slice(0, MAX_RESULTS), `… ${results.length - MAX_RESULTS} more failing test binaries`] : results;
  const listed = verdicts.some((line) => /targets? failed/.test(line));
  return out.done([...totals, ...sortVerdicts(verdicts), ...(listed ? [] : reruns)]);
}

/** libtest prints failures as the tests finish; sorted by name they come out the same every run. */
function emitBlocks(out: Collector, binary: string | undefined, blocks: Block[]): void {
  for (const block of [...blocks].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const lines = trimRustBacktrace(block.lines.map((line) => line.replace(/^(thread '.+?') \(\d+\) panicked/, '$1 panicked')));
    const start = Math.max(0, lines.findIndex((line) => line.trim() !== ''));
    out.item([`---- ${block.name} stdout ----`, ...lines.slice(start)]);
    out.fail(describeFailure(binary === undefined ? block.name : `${binary}::${block.name}`, lines));
  }
}

function describeFailure(id: string, lines: string[]): Failure {
  for (const [index, line] of lines.entries()) {
    const panic = PANIC.exec(line);
    if (panic !== null) {
      const message = panic[2] ?? lines.slice(index + 1).find((next) => next.trim() !== '') ?? line;
      return { id, file: panic[3] ?? '', line: Number(panic[4]), message, ...rustValues(lines.slice(index + 1, index + 8)) };
    }
    const missing = NOT_PANICKING.exec(line);
    if (missing !== null) return { id, file: missing[1] ?? '', line: Number(missing[2]), message: line };
  }
  return { id, message: lines.find((line) => line.trim() !== '') ?? 'failed' };
}
