// Types of gate-project.mjs (plain JavaScript, shared with scripts/demo.mjs).

export const VITEST_VERSION: string;
export const TYPESCRIPT_VERSION: string;
export const SUM_OK: string;
export const SUM_BROKEN: string;
export const SUM_TEST: string;
/** The line of SUM_TEST whose assertion fails when sum is broken. */
export const SUM_TEST_ASSERTION_LINE: number;

/** A shell command for the agent's Bash tool that writes `text` to `path` (a quoted heredoc). */
export function writeFileCommand(path: string, text: string): string;

/** Throws when dist/ is missing; returns a warning when src/ changed after the last build. */
export function checkBuild(): string | undefined;

/** `npm pack` of this repository into destDir; returns the tarball's path. */
export function packGate(destDir: string): string;

export interface Template {
  /** the temp folder holding the tarball and the project; remove it when done */
  base: string;
  /** the installed project to copy */
  dir: string;
  tarball: string;
  packMs: number;
  installMs: number;
}

/** Packs gate and installs the template project (vitest, typescript, the tarball) under `parent`. */
export function prepareTemplate(parent?: string): Template;

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface GateProject {
  /** the temp folder holding everything below; removed by cleanup() */
  root: string;
  /** the git repository: a copy of the template, committed once */
  repo: string;
  /** HOME for git and npx */
  home: string;
  /** CLAUDE_CONFIG_DIR (and HOME) for the CLI */
  configDir: string;
  /** hermetic git config and quiet, offline npm: pass to runClaude so the hooks see it too */
  env: Record<string, string>;
  git(...args: string[]): string;
  write(path: string, text: string): void;
  read(path: string): string;
  exists(path: string): boolean;
  /** `git add -A` and commit (empty allowed) */
  commit(message: string): void;
  /** gate ARGS… in the repository: the installed `node_modules/.bin/gate`, or `npx gate` with viaNpx */
  gate(...args: string[]): CommandResult;
  /** `git status --porcelain --untracked-files=all`, one entry per line */
  status(): string[];
  cleanup(): void;
}

/** A fresh copy of the template as a git repository with one commit. */
export function makeProject(templateDir: string, options?: { viaNpx?: boolean }): GateProject;

/** Processes (not zombies) whose working directory is inside `dir`. */
export function processesIn(dir: string): string[];
