const KEY = /(?:^|[\s{,[(])["'`]?([A-Za-z_@$][\w@$/.-]*)["'`]?\s*(?::(?!:)|=(?![=>]))/g;
const SECTION = /^\s*\[+\s*([^\]\s]+(?:\s+[^\]\s]+)*)\s*\]+\s*(?:[#;].*)?$/;
const LOOK_BACK = 2000;
const MAX_LINE = 2000;

/** The keys written on a line: `"exclude": [`, `exclude: [`, `exclude = [`, `- exclude:`. */
export function keysIn(line: string): string[] {
  return [...line.slice(0, MAX_LINE).matchAll(KEY)].flatMap((match) => (match[1] ? [match[1]] : []));
}

export interface KeyChain {
  /** Keys written on the line itself, the innermost first. */
  own: string[];
  /** Keys of the enclosing blocks, nearest first. */
  parents: string[];
}

/**
 * The keys a config line sits under, nearest first: its own keys, then each enclosing block's key
 * found by indentation (JSON, YAML, JS objects, TOML arrays), then the `[section]` of a TOML or INI
 * file. A heuristic: it reads indentation, not syntax, so a minified file yields only own keys.
 */
export function keyChain(lines: string[], index: number, sections: boolean): KeyChain {
  const line = lines[index] ?? '';
  const own = keysIn(line).reverse();
  const parents: string[] = [];
  if (sections && SECTION.test(line)) return { own, parents };
  // A YAML list item belongs to the key at its own indentation: `exclude:\n- x`.
  let indent = indentOf(line) + (/^\s*- /.test(line) ? 1 : 0);
  for (let j = index - 1; j >= 0 && j >= index - LOOK_BACK; j--) {
    const text = lines[j] ?? '';
    if (text.trim() === '' || /^\s*(?:#|\/\/|;)/.test(text)) continue;
    if (sections) {
      const section = SECTION.exec(text);
      if (section?.[1]) {
        parents.push(section[1]);
        break;
      }
    }
    const level = indentOf(text);
    if (level >= indent) continue;
    const keys = keysIn(text);
    const last = keys[keys.length - 1];
    if (last !== undefined) parents.push(last);
    indent = level;
    if (level === 0 && !sections) break;
  }
  return { own, parents };
}

function indentOf(line: string): number {
  let count = 0;
  for (const char of line) {
    if (char === ' ') count++;
    else if (char === '\t') count += 4;
    else break;
  }
  return count;
}
