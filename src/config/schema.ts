import { z } from 'zod';

const GATE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const MAX_STARS_PER_SEGMENT = 3;

// Several `*` in one path segment compile to a regular expression whose matching time grows
// exponentially with their number (4 of them took 11 s on one 200-character name).
const glob = z
  .string()
  .min(1, 'a glob must not be empty')
  .max(1000, 'a glob is at most 1000 characters')
  .refine((pattern) => pattern.split('/').every((segment) => segment === '**' || (segment.match(/\*/g) ?? []).length <= MAX_STARS_PER_SEGMENT), {
    message: `a glob may have at most ${MAX_STARS_PER_SEGMENT} "*" in one path segment (more can take exponential time to match); split it into several globs`,
  });
const globList = z.array(glob);

/** The workspace kinds gate reads a package dependency graph from (src/workspace/). */
export const WORKSPACE_KINDS = ['npm', 'pnpm', 'yarn', 'go', 'cargo', 'uv'] as const;
const workspaceKind = z.enum([...WORKSPACE_KINDS, 'auto']);

export const gateSchema = z
  .strictObject({
    name: z
      .string()
      .regex(GATE_NAME, 'a gate name is letters, digits, ".", "_" or "-" (at most 64), like "test" or "lint"')
      .describe('The gate\'s name, used in reports, `gate check NAME` and GATE_SKIP.'),
    preset: z.string().optional().describe('A preset id from the presets/ folder (vitest, tsc, eslint …).'),
    run: z
      .union([
        z.string().min(1, 'the command must not be empty'),
        z.array(z.string()).min(1, 'the command needs at least the program'),
      ])
      .optional()
      .describe('The command: an argv array, or a string split like a shell would (run without one unless `shell` is true). `{files}` expands to the changed files that triggered the gate, `{cache}` to the gate\'s cache folder under gate\'s state.'),
    shell: z.boolean().optional().describe('Run `run` through /bin/sh. Off by default.'),
    on: globList.optional().describe('Globs (relative to the config\'s directory) of changed files that trigger this gate.'),
    ignore: globList.optional().describe('Globs of changed files that never trigger this gate.'),
    timeout: z.number().positive('a timeout is a positive number of seconds').max(86_400).optional().describe('Seconds before the gate is killed, with its whole process group.'),
    filter: z.string().optional().describe('The filter id that turns the tool\'s output into what the agent reads.'),
    cwd: z.string().optional().describe('Directory to run in, relative to the config\'s directory.'),
    related: z.boolean().optional().describe("Use the preset's fast tier at a stop: related tests, changed files, an incremental cache (default true; false: always the full command)."),
    retries: z.int().min(0).max(5).optional().describe('Run a failing gate again up to this many times; a failure that passes on retry is a flake: it does not block, and the human is told (default 0).'),
    env: z.record(z.string(), z.string()).optional().describe('Extra environment variables for the command.'),
  })
  .describe('A named check: a preset, a command, or both.');

export const configSchema = z
  .strictObject({
    $schema: z.string().optional(),
    gates: z.array(gateSchema).optional().describe('The checks to run when matching files changed.'),
    maxBlocks: z.int().min(1).max(50).optional().describe('Consecutive blocks per session before the stop is let through (default 3).'),
    budget: z.int().min(500).max(200_000).optional().describe('Characters the whole report may take (default 6000).'),
    concurrency: z.int().min(1).max(64).optional().describe('Gates run at once, of any kind (default: the cores gate may use, within a container\'s CPU quota, of them at most half as many test runners, which start their own workers).'),
    onTimeout: z
      .enum(['once', 'allow', 'block'])
      .optional()
      .describe('What a gate that timed out means: "once" (the default: a failure, unless it timed out at its previous run too), "allow" (no verdict) or "block" (a failure).'),
    outsideGit: z.enum(['skip', 'run']).optional().describe('Outside a git repository: "skip" (the default: do nothing) or "run" every gate at every stop.'),
    subagents: z.boolean().optional().describe('Also gate SubagentStop (default false: subagents would run the suite many times per turn).'),
    tamper: z.enum(['block', 'warn', 'off']).optional().describe('A change that skips, deletes or weakens tests or checks: "warn" (the default: said in the report and told to the human), "block" (blocks on its own), or "off".'),
    whenAsking: z
      .enum(['allow', 'plan-only', 'block'])
      .optional()
      .describe(
        'A stop where the agent is not claiming to be done (docs/stop-contract.md): "plan-only" (the default) lets a plan-mode stop through red and gates a question as usual; "allow" also lets through a stop whose last message ends with a question to the human; "block" gates both. The gates still run and the human is told what is red. Only the root config\'s value counts.',
      ),
    workspaces: z
      .union([
        workspaceKind,
        z.strictObject({
          kind: workspaceKind,
          affectsAll: globList.optional().describe("Files (relative to the workspace root) whose change affects every package; default: the kind's lockfile, root manifest and settings."),
        }),
      ])
      .optional()
      .describe("This directory is a workspace root: a change in a package also runs, in full, the gates of the packages that depend on it (from the workspace's dependency graph). Only the root config's value counts."),
  })
  .describe('gate configuration: gate.config.json (team) or gate.local.json (personal).');

export type GateEntry = z.infer<typeof gateSchema>;
export type ConfigFile = z.infer<typeof configSchema>;

/** How a preset's fast tier narrows its run; each has a planner in src/fast/. */
export const FAST_TIERS = ['changed-files', 'incremental', 'typescript', 'python-imports', 'go-packages', 'cargo-members', 'js-imports', 'turbo-packages', 'nx-projects'] as const;

export const presetSchema = z.strictObject({
  $schema: z.string().optional(),
  id: z.string(),
  description: z.string(),
  kind: z.enum(['test', 'typecheck', 'lint']),
  ecosystem: z.enum(['node', 'python', 'go', 'rust']),
  run: z.array(z.string()).min(1),
  env: z.record(z.string(), z.string()).optional().describe("Environment variables for the command (a gate's own `env` adds to them and wins)."),
  related: z
    .strictObject({
      by: z
        .enum(FAST_TIERS)
        .describe('How the fast tier narrows the run: the changed files, an incremental cache, or the packages, crates or test files the change reaches.'),
      run: z.array(z.string()).min(1).describe('The fast command: `{files}` expands to what `by` selected, `{cache}` to the gate\'s cache folder under gate\'s state.'),
      fullRunOn: globList.describe('A changed file matching these (config, setup, lockfile) means the full run.'),
      crossFile: z
        .strictObject({ configs: globList, mentions: z.array(z.string().min(1)).min(1) })
        .optional()
        .describe('The full run when one of these config files (in the gate\'s directory) mentions a rule that reads other files.'),
    })
    .optional()
    .describe('The fast tier a stop runs instead of `run` (`gate check --all` always runs `run`).'),
  on: globList.min(1),
  ignore: globList.optional(),
  filter: z.string(),
  outputFails: z.boolean().optional().describe('The command exits 0 whatever it finds (gofmt -d): any output fails the gate.'),
  timeout: z.number().positive(),
  detect: z
    .array(
      z.strictObject({
        dependency: z.string().optional(),
        file: z.string().optional(),
        section: z.string().optional(),
        in: z.string().optional(),
        contains: z.string().optional().describe('With a package.json `scripts.NAME` section: words the script runs, in order.'),
        formatCheck: z.string().optional().describe("The project's own scripts, task files or CI run this formatter's check (src/init/find-format-checks.ts): ruff, black, prettier, cargo-fmt."),
        lintRun: z.string().optional().describe("The project's own pre-commit config, scripts, tox or CI run this linter (src/init/find-format-checks.ts): flake8, isort, ruff-check."),
        alone: z.boolean().optional().describe('false: this evidence adds a reason but never selects the preset by itself.'),
        reason: z.string().min(1),
      }),
    )
    .min(1),
});

export type Preset = z.infer<typeof presetSchema>;
export type FastTier = NonNullable<Preset['related']>;
