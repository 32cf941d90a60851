import { scanOutsideQuotes } from './scan-quoted.js';

/**
 * The `packages:` list of a pnpm-workspace.yaml (https://pnpm.io/pnpm-workspace_yaml), in block
 * form (`- 'apps/*'`) or flow form (`[apps/*, 'packages/*']`), with comments and quotes. Only
 * that one top-level key is read; the rest of the file (catalogs, settings) is skipped. Undefined
 * when there is no `packages` key; throws an Error naming the line when the list can't be read.
 */
export function parsePnpmWorkspacePackages(text: string): string[] | undefined {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r?\n|\r/).map(stripComment);
  const start = lines.findIndex((line) => /^(?:packages|'packages'|"packages")\s*:(?:\s|$)/.test(line));
  const key = lines[start];
  if (key === undefined) return undefined;
  const rest = key.slice(key.indexOf(':') + 1).trim();
  if (rest.startsWith('[')) return parseFlow(lines, start);
  if (rest !== '') throw new Error(`line ${start + 1}: "packages" is not a list`);
  const globs: string[] = [];
  for (const [index, line] of lines.entries()) {
    if (index <= start || line.trim() === '') continue;
    const item = /^\s*-(?:\s+(.*))?$/.exec(line);
    if (!item) {
      if (/^\S/.test(line)) break;
      throw new Error(`line ${index + 1}: expected a "- glob" item of "packages"`);
    }
    const value = (item[1] ?? '').trim();
    if (value === '') throw new Error(`line ${index + 1}: an empty "packages" item`);
    globs.push(unquote(value, index + 1));
  }
  return globs;
}

// A flow list may span lines: everything from the key's `[` up to the closing `]`.
function parseFlow(lines: string[], start: number): string[] {
  const text = lines.slice(start).join('\n');
  const open = text.indexOf('[');
  const body = text.slice(open + 1);
  const close = scanOutsideQuotes(body, (char) => char === ']');
  if (close < 0) throw new Error(`line ${start + 1}: the "packages" list has no closing ]`);
  const items: string[] = [];
  let from = 0;
  const inner = `${body.slice(0, close)},`;
  scanOutsideQuotes(inner, (char, index) => {
    if (char !== ',') return false;
    items.push(inner.slice(from, index).trim());
    from = index + 1;
    return false;
  });
  return items.filter((item) => item !== '').map((item) => unquote(item, start + 1));
}

/** The line without a `#` comment: a `#` at its start or after a space, outside quotes. */
function stripComment(line: string): string {
  const hash = scanOutsideQuotes(line, (char, index) => char === '#' && (index === 0 || /\s/.test(line.charAt(index - 1))));
  return hash < 0 ? line : line.slice(0, hash);
}

function unquote(value: string, line: number): string {
  if (value.startsWith("'")) {
    if (value.length < 2 || !value.endsWith("'")) throw new Error(`line ${line}: no closing quote in ${value}`);
    return value.slice(1, -1).replaceAll("''", "'");
  }
  if (value.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // An unclosed quote, or a YAML escape JSON lacks: said below, with the line.
    }
    throw new Error(`line ${line}: gate can't read the quoted string ${value}`);
  }
  return value;
}
