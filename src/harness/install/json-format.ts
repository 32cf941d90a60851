/**
 * JSON text edited in place: a strict parser that remembers where every value sits, and edits that
 * add or remove one entry of an object or array while leaving every other byte as it was. Editing
 * the text rather than re-serialising a parsed value is what keeps other people's formatting,
 * number spellings, escapes and key order (JSON.parse moves integer-like keys first) intact.
 */

export type JsonNode = JsonObject | JsonArray | { kind: 'scalar'; start: number; end: number };
export interface JsonObject { kind: 'object'; start: number; end: number; members: JsonMember[] }
export interface JsonArray { kind: 'array'; start: number; end: number; items: JsonNode[] }
/** `start` is where the key's opening quote is. */
export interface JsonMember { key: string; start: number; value: JsonNode }

export interface JsonFormat { bom: boolean; eol: '\n' | '\r\n'; indent: string }

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

export function detectFormat(text: string): JsonFormat {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return { bom: text.startsWith('\uFEFF'), eol: /\r?\n/.exec(text)?.[0] === '\r\n' ? '\r\n' : '\n', indent };
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** Strict RFC 8259 JSON, as JSON.parse (and so Claude Code) accepts it; throws JsonSyntaxError. */
export function parseJsonTree(text: string): JsonNode {
  let pos = 0;
  const fail = (problem: string, at = pos): never => {
    throw new JsonSyntaxError(problem, at);
  };
  const unexpected = (expected: string): never => {
    if (pos >= text.length) return fail(`the text ends where ${expected} was expected`);
    if (text.startsWith('//', pos) || text.startsWith('/*', pos)) return fail('comments are not allowed in JSON');
    const char = text.charAt(pos);
    return fail(`unexpected ${/[\s\x00-\x1f]/.test(char) ? JSON.stringify(char) : `'${char}'`} where ${expected} was expected`);
  };
  const skipSpace = (): void => {
    while (/[ \t\n\r]/.test(text.charAt(pos))) pos++;
  };
  const skipString = (): void => {
    const start = pos++;
    for (;;) {
      if (pos >= text.length) fail('a string is never closed', start);
      const code = text.charCodeAt(pos);
      if (code === 0x22) break;
      if (code < 0x20) fail('a string holds a raw control character (a tab or line break must be escaped)');
      if (code === 0x5c) {
        const escapeSequence = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;
        escapeSequence.lastIndex = pos;
        if (!escapeSequence.test(text)) fail('a string holds an invalid escape sequence');
        pos = escapeSequence.lastIndex;
      } else pos++;
    }
    pos++;
  };
  const parseEntries = <T>(close: string, parseEntry: () => T): T[] => {
    const entries: T[] = [];
    pos++;
    skipSpace();
    if (text.charAt(pos) === close) {
      pos++;
      return entries;
    }
    for (;;) {
      entries.push(parseEntry());
      skipSpace();
      const comma = pos;
      if (text.charAt(pos) === close) break;
      if (text.charAt(pos) !== ',') unexpected(`',' or '${close}'`);
      pos++;
      skipSpace();
      if (text.charAt(pos) === close) fail(`a trailing comma before '${close}' is not allowed in JSON`, comma);
    }
    pos++;
    return entries;
  };
  const parseMember = (): JsonMember => {
    if (text.charAt(pos) !== '"') unexpected('a property name in double quotes');
    const start = pos;
    skipString();
    const key: unknown = JSON.parse(text.slice(start, pos));
    skipSpace();
    if (text.charAt(pos) !== ':') unexpected("':'");
    pos++;
    return { key: String(key), start, value: parseValue() };
  };
  const parseValue = (): JsonNode => {
    skipSpace();
    const start = pos;
    const char = text.charAt(pos);
    if (char === '{') return { kind: 'object', start, members: parseEntries('}', parseMember), end: pos };
    if (char === '[') return { kind: 'array', start, items: parseEntries(']', parseValue), end: pos };
    if (char === '"') skipString();
    else {
      const scalar = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
      scalar.lastIndex = pos;
      if (!scalar.test(text)) unexpected('a value');
      pos = scalar.lastIndex;
    }
    return { kind: 'scalar', start, end: pos };
  };

  const root = parseValue();
  skipSpace();
  if (pos < text.length) unexpected('the end of the text');
  return root;
}

/** Removes entry `index` of an object or array with the comma and white space that belong to it. */
export function removeEntry(text: string, container: JsonObject | JsonArray, index: number): string {
  const entries = spansOf(container);
  const entry = entries[index];
  if (entry === undefined) throw new RangeError(`no entry ${index} to remove`);
  const previous = entries[index - 1];
  const next = entries[index + 1];
  if (previous !== undefined) return text.slice(0, previous.end) + text.slice(entry.end);
  if (next !== undefined) return text.slice(0, entry.start) + text.slice(next.start);
  return text.slice(0, container.start + 1) + text.slice(container.end - 1);
}

/**
 * Appends an entry laid out like its siblings: on a line of its own at their indentation, or inline
 * when they share a line. An empty container is opened up one indentation step deeper than its line.
 */
export function appendEntry(
  text: string,
  container: JsonObject | JsonArray,
  entry: { key?: string; value: unknown },
  format: JsonFormat,
): string {
  const render = (indent: string | undefined): string => {
    const prefix = entry.key === undefined ? '' : `${JSON.stringify(entry.key)}: `;
    // JSON.stringify escapes every line break inside strings, so these only touch layout.
    if (indent === undefined) return prefix + JSON.stringify(entry.value, null, 1).replace(/,\n */g, ', ').replace(/\n */g, '');
    return prefix + JSON.stringify(entry.value, null, format.indent).replace(/\n/g, format.eol + indent);
  };
  const entries = spansOf(container);
  const last = entries.at(-1);
  if (last === undefined) {
    const base = indentOfLine(text, container.start);
    const inner = base + format.indent;
    const opened = format.eol + inner + render(inner) + format.eol + base;
    return text.slice(0, container.start + 1) + opened + text.slice(container.end - 1);
  }
  const lead = text.slice(text.slice(0, last.start).trimEnd().length, last.start);
  const newline = lead.lastIndexOf('\n');
  const separator = newline >= 0 ? format.eol + lead.slice(newline + 1) : entries.length > 1 ? lead : ' ';
  const added = `,${separator}${render(newline >= 0 ? lead.slice(newline + 1) : undefined)}`;
  return text.slice(0, last.end) + added + text.slice(last.end);
}

function spansOf(container: JsonObject | JsonArray): Array<{ start: number; end: number }> {
  if (container.kind === 'array') return container.items;
  return container.members.map((member) => ({ start: member.start, end: member.value.end }));
}

function indentOfLine(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}
