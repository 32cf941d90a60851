import { cleanText } from './clean-text.js';
import { numberRepeats } from './diagnostic-id.js';
import type { Filtered } from './filter.js';
import { CARGO_REMARK, CARGO_STATUS, CARGO_VERDICT, CARGO_WARNING_COUNT, keepRustDiagnostic, readVerdict, sortVerdicts } from './native/cargo-lines.js';
import { collectFiltered } from './native/collect-filtered.js';
import { isRustDiagnostic } from './native/rust-diagnostic.js';

/**
 * `cargo clippy` (with or without -D warnings): one item per lint or compile error, its lint name
 * in the header (`error[clippy::needless_return]: …`), the source excerpt and the suggestion kept;
 * Checking/Compiling lines and the notes that only repeat how the lint was enabled go.
 */
export function cargoClippyFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const out = collectFiltered('problems', raw, lines);
  const summary: string[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (CARGO_VERDICT.test(line) || CARGO_WARNING_COUNT.test(line)) {
      const verdict = readVerdict(lines, index);
      summary.push(...verdict);
      index += verdict.length - 1;
    } else if (CARGO_STATUS.test(line) || CARGO_REMARK.test(line)) continue;
    else if (isRustDiagnostic(line)) index = keepRustDiagnostic(out, lines, index, seen, true) - 1;
    else if (line !== '') out.item([line]);
  }
  const result = out.done(sortVerdicts(summary));
  return { ...result, failures: numberRepeats(result.failures) };
}
