/**
 * A line that declares a test (or a group of tests) in one of the common frameworks. Skipped and
 * focused forms count too (`it.skip(`): those are reported by the skip detectors, not as "emptied".
 */
const DECLARATION = [
  /(?<![\w$.])(?:it|test|describe|suite|context|specify|bench|xit|xtest|xdescribe|fit|fdescribe)(?:\.[\w$]+)*\s*[(`]/,
  /^\s*(?:async\s+)?def\s+test\w*\s*\(/,
  /^\s*class\s+Test\w*\s*[(:]/,
  /^\s*func\s+(?:Test|Benchmark|Fuzz|Example)\w*\s*\(/,
  /#\[(?:\w+::)*test\b/,
  /@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Fact|Theory|TestMethod|TestCase)\b/,
];

export function isDeclaration(line: string): boolean {
  return DECLARATION.some((pattern) => pattern.test(line));
}

/**
 * Whether a line is only a comment. `#[` is a Rust attribute, not a comment; a line inside a
 * block comment is told by the caller (see `codeLines`).
 */
export function isCommentLine(line: string): boolean {
  return /^\s*(?:\/\/|\/\*|\*|#(?!\[|!\[)|<!--)/.test(line);
}

/** The lines of a file that are code: line comments and `/* … *\/` blocks dropped (strings are not parsed). */
export function codeLines(text: string): string[] {
  const lines: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    if (inBlock) {
      const end = line.indexOf('*/');
      if (end === -1) continue;
      inBlock = false;
      const rest = line.slice(end + 2);
      if (rest.trim() !== '') lines.push(rest);
      continue;
    }
    // Only a block that opens a line: `/*` elsewhere is as likely a glob in a string ('**/*.ts').
    if (/^\s*\/\*/.test(line) && !line.includes('*/', line.indexOf('/*') + 2)) {
      inBlock = true;
      continue;
    }
    if (!isCommentLine(line)) lines.push(line);
  }
  return lines;
}

export function hasDeclarations(lines: string[]): boolean {
  return lines.some((line) => !isCommentLine(line) && isDeclaration(line));
}
