import { posix } from 'node:path';
import { countAssertions, countHelperCalls } from './assertion-rules.js';
import { isTestPath } from './classify-path.js';
import { closingLine } from './test-span.js';

// A project's own assertion helpers (graphql-js: `expectJSON(x).toDeepEqual(…)`,
// `expectValueFrom('[1]').to.deep.equal([1])`, about half its assertion lines): a function defined in
// the test file, or in a test-helper module it imports, whose body calls expect/assert or another
// helper. A call to one is an assertion like `expect(…)`.

const NAME = String.raw`[A-Za-z_$][\w$]*`;
const FUNCTION = new RegExp(String.raw`(?:^|[^\w$.])function\s*\*?\s*(${NAME})\s*[<(]`);
const ARROW = new RegExp(String.raw`(?:^|[^\w$.])(?:const|let|var)\s+(${NAME})\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|(?:\([^)]*\)|${NAME})\s*(?::[^=]+)?=>(.*))`);
const RELATIVE_IMPORT = /\bimport\s+(?:type\s+)?(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\})?\s*from\s*['"](\.\.?\/[^'"]+)['"]/g;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const MAX_DEPTH = 3;
const MAX_HELPERS = 200;

/** A file's text by its path relative to the root (`undefined`: missing or unreadable). */
export type ReadText = (path: string) => string | undefined;

/** The names a JavaScript or TypeScript test file can call that assert: its own helpers and the ones it imports from test-helper modules. */
export function findAssertionHelpers(path: string, read: ReadText): Set<string> {
  const texts = new Map<string, string | undefined>();
  const cached: ReadText = (file) => {
    if (!texts.has(file)) texts.set(file, read(file));
    return texts.get(file);
  };
  return helpersIn(path, cached, 0, new Map());
}

function helpersIn(path: string, read: ReadText, depth: number, seen: Map<string, Set<string>>): Set<string> {
  const known = seen.get(path);
  if (known) return known;
  const found = new Set<string>();
  seen.set(path, found);
  const text = read(path);
  if (text === undefined) return found;
  const available = new Set<string>();
  if (depth < MAX_DEPTH) {
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const module = resolveModule(path, match[3] ?? '', read);
      if (module === undefined || !isHelperModule(module)) continue;
      const helpers = helpersIn(module, read, depth + 1, seen);
      for (const [imported, local] of importedNames(match[1], match[2])) if (helpers.has(imported)) available.add(local);
    }
  }
  const definitions = defined(text.split('\n'));
  // A helper may call one defined below it: go round until no new one is found.
  for (let grew = true; grew && found.size < MAX_HELPERS; ) {
    grew = false;
    for (const { name, body } of definitions) {
      if (found.has(name) || !body.some((line) => countAssertions(line) > 0 || callsHelper(line, available) || callsHelper(line, found))) continue;
      found.add(name);
      grew = true;
    }
  }
  for (const name of available) found.add(name);
  return found;
}

function callsHelper(line: string, helpers: ReadonlySet<string>): boolean {
  return countHelperCalls(line, helpers) > 0;
}

/** Each function declaration or function-valued binding, with its body's lines. */
function defined(lines: readonly string[]): Array<{ name: string; body: string[] }> {
  const found: Array<{ name: string; body: string[] }> = [];
  lines.forEach((line, index) => {
    const declared = FUNCTION.exec(line);
    const bound = declared ? undefined : ARROW.exec(line);
    const name = declared?.[1] ?? bound?.[1];
    if (name === undefined) return;
    // `const f = (x) => expect(x)`: the body is the rest of the line.
    const expression = bound?.[2]?.trim();
    if (expression !== undefined && expression !== '' && !expression.startsWith('{')) {
      found.push({ name, body: [expression] });
      return;
    }
    const end = closingLine(lines, index, '{');
    if (end !== undefined) found.push({ name, body: lines.slice(index + 1, end + 1) });
  });
  return found;
}

/** `import def, { a, b as c } from …` → [imported, local] pairs. */
function importedNames(defaultName: string | undefined, list: string | undefined): Array<[string, string]> {
  const pairs: Array<[string, string]> = defaultName ? [['default', defaultName]] : [];
  for (const entry of (list ?? '').split(',')) {
    const [imported = '', local = imported] = entry.trim().replace(/^type\s+/, '').split(/\s+as\s+/).map((word) => word.trim());
    if (imported !== '') pairs.push([imported, local]);
  }
  return pairs;
}

/** A module the test's folder names, as TypeScript and bundlers find it (`./x`, `./x.js` for `x.ts`, `./dir` for its index). */
function resolveModule(from: string, specifier: string, read: ReadText): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (base.startsWith('../')) return undefined;
  const stem = base.replace(/\.[cm]?js$/, '');
  const candidates = [base, ...EXTENSIONS.map((extension) => `${stem}${extension}`), ...EXTENSIONS.map((extension) => `${base}/index${extension}`)];
  return candidates.find((candidate) => /\.[cm]?[jt]sx?$/.test(candidate) && read(candidate) !== undefined);
}

/** A module of test code: a test file, under a test folder, or named for tests (`__testUtils__/`, `test-helpers.ts`). */
function isHelperModule(path: string): boolean {
  return isTestPath(path) || /test|spec/i.test(path);
}
