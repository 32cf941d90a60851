const KINDS = ['skip', 'only', 'todo', 'deleted-test', 'emptied-test', 'weakened-check', 'weakened-test', 'gate-config'] as const;
export type TamperKind = (typeof KINDS)[number];

/** For findings read back from a file (the stop log). */
export function isTamperKind(value: string): value is TamperKind {
  return (KINDS as readonly string[]).includes(value);
}

/** One way a change may have made the checks easier to pass instead of making the code right. */
export interface TamperFinding {
  /** Relative to the repository root, with `/` separators. */
  path: string;
  /** In the current file, when the finding is an added line. */
  line?: number;
  kind: TamperKind;
  /** Plain words: "adds it.skip(", "deletes the test file", "changes gate.config.json: …". */
  detail: string;
}

export interface TamperScan {
  findings: TamperFinding[];
  /**
   * Why the scan could not look at everything (git failed, too many changed files, too much diff),
   * in plain words; `undefined` when it saw the whole change. Findings may still be partial then.
   */
  incomplete: string | undefined;
}

export interface AddedLine {
  /** 1-based, in the current file. */
  line: number;
  text: string;
}

/** A changed path as the detectors see it: what was added and removed since the baseline commit. */
export interface FileChange {
  path: string;
  added: AddedLine[];
  /** Baseline lines that are gone; known only for files git could compare. */
  removed: string[];
  /** The file is gone from the work tree. */
  deleted: boolean;
  /** The file did not exist at the baseline. */
  created: boolean;
  /** The baseline content is known through `removed` (false: untracked before, or no baseline commit). */
  baselineKnown: boolean;
  /** The current text, read for test files and config files; `undefined` when not read. */
  current: string | undefined;
  /** The baseline text, rebuilt from `current` and the diff for gate's own config (to compare what it says, not its bytes). */
  baseline?: string;
}
