/** One failing test or diagnostic, by identity: what issue-level comparisons (pre-existing, flaky) key on. */
export interface Failure {
  /**
   * Stable identity: a test's full name ("src/a.test.ts > sum > adds"), or for a diagnostic its file,
   * rule and message without the line ("a.py arg-type: …", " (#2)" for a repeat: src/filters/diagnostic-id.ts).
   */
  id: string;
  /** A diagnostic's rule or code as the tool names it (`no-unused-vars`, `TS2322`, `E501`); absent for a failing test. */
  rule?: string;
  file?: string;
  line?: number;
  message: string;
  /** What a failed assertion wanted, as the tool printed it (one line; absent when it printed a multi-line diff). */
  expected?: string;
  /** What the code gave instead, as the tool printed it. */
  received?: string;
}

/** What a filter keeps of a tool's output for the agent. */
export interface Filtered {
  /**
   * The kept output in units the budget keeps or drops whole, in output order: one failing test
   * with its message, diff and location; one diagnostic; or (generic) one line.
   */
  items: string[][];
  /** What an item is, for "… 180 more failures": "failures", "errors", "problems", "lines". */
  noun: string;
  /** The totals, always kept after the items (e.g. "Tests  3 failed | 40 passed (43)"). */
  summary: string[];
  /** Lines of noise left out: progress, passing tests, banners, timings, library stack frames. */
  dropped: number;
  /** Structured failures, when the tool's output names them. */
  failures: Failure[];
  /** For each failure, the index of the item that shows it, when the filter knows. */
  itemOf?: number[];
  /**
   * For each item, the folders (absolute, nearest first) its relative file paths may be named from,
   * when that is not the gate's own folder: a task runner's task prints them from its package, or from
   * its tool's root. The report names such a file from the project, where it is there (src/report/place-task-paths.ts).
   */
  itemDirs?: string[][];
  /** The filter kept the runner's own error, led by its exception (pytest's INTERNALERROR): the tool's last lines would repeat it. */
  crashShown?: boolean;
}

/** `runner`: the words that run a bin of the project's dependencies (`npx`, `pnpm exec` …), for a fix a filter names. */
export type Filter = (raw: string, runner?: string) => Filtered;
