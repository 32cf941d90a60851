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

/**
 * The lines that bring back `file` (a path relative to the .gitignore they go into) when git
 * ignores it. git never re-includes a file whose directory is excluded, so each directory from the
 * topmost excluded one (`excludedDepth`, its index among the file's directories; -1: none) down is
 * re-included and its other contents excluded again: `.claude/` becomes `!/.claude/`, `/.claude/*`.
 */
export function reincludeLines(file: string, excludedDepth: number): string[] {
  const parts = file.split('/');
  const lines: string[] = [];
  for (let depth = Math.max(excludedDepth, 0); excludedDepth >= 0 && depth < parts.length - 1; depth++) {
    const dir = escapeGlob(parts.slice(0, depth + 1).join('/'));
    lines.push(`!/${dir}/`, `/${dir}/*`);
  }
  return [...lines, `!/${escapeGlob(file)}`];
}

/** Appends a block of lines in order (a re-include works only after what it overrides). */
export function appendIgnoreBlock(text: string | undefined, lines: string[]): string {
  const existing = text ?? '';
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const separator = existing === '' || existing.endsWith('\n') ? '' : eol;
  return `${existing}${separator}${lines.join(eol)}${eol}`;
}

function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]!# ]/g, (char) => `\\${char}`);
}
