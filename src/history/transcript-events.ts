/**
 * What a harness's transcript says happened, in order, reduced to what `gate history` counts: the
 * user's prompts, file edits, shell commands with their outcome, and the agent's replies. No text,
 * no paths, no output is kept.
 */
export type TranscriptEvent =
  | { kind: 'prompt'; at: string }
  | { kind: 'edit'; at: string }
  /** `ok`: the command exited 0; undefined when the transcript does not say. */
  | { kind: 'command'; at: string; check: boolean; ok: boolean | undefined }
  | { kind: 'reply'; at: string };

export type Harness = 'claude' | 'codex' | 'gemini' | 'qwen';

/** One transcript file, parsed. */
export interface Transcript {
  harness: Harness;
  /** The session id as the harness hands it to a hook (gate's stop log names sessions by it). */
  session: string | undefined;
  /** Where the agent was started; undefined when the file does not say. */
  cwd: string | undefined;
  events: TranscriptEvent[];
  /** Lines that were not JSON or not a record this parser knows: skipped, and counted. */
  skipped: number;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}
