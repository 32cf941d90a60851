import { ConfigError } from './config/config-problem.js';

/** The command line was wrong: the message says how to call it. */
export class UsageError extends Error {}

/** gate can't do its job here (no config found, not a repository …): the message says what to do. */
export class SetupError extends Error {}

export const EXIT = { ok: 0, failed: 1, usage: 2, config: 3, internal: 70 } as const;

/** The one place errors become exit codes; unknown errors are internal faults. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof ConfigError || error instanceof SetupError) return EXIT.config;
  return EXIT.internal;
}
