import { diagnosticId } from '../diagnostic-id.js';
import type { Failure } from '../filter.js';

/** A compiler or vet diagnostic: "store/store.go:15:17: undefined: valu", "vet: x.go:3:1: missing return". */
const DIAGNOSTIC = /^(?:vet: )?(\S.*?\.go):(\d+)(?::(\d+))?: (.*)$/;
/** "# example.com/shop/calc [example.com/shop/calc.test]": which package the diagnostics below belong to. */
export const GO_PACKAGE_HEADER = /^# \S+/;

export function parseGoDiagnostic(line: string): Failure | undefined {
  const match = DIAGNOSTIC.exec(line);
  if (match === null) return undefined;
  const [, file = '', lineText, , message = ''] = match;
  return { id: diagnosticId(file, 'go', message), rule: 'go', file, line: Number(lineText), message };
}

/** The lines of the diagnostic starting at `start`: the compiler indents its continuations with a tab. */
export function goDiagnosticEnd(lines: string[], start: number): number {
  let end = start + 1;
  while (end < lines.length && (lines[end] ?? '').startsWith('\t')) end++;
  return end;
}
