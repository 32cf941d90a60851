import { parseJsImports } from './parse-js-imports.js';
import { stripJsComments } from './strip-js-comments.js';

/** The names a file takes from one module: a list, or `all` (a side-effect import, `require`, a namespace used as a value). */
export type Names = string[] | 'all';

export interface ReExport {
  specifier: string;
  /** `export * from`: undefined; `export { a as b } from`: b → a; `export * as ns from`: ns → '*'. */
  names: Map<string, string> | undefined;
}

/** What a JavaScript or TypeScript file takes from other modules and gives to its importers, read from its text. */
export interface JsBindings {
  /** Each module it imports (not re-exports), with the names it uses of it. */
  imports: Map<string, Names>;
  /** Its `export … from` statements. */
  reExports: ReExport[];
  /** The names it defines and exports itself; undefined when they can't be read (`export =`, `module.exports`, a destructuring export). */
  defines: Set<string> | undefined;
  /** Statements at the top level other than declarations, imports and exports: evaluating it does something. */
  topLevelEffects: boolean;
  /** Other string literals that read as relative paths (`vi.mock('./x')`, proxyquire): they may name a module. */
  paths: string[];
  /** Why it may load a module no literal names: a computed `require`/`import()`, a glob import. */
  unfollowable: string | undefined;
}

const LITERAL = String.raw`(?:'([^'\n\\]*)'|"([^"\n\\]*)")`;
const ID = String.raw`[\w$]+`;
const IMPORT_FROM = new RegExp(String.raw`\bimport\s+(?:type\s+)?(?:(${ID})\s*,?\s*)?(?:\*\s*as\s+(${ID})|\{([^}]*)\})?\s*from\s*${LITERAL}`, 'g');
const EXPORT_STAR = new RegExp(String.raw`\bexport\s+(?:type\s+)?\*\s*(?:as\s+(${ID})\s*)?from\s*${LITERAL}`, 'g');
const EXPORT_LIST_FROM = new RegExp(String.raw`\bexport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*${LITERAL}`, 'g');
const DECLARED = new RegExp(
  String.raw`\bexport\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\s*\*?|class|const\s+enum|const|let|var|enum|interface|type|namespace)\s+(${ID})`,
  'g',
);
const EXPORT_LIST = /\bexport\s+(?:type\s+)?\{([^}]*)\}(?!\s*from)/g;
const UNREADABLE_EXPORT = /\bexport\s*=|\bmodule\.exports\b|(?<![\w$.])exports\.|\bexport\s+(?:const|let|var)\s*[{[]/;
// A bundler's glob import names its modules by pattern.
const GLOB_IMPORT = /\bimport\.meta\.glob(?:Eager)?\s*\(|\brequire\.context\s*\(/;
// A quoted string on one line: its text is no use of a name.
const QUOTED = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g;
const DEFAULT_EXPORT = /\bexport\s+default\b/;
// What may start a top-level statement that only declares: anything else does something when the module loads
// (a decorator too: it runs as the class is defined, and often registers it somewhere shared).
const DECLARATION_START =
  /^(?:import|export|function|async\s+function|class|abstract\s+class|const|let|var|type|interface|enum|declare|namespace|module\s+[\w$'"]|['"]use \w+['"]|[})\]]|;\s*$|$)/;

/** The import and export bindings of a module, read without a parser: where unsure, it says `all` or undefined. */
export function parseJsBindings(source: string): JsBindings {
  const code = stripJsComments(source);
  const blanked = stripJsComments(source, { blankStrings: true });
  const imports = new Map<string, Names>();
  const take = (specifier: string, names: Names) => {
    const had = imports.get(specifier);
    if (names === 'all' || had === 'all') imports.set(specifier, 'all');
    else imports.set(specifier, [...new Set([...(had ?? []), ...names])]);
  };
  const explained: Array<[number, number]> = [];
  const withoutStrings = code.replace(QUOTED, (quoted) => `${quoted[0]}${' '.repeat(quoted.length - 2)}${quoted[0]}`);
  for (const match of inCode(IMPORT_FROM, blanked, code)) {
    explained.push([match.index, match.index + match[0].length]);
    const specifier = match[4] ?? match[5] ?? '';
    const names: string[] = [];
    let all = false;
    if (match[1] !== undefined) names.push('default');
    if (match[2] !== undefined) {
      const used = namespaceUses(withoutStrings, match[2], match.index, match.index + match[0].length);
      if (used === 'all') all = true;
      else names.push(...used);
    }
    if (match[3] !== undefined) names.push(...listed(match[3]).map(([imported]) => imported));
    // `import {} from 'x'` takes no name but still loads the module, and what it does as it loads.
    take(specifier, all || names.length === 0 ? 'all' : names);
  }
  const reExports: ReExport[] = [];
  for (const match of inCode(EXPORT_STAR, blanked, code)) {
    explained.push([match.index, match.index + match[0].length]);
    reExports.push({ specifier: match[2] ?? match[3] ?? '', names: match[1] === undefined ? undefined : new Map([[match[1], '*']]) });
  }
  for (const match of inCode(EXPORT_LIST_FROM, blanked, code)) {
    explained.push([match.index, match.index + match[0].length]);
    reExports.push({ specifier: match[2] ?? match[3] ?? '', names: new Map(listed(match[1] ?? '').map(([imported, exported]) => [exported, imported])) });
  }
  // Any other mention of a module (a side-effect import, `require`, `import()`, an import this
  // reading did not explain) takes all of it.
  const rest = blank(code, explained);
  const plain = parseJsImports(rest);
  for (const specifier of plain.specifiers) take(specifier, 'all');
  const glob = GLOB_IMPORT.exec(rest);
  const unfollowable = plain.computed[0] !== undefined ? `has an import gate can't follow: ${plain.computed[0]}` : glob ? `imports modules by a pattern (${glob[0]}…)` : undefined;
  return { imports, reExports, defines: definedNames(rest), topLevelEffects: hasTopLevelEffects(code), paths: plain.relativePaths, unfollowable };
}

/** The matches of `pattern` in the code, found where no string's words can match (`blanked`) and read with the strings (`code`, same offsets). */
function* inCode(pattern: RegExp, blanked: string, code: string): Generator<RegExpExecArray> {
  const sticky = new RegExp(pattern.source, 'y');
  for (const found of blanked.matchAll(pattern)) {
    sticky.lastIndex = found.index;
    const match = sticky.exec(code);
    if (match) yield match;
  }
}

/** `a, b as c, type d, default as e` → [imported, exported] pairs. */
function listed(list: string): Array<[string, string]> {
  return list
    .split(',')
    .map((entry) => entry.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((entry) => {
      const [imported = '', exported = imported] = entry.split(/\s+as\s+/).map((word) => word.trim().replace(/^['"]|['"]$/g, ''));
      return [imported, exported];
    });
}

/** The members used of a namespace import (`ns.name`, `ns?.name`), or `all` when the namespace itself is used as a value. */
function namespaceUses(code: string, ns: string, start: number, end: number): string[] | 'all' {
  const names = new Set<string>();
  const escaped = ns.replaceAll('$', '\\$');
  for (const match of code.matchAll(new RegExp(String.raw`(?<![\w$.])${escaped}(?![\w$])(\s*\??\.\s*([\w$]+))?`, 'g'))) {
    if (match.index >= start && match.index < end) continue;
    if (match[2] === undefined && isParameter(code, match.index, ns.length)) continue;
    if (match[2] === undefined) return 'all';
    names.add(match[2]);
  }
  return [...names];
}

/**
 * Whether the name at `index` is a function's parameter (`(_, i) =>`, `_ =>`, `function (a, _)`),
 * which shadows the namespace rather than using it. Only a plain list of names counts.
 */
function isParameter(code: string, index: number, length: number): boolean {
  const after = code.slice(index + length, index + length + 200);
  if (/^\s*=>/.test(after)) return true;
  const open = code.lastIndexOf('(', index);
  const close = code.indexOf(')', index);
  if (open === -1 || close === -1) return false;
  const list = code.slice(open + 1, close);
  if (!/^[\w$\s,:?<>[\]|.]*$/.test(list)) return false;
  return /^\s*(?::[^=;{]*)?=>/.test(code.slice(close + 1, close + 200)) || /\bfunction\s*[\w$]*\s*$/.test(code.slice(Math.max(0, open - 40), open));
}

function definedNames(rest: string): Set<string> | undefined {
  if (UNREADABLE_EXPORT.test(rest)) return undefined;
  const names = new Set<string>();
  for (const match of rest.matchAll(DECLARED)) names.add(match[1] ?? '');
  for (const match of rest.matchAll(EXPORT_LIST)) for (const [, exported] of listed(match[1] ?? '')) names.add(exported);
  if (DEFAULT_EXPORT.test(rest)) names.add('default');
  names.delete('');
  return names;
}

/** The text with the given ranges blanked (newlines kept). */
function blank(code: string, ranges: Array<[number, number]>): string {
  let out = code;
  for (const [start, end] of ranges) out = out.slice(0, start) + code.slice(start, end).replace(/[^\n]/g, ' ') + out.slice(end);
  return out;
}

/**
 * Whether a top-level line (depth 0, not indented) starts something other than a declaration, an
 * import or an export. Unsure (brackets that don't balance) counts as yes.
 */
export function hasTopLevelEffects(code: string): boolean {
  let depth = 0;
  let lineStart = true;
  for (let i = 0; i < code.length; i++) {
    const char = code.charAt(i);
    if (lineStart && depth === 0 && char !== '\n' && char !== '\r') {
      if (/\s/.test(char)) {
        lineStart = false;
      } else {
        const end = code.indexOf('\n', i);
        if (!DECLARATION_START.test(code.slice(i, end === -1 ? code.length : end))) return true;
      }
    }
    lineStart = char === '\n';
    if (char === "'" || char === '"' || char === '`') i = endOfString(code, i, char);
    else if (char === '{' || char === '(' || char === '[') depth++;
    else if (char === '}' || char === ')' || char === ']') depth--;
    if (depth < 0) return true;
  }
  return depth !== 0;
}

function endOfString(code: string, start: number, quote: string): number {
  for (let i = start + 1; i < code.length; i++) {
    const char = code.charAt(i);
    if (char === '\\') i++;
    else if (char === quote) return i;
    else if (char === '\n' && quote !== '`') return i - 1;
  }
  return code.length;
}
