/** One task's part of a task runner's output (Turborepo, Nx), its lines without the runner's prefix. */
export interface TaskOutput {
  /** The runner's name for it: `@acme/web:test` (package or project, then the task or target). */
  id: string;
  lines: string[];
  /** What the runner says when the task's command failed (turbo: `command (/repo/apps/web) npm run test exited (1)`). */
  exit?: string;
  /** The folder the task ran in, as the runner printed it (absolute): its package. */
  dir?: string;
}

export interface TidyTask {
  lines: string[];
  /** The command the package's script ran, as the package manager echoed it (`vitest run`). */
  script: string | undefined;
}

// npm and pnpm echo `> @acme/web@1.0.0 test` then `> vitest run`; yarn and bun echo `$ vitest run`.
const SCRIPT_HEADER = /^> \S+@\S* \S/;
const SCRIPT_ECHO = /^[>$] (.+)$/;
// The package manager's own words after a failing script, and Node's warning when Nx's pseudo-terminal
// sets FORCE_COLOR over gate's NO_COLOR (a TAP comment under `node --test`): nothing the agent can act on.
const NOISE = [
  /^npm (?:error|ERR!) /,
  /^\s?(?:ELIFECYCLE|ERR_PNPM_\w+)\b/,
  /^error Command failed with exit code \d+\.$/,
  /^info Visit https:\/\/yarnpkg\.com\/en\/docs\/cli\/run/,
  /^(?:# )?\(node:\d+\) Warning: The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set\.$/,
  /^(?:# )?\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)$/,
];

// The folder a script ran in, as the package manager says it: pnpm's echo
// (`> @acme/web@1.0.0 test /repo/apps/web`), npm's closing error (`npm error path /repo/apps/web`).
const MANAGER_DIR = [/^> \S+@\S* \S+ ((?:[A-Za-z]:)?[\\/].*)$/, /^npm (?:error|ERR!) path ((?:[A-Za-z]:)?[\\/].*)$/];

/** The folder the package manager says a task's script ran in (its package), when it says so. */
export function managerDir(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    for (const pattern of MANAGER_DIR) {
      const dir = pattern.exec(line)?.[1];
      if (dir !== undefined) return dir.trim();
    }
  }
  return undefined;
}

/** A task's lines without the script echo at its start and the package manager's closing error. */
export function tidyTask(lines: readonly string[]): TidyTask {
  let script: string | undefined;
  let start = 0;
  while (start < lines.length && (lines[start] ?? '').trim() === '') start++;
  if (SCRIPT_HEADER.test(lines[start] ?? '')) start++;
  const echo = SCRIPT_ECHO.exec(lines[start] ?? '');
  if (echo) {
    script = echo[1];
    start++;
  }
  const kept = lines.slice(start).filter((line) => !NOISE.some((pattern) => pattern.test(line)));
  return { lines: kept, script };
}
