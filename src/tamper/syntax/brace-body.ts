/**
 * A brace language's body among a test's code lines: after the line that opens it (the first `{`
 * at or after the declaration `declared` matches) up to the closing line.
 */
export function braceBody(code: readonly string[], declared: RegExp): { from: number; to: number } {
  const declaration = Math.max(0, code.findIndex((line) => declared.test(line)));
  const opens = code.findIndex((line, index) => index >= declaration && line.includes('{'));
  if (opens === -1) return { from: code.length, to: code.length };
  return { from: opens + 1, to: Math.max(opens + 1, code.length - 1) };
}
