import type { Language } from './classify-path.js';
import type { TamperKind } from './tamper-finding.js';

/** A detector for one added line: a pattern and the plain words that say what the line does. */
export interface LineRule {
  kind: TamperKind;
  pattern: RegExp;
  /** Words for the report; `undefined` when the match turns out harmless. */
  detail: (match: RegExpExecArray) => string | undefined;
  /** Words that must also be on the line (a flag like `--ignore` only counts next to a checker). */
  alongside?: RegExp;
}

/** Rules for the source files of some languages. */
export interface SourceRules {
  languages: Language[];
  /** Whether the rules apply to every file of the languages, or only to files that look like tests. */
  scope: 'tests' | 'everywhere';
  /** Whether a line that is only a comment can match (true for `// eslint-disable`, false for `it.skip(`). */
  inComments: boolean;
  rules: LineRule[];
}

/** The matched text with its spacing squeezed out: "it.skip(", "@pytest.mark.xfail". */
export const adds = (match: RegExpExecArray): string => `adds ${match[0].trim().replace(/\s+/g, '')}`;
