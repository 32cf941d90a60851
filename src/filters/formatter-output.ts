import { diagnosticId } from './diagnostic-id.js';
import type { Failure } from './filter.js';

/** What a formatter's check said: the files it would change and the command that changes them. */
export interface FormatterFindings {
  failures: Failure[];
  fix: string;
}

interface Reader {
  /** The file a line names, or '' for a line of the tool's that names none; undefined: not this tool's. */
  read: (line: string) => string | undefined;
  fix: (files: string[], runner: string) => string;
  /** A line the output must have, when the file lines alone could be another tool's. */
  proof?: RegExp;
}

const DIFF_BODY = /^(?:[ +\-\\]|@@ |--- |\+\+\+ )|^$/;

const READERS: Reader[] = [
  // prettier --check: "Checking formatting...", "[warn] a.js", "[warn] Code style issues found in 2 files. Run Prettier with --write to fix."
  {
    read: (line) => (/^Checking formatting\.\.\.$|^\[warn\] Code style issues|^$/.test(line) ? '' : /^\[warn\] (\S.*)$/.exec(line)?.[1]),
    fix: (files, runner) => `Run \`${runner} prettier --write ${files.join(' ')}\` to format ${files.length === 1 ? 'it' : 'them'}.`,
    proof: /^\[warn\] Code style issues found/,
  },
  // gofmt -d: "diff add.go.orig add.go" over a unified diff.
  {
    read: (line) => /^diff (\S+)\.orig \1$/.exec(line)?.[1] ?? (DIFF_BODY.test(line) ? '' : undefined),
    fix: (files) => `Run \`gofmt -w ${files.join(' ')}\` to format ${files.length === 1 ? 'it' : 'them'}.`,
  },
  // gofmt -l: the files, one a line.
  {
    read: (line) => (line === '' ? '' : /^[^\s:]+\.go$/.exec(line)?.[0]),
    fix: (files) => `Run \`gofmt -w ${files.join(' ')}\` to format ${files.length === 1 ? 'it' : 'them'}.`,
  },
  // black --check (--diff): "would reformat /p/a.py" after the file's diff ("--- /p/a.py\t<time>"), "Oh no! 💥 💔 💥", the totals.
  {
    read: (line) =>
      /^would reformat (.+)$/.exec(line)?.[1] ?? (/^Oh no! |^All done! |^\d+ files? would be (?:reformatted|left unchanged)/.test(line) || DIFF_BODY.test(line) ? '' : undefined),
    fix: (files) => `Run \`black ${files.join(' ')}\` to format ${files.length === 1 ? 'it' : 'them'}.`,
    proof: /^Oh no! /,
  },
  // rustfmt --check, cargo fmt --check: "Diff in /p/src/lib.rs:1:" (older: "… at line 1:") over -/+ lines.
  {
    read: (line) => /^Diff in (.+?\.rs)(?::\d+| at line \d+):$/.exec(line)?.[1] ?? (/^[ +-]|^$/.test(line) ? '' : undefined),
    fix: () => 'Run `cargo fmt` (or `rustfmt` on the files) to format them.',
  },
];

/**
 * A formatter's check, when every line of the output is the formatter's: then its files are the
 * whole of what failed (with anything else in the output, nothing is claimed and all counts as new).
 */
export function readFormatterOutput(lines: readonly string[], runner = 'npx'): FormatterFindings | undefined {
  for (const reader of READERS) {
    const files: string[] = [];
    const all = lines.every((line) => {
      const file = reader.read(line);
      if (file !== undefined && file !== '' && !files.includes(file)) files.push(file);
      return file !== undefined;
    });
    if (!all || files.length === 0 || (reader.proof !== undefined && !lines.some((line) => reader.proof?.test(line)))) continue;
    const failures = files.map((file) => ({ id: diagnosticId(file, 'format', 'not formatted'), rule: 'format', file, message: 'not formatted' }));
    return { failures, fix: reader.fix(files, runner) };
  }
  return undefined;
}
