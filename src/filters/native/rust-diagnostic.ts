import { diagnosticId } from '../diagnostic-id.js';
import type { Failure } from '../filter.js';

const HEADER = /^(error|warning)(?:\[(\w+)\])?: (.*)$/;
const LOCATION = /^\s*--> (.+?):(\d+):(\d+)$/;
const CONTINUATION = /^(?:\s|\d|help:|note:|suggestion:|\.\.\.|=|::: )/;
const GUTTER_ONLY = /^\s*\|\s*$/;
// How rustc and clippy name the lint behind a diagnostic; the lines themselves are noise.
const LINT_LINES: RegExp[] = [
  /^\s*= help: for further information visit https:\/\/rust-lang\.github\.io\/rust-clippy\/\S*#(?<clippy>\w+)$/,
  /^\s*= note: `-[DW] (?<lint>[\w:-]+)` implied by `-[DW] warnings`$/,
  /^\s*= help: to override `-[DW] warnings` add `#\[allow\((?<lint>[\w:]+)\)\]`$/,
  /^\s*= note: `#\[(?:warn|deny)\((?<lint>[\w:]+)\)\]`.* on by default$/,
];

export interface RustDiagnostic {
  severity: 'error' | 'warning';
  lines: string[];
  failure: Failure;
  end: number;
}

export function isRustDiagnostic(line: string): boolean {
  return HEADER.test(line);
}

/**
 * One rustc or clippy diagnostic starting at `start`: its code or lint moved into the header
 * (`error[clippy::needless_return]: …`), the source excerpt, notes and help kept.
 */
export function readRustDiagnostic(lines: string[], start: number): RustDiagnostic {
  const [, severity = 'error', code, message = ''] = HEADER.exec(lines[start] ?? '') ?? [];
  let end = start + 1;
  while (end < lines.length && CONTINUATION.test(lines[end] ?? '')) end++;
  const body: string[] = [];
  let lint: string | undefined;
  for (const line of lines.slice(start + 1, end)) {
    const named = LINT_LINES.map((pattern) => pattern.exec(line)?.groups).find((groups) => groups !== undefined);
    if (named !== undefined) {
      lint ??= named.clippy === undefined ? named.lint?.replaceAll('-', '_') : `clippy::${named.clippy}`;
    } else if (!GUTTER_ONLY.test(line)) body.push(line);
  }
  const name = code ?? lint;
  const location = lines.slice(start + 1, end).map((line) => LOCATION.exec(line)).find((match) => match !== null);
  const file = location?.[1];
  const lineNumber = location === undefined ? undefined : Number(location[2]);
  const failure: Failure = {
    id: diagnosticId(file, name ?? severity, message),
    rule: name ?? severity,
    ...(file === undefined ? {} : { file, line: lineNumber }),
    message,
  };
  const header = `${severity}${name === undefined ? '' : `[${name}]`}: ${message}`;
  return { severity: severity === 'warning' ? 'warning' : 'error', lines: [header, ...body], failure, end };
}
