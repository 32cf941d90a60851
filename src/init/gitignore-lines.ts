/** Adds lines to a .gitignore text (created when absent), never duplicating one that is there. */
export function addIgnoreLines(text: string | undefined, lines: string[]): string {
  const existing = text ?? '';
  const present = new Set(existing.split(/\r?\n/).map((line) => line.trim()));
  const missing = lines.filter((line) => !present.has(line));
  if (missing.length === 0) return existing;
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const separator = existing === '' || existing.endsWith('\n') ? '' : eol;
  return `${existing}${separator}${missing.join(eol)}${eol}`;
}

/** Removes exactly these lines (as init added them); everything else stays as it was. */
export function removeIgnoreLines(text: string, lines: string[]): string {
  const drop = new Set(lines);
  return text
    .split(/(?<=\n)/)
    .filter((line) => !drop.has(line.replace(/\r?\n$/, '')))
    .join('');
}
