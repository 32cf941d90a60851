import { canonicalValue, KEYWORD, NUMBER, plainLiteralsIn, STRING } from './literals.js';

// Arrays, objects, tuples and sets, written in a test or printed by its runner, made comparable:
// `[1, 2]` in the source, vitest's `[ 2, 1 ]`, its diff's `[\n  1,\n  2,\n]` and pytest's `[1, 2]`
// are one value; `{ b: 'x, y', a: 1 }`, `{ "a": 1, "b": "x, y" }` and `{'a': 1, 'b': 'x, y'}` another
// (keys in any order, quoted or not). Anything else inside (a name, a call, a spread, a `…(3)` or
// `[Object]` a printer cut short) makes the whole not a value: it is never compared.

const MAX_DEPTH = 40;
const SCALAR = new RegExp(String.raw`${STRING}|${NUMBER}(?![\w$])|${KEYWORD}`, 'y');
const KEY = new RegExp(String.raw`(${STRING}|[A-Za-z_$][\w$]*|\d+)\s*:(?!:)`, 'y');
// jest before 29 printed `Array [` and `Object {`.
const PREFIX = /(?:Array|Object)\s*(?=[[{])/y;

/** A value written or printed whole (the text holds that one value and nothing else), made comparable. */
export function comparableValue(text: string): string | undefined {
  const trimmed = text.trim().replace(/,$/, '');
  if (!/^(?:[[{(]|Array\s*\[|Object\s*\{)/.test(trimmed)) return canonicalValue(trimmed);
  const parsed = new ValueParser(trimmed).parse(0);
  return parsed && parsed.end === trimmed.length ? parsed.value : undefined;
}

/** A value written in code, where it is (`end` exclusive). */
export interface WrittenValue {
  value: string;
  start: number;
  end: number;
  composite: boolean;
}

/**
 * Every value written in a piece of code — plain literals, and each array, object, tuple or set
 * made only of values (nested ones counted again on their own) — in order of where they start.
 */
export function valuesIn(code: string): WrittenValue[] {
  const plain = plainLiteralsIn(code);
  const strings = plain.filter((literal) => literal.string);
  const found: WrittenValue[] = plain.map(({ value, start, end }) => ({ value, start, end, composite: false }));
  const parser = new ValueParser(code);
  for (const match of code.matchAll(/[[{(]/g)) {
    const at = match.index;
    if (strings.some((literal) => literal.start <= at && at < literal.end)) continue;
    // `a[0]`, `f(x)`, `fn() {`: an index, a call, a block — not a value. Rust's `vec![…]` is one.
    if (/[\w$)\].]/.test(code[at - 1] ?? '')) continue;
    const parsed = parser.parse(at);
    if (parsed) found.push({ value: parsed.value, start: at, end: parsed.end, composite: true });
  }
  return found.sort((a, b) => a.start - b.start);
}

class ValueParser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(start: number): { value: string; end: number } | undefined {
    this.at = start;
    const value = this.value(0);
    return value === undefined ? undefined : { value, end: this.at };
  }

  private value(depth: number): string | undefined {
    if (depth > MAX_DEPTH) return undefined;
    this.space();
    PREFIX.lastIndex = this.at;
    if (PREFIX.exec(this.text)) this.at = PREFIX.lastIndex;
    const char = this.text[this.at];
    if (char === '[') {
      const items = this.list(']', depth);
      return items === undefined ? undefined : `[${items.join(',')}]`;
    }
    if (char === '(') return this.tuple(depth);
    if (char === '{') return this.braces(depth);
    SCALAR.lastIndex = this.at;
    const match = SCALAR.exec(this.text);
    if (!match) return undefined;
    this.at = SCALAR.lastIndex;
    return JSON.stringify(canonicalValue(match[0]) ?? match[0]);
  }

  /** Python's `(2, 1)` and `(1,)`; `(5)` is a grouping, not a tuple. */
  private tuple(depth: number): string | undefined {
    const start = this.at;
    const items = this.list(')', depth);
    if (items === undefined) return undefined;
    if (items.length === 1 && !/,\s*\)$/.test(this.text.slice(start, this.at))) return undefined;
    return `(${items.join(',')})`;
  }

  /** An object (JS) or dict (Python), keys in any order; a Python set when there are no keys. */
  private braces(depth: number): string | undefined {
    const start = this.at;
    this.at++;
    this.space();
    KEY.lastIndex = this.at;
    if (this.text[this.at] !== '}' && !KEY.test(this.text)) {
      this.at = start;
      const items = this.list('}', depth);
      return items === undefined ? undefined : `<${[...items].sort().join(',')}>`;
    }
    const entries: string[] = [];
    for (;;) {
      this.space();
      if (this.text[this.at] === '}') break;
      KEY.lastIndex = this.at;
      const key = KEY.exec(this.text);
      if (!key) return undefined;
      this.at = KEY.lastIndex;
      const value = this.value(depth + 1);
      if (value === undefined) return undefined;
      const name = /^['"`]/.test(key[1] ?? '') ? (canonicalValue(key[1] ?? '') ?? '').slice(2) : (key[1] ?? '');
      entries.push(`${JSON.stringify(name)}:${value}`);
      if (!this.separator('}')) return undefined;
    }
    this.at++;
    return `{${entries.sort().join(',')}}`;
  }

  /** Values between the bracket at `at` and `close`, a trailing comma allowed. */
  private list(close: string, depth: number): string[] | undefined {
    this.at++;
    const items: string[] = [];
    for (;;) {
      this.space();
      if (this.text[this.at] === close) {
        this.at++;
        return items;
      }
      const item = this.value(depth + 1);
      if (item === undefined || !this.separator(close)) return undefined;
      items.push(item);
    }
  }

  /** A comma (skipped), or the closing bracket (left for the caller). */
  private separator(close: string): boolean {
    this.space();
    if (this.text[this.at] === ',') {
      this.at++;
      return true;
    }
    return this.text[this.at] === close;
  }

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }
}
