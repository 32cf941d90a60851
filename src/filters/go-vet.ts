import { cleanText } from './clean-text.js';
import { numberRepeats } from './diagnostic-id.js';
import type { Filtered } from './filter.js';
import { collectFiltered } from './native/collect-filtered.js';
import { GO_PACKAGE_HEADER, goDiagnosticEnd, parseGoDiagnostic } from './native/go-lines.js';

/**
 * `go vet`: one item per finding (and per type error that stopped vet), with its continuation
 * lines; the "# package" headers go, the findings carry their file paths.
 */
export function goVetFilter(raw: string): Filtered {
  const lines = cleanText(raw);
  const out = collectFiltered('problems', raw, lines);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const diagnostic = parseGoDiagnostic(line);
    if (diagnostic !== undefined) {
      const end = goDiagnosticEnd(lines, index);
      out.item(lines.slice(index, end));
      out.fail(diagnostic);
      index = end - 1;
    } else if (line !== '' && !GO_PACKAGE_HEADER.test(line) && !/^exit status \d+$/.test(line)) out.item([line]);
  }
  const result = out.done([]);
  return { ...result, failures: numberRepeats(result.failures) };
}
