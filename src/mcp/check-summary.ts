import { z } from 'zod';

const failure = z.object({
  id: z.string(),
  file: z.string().optional(),
  line: z.number().optional(),
  message: z.string(),
  expected: z.string().optional(),
  received: z.string().optional(),
});

/** gate_check's structured result, declared to the client as the tool's output schema. */
export const checkSummaryShape = {
  status: z.enum(['passed', 'failed', 'no-verdict', 'nothing-to-check']),
  /** Nothing failed (a gate that could not run or timed out is no verdict, not a failure). */
  ok: z.boolean(),
  /** What the change was measured against; null when every gate ran regardless. */
  baseline: z.string().nullable(),
  changedFiles: z.array(z.string()),
  gates: z.array(
    z.object({
      name: z.string(),
      status: z.enum(['passed', 'failed', 'timed-out', 'not-started', 'skipped']),
      outcome: z.string(),
      command: z.string(),
      durationMs: z.number(),
      exitCode: z.number().nullable(),
      /** The full log, relative to the project directory. */
      log: z.string(),
      failures: z.array(failure),
    }),
  ),
};

export type CheckSummary = z.infer<z.ZodObject<typeof checkSummaryShape>>;
export type CheckStatus = CheckSummary['status'];
