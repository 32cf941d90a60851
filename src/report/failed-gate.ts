import type { Filtered } from '../filters/filter.js';

export interface FailedGate {
  name: string;
  command: string;
  /** "exit 1", "killed by SIGSEGV", "timed out after 60 s". */
  outcome: string;
  filtered: Filtered;
  /** The full log, relative to the project directory. */
  log: string;
  /**
   * Plain lines said after the gate's failures (which failures were there before the turn): the
   * agent reads its own first, and these never take the room a failure needs.
   */
  notes?: string[];
  /** The folder its command ran in (absolute): a finding another gate reports too is shown once (src/report/drop-repeated-findings.ts). */
  cwd?: string;
}
