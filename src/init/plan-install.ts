import type { HookBudget } from './hook-budget.js';
import { isAbsolute, resolve } from 'node:path';
import { LOCAL_FILE, TEAM_FILE } from '../config/find-config.js';
import type { InstallHooks, Installer } from '../harness/install/installer.js';
import type { Detection } from './detect-presets.js';
import { addIgnoreLines } from './gitignore-lines.js';
import type { ChosenBin } from './hook-command.js';
import { renderStarterConfig, type StarterGate } from './starter-config.js';
import { HOOK_MARGIN_SECONDS as MARGIN_SECONDS, PROMPT_HOOK_TIMEOUT } from '../plan/hook-time.js';

export interface FileChange {
  path: string;
  /** Relative to the project directory (absolute for a user-level file), for the plan. */
  display: string;
  before: string | undefined;
  after: string;
}

export interface InstallPlan {
  personal: boolean;
  installer: Installer;
  detection: Detection;
  bin: ChosenBin;
  command: string;
  hookTimeout: number;
  /** The entries written into the hook file (and each package's, with the package's command). */
  hooks: InstallHooks;
  /** The hook file is the user's own, for every repository (a harness with no uncommitted project file). */
  userLevel: boolean;
  /** Gates of a config that already exists and is kept as it is. */
  keptConfig: { file: string; gates: string[] } | undefined;
  changes: FileChange[];
  notes: string[];
}

export interface InstallInputs {
  projectDir: string;
  home: string;
  personal: boolean;
  installer: Installer;
  detection: Detection;
  bin: ChosenBin;
  /** Current contents of a file, by path relative to projectDir (or absolute). */
  read: (path: string) => string | undefined;
  /** Seconds the gates of the resulting config may take in all, or undefined if unknown. */
  gatesBudget: (configText: string | undefined) => HookBudget | undefined;
  isIgnored: (relativePath: string) => boolean;
  /** stopgate is installed in the project's own node_modules/, which git does not ignore. */
  unignoredNodeModules?: boolean;
  /** Environment folders git does not ignore (`.venv/`, as .gitignore lines): never source, whatever git says. */
  unignoredEnvironments?: string[];
  schemaRef: string | undefined;
  /** A workspace root: the root config's gates and `workspaces` key, and the packages' own files. */
  workspace?: WorkspaceFiles;
}

export interface WorkspaceFiles {
  rootGates: StarterGate[];
  workspacesKey: string | undefined;
  /** Configs planned in the packages (the budget callback counts them). */
  configs: FileChange[];
  /** Hook files in the packages (`--each-package`), made with the root's entries. */
  hookFiles: (hooks: InstallHooks) => FileChange[];
  /** Files of those that must stay out of git in a personal install. */
  privateFiles: string[];
}

const UNKNOWN_BUDGET = 600;

/** What `gate init` would write, computed without writing anything. */
export function planInstall(inputs: InstallInputs): InstallPlan {
  const notes: string[] = [];
  const changes: FileChange[] = [];
  const configFile = inputs.personal ? LOCAL_FILE : TEAM_FILE;
  const existing = inputs.read(configFile);
  const teamConfig = inputs.read(TEAM_FILE);
  let keptConfig: InstallPlan['keptConfig'];
  let configText: string | undefined = existing;

  if (existing !== undefined) {
    keptConfig = { file: configFile, gates: gateNames(existing) };
  } else if (inputs.personal && teamConfig !== undefined) {
    notes.push(`The team's ${TEAM_FILE} applies; put personal overrides in ${LOCAL_FILE} (same keys; gates by name).`);
    configText = teamConfig;
  } else {
    const workspace = inputs.workspace;
    const gates = workspace ? workspace.rootGates : inputs.detection.presets.map((chosen) => ({ name: chosen.gateName, preset: chosen.preset, ...(chosen.run ? { run: chosen.run } : {}) }));
    if (gates.length === 0 && (workspace?.configs.length ?? 0) === 0) {
      const missing = inputs.detection.missingTools ?? [];
      notes.push(
        missing.length > 0
          ? `No gate: what this repo uses (${missing.join(', ')}) is not installed here; install it as the notes above say, then add its gates to ${configFile} (or remove ${configFile} and run gate init again).`
          : `No test runner, type checker or linter was detected: add gates to ${configFile} by hand (see docs/configuration.md).`,
      );
    }
    configText = renderStarterConfig(gates, inputs.schemaRef, undefined, workspace?.workspacesKey === undefined ? {} : { workspaces: workspace.workspacesKey });
    changes.push({ path: resolve(inputs.projectDir, configFile), display: configFile, before: undefined, after: configText });
  }
  changes.push(...(inputs.workspace?.configs ?? []));

  const budget = inputs.gatesBudget(configText);
  if (budget === undefined) notes.push(`The config could not be read to size the hook's timeout; using ${UNKNOWN_BUDGET + MARGIN_SECONDS} s.`);
  const hookTimeout = (budget?.seconds ?? UNKNOWN_BUDGET) + MARGIN_SECONDS;
  const command = inputs.installer.command(inputs.bin.bin);

  const hookFile = inputs.installer.file(inputs.personal, inputs.home);
  const userLevel = isAbsolute(hookFile);
  const hookBefore = inputs.read(hookFile);
  const hooks = {
    command,
    stopTimeoutSeconds: hookTimeout,
    turnStartTimeoutSeconds: PROMPT_HOOK_TIMEOUT,
    maxBlocks: budget?.maxBlocks ?? 3,
    subagents: budget?.subagents ?? false,
    stopStatus: stopStatus(budget?.gates),
  };
  const merged = inputs.installer.merge(hookBefore, hooks, hookFile);
  if (merged.changed) changes.push({ path: resolve(inputs.projectDir, hookFile), display: hookFile, before: hookBefore, after: merged.text });
  changes.push(...(inputs.workspace?.hookFiles(hooks) ?? []));
  if (userLevel) notes.push(`${inputs.installer.harness} has no uncommitted project hook file, so this personal install is at user level (${hookFile}): it runs in every repository, and does nothing where there is no gate config.`);

  if (inputs.personal) {
    const privateFiles = [LOCAL_FILE, ...inputs.installer.privateFiles(true), ...(inputs.workspace?.privateFiles ?? [])].filter((file) => !inputs.isIgnored(file));
    // The line `gate.local.json` keeps it out of git in every package too.
    const wroteLocalConfig = changes.some((change) => change.display === LOCAL_FILE || change.display.endsWith(`/${LOCAL_FILE}`));
    const needed = privateFiles.filter((file) => file !== LOCAL_FILE || wroteLocalConfig || existing !== undefined);
    if (needed.length > 0) {
      const before = inputs.read('.gitignore');
      changes.push({ path: resolve(inputs.projectDir, '.gitignore'), display: '.gitignore', before, after: addIgnoreLines(before, needed) });
    }
  }
  if (inputs.unignoredNodeModules) ignoreNodeModules(inputs, changes, notes);
  if ((inputs.unignoredEnvironments ?? []).length > 0) ignoreEnvironments(inputs, inputs.unignoredEnvironments ?? [], changes, notes);
  return { personal: inputs.personal, installer: inputs.installer, detection: inputs.detection, bin: inputs.bin, command, hookTimeout, hooks, userLevel, keptConfig, changes, notes };
}

/**
 * `npm i -D stopgate` in a project that is no Node package leaves a node_modules/ its .gitignore
 * does not know: teammates would commit it, and every `git status` walks it.
 */
function ignoreNodeModules(inputs: InstallInputs, changes: FileChange[], notes: string[]): void {
  const planned = changes.find((change) => change.display === '.gitignore');
  if (planned) planned.after = addIgnoreLines(planned.after, ['node_modules/']);
  else {
    const before = inputs.read('.gitignore');
    changes.push({ path: resolve(inputs.projectDir, '.gitignore'), display: '.gitignore', before, after: addIgnoreLines(before, ['node_modules/']) });
  }
  notes.push('node_modules/ (where stopgate is installed) is not ignored by git: .gitignore gets the line node_modules/.');
}

/**
 * A virtualenv (or another environment) that git does not ignore: gate leaves it out of every
 * change anyway, but `git status` walks its thousands of files at every stop and a teammate may
 * commit it. The line goes into the plan's diff, written on the same yes as the rest.
 */
function ignoreEnvironments(inputs: InstallInputs, lines: string[], changes: FileChange[], notes: string[]): void {
  const planned = changes.find((change) => change.display === '.gitignore');
  if (planned) planned.after = addIgnoreLines(planned.after, lines);
  else {
    const before = inputs.read('.gitignore');
    changes.push({ path: resolve(inputs.projectDir, '.gitignore'), display: '.gitignore', before, after: addIgnoreLines(before, lines) });
  }
  const listed = lines.join(', ');
  notes.push(`${listed} ${lines.length === 1 ? 'is an environment (installed packages, caches) that git does not' : 'are environments (installed packages, caches) that git does not'} ignore: gate never counts ${lines.length === 1 ? 'it' : 'them'} as the project's source, and .gitignore gets the line${lines.length === 1 ? '' : 's'} ${listed}.`);
}

function gateNames(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || !('gates' in value) || !Array.isArray(value.gates)) return [];
    return value.gates.flatMap((gate: unknown) => (typeof gate === 'object' && gate !== null && 'name' in gate && typeof gate.name === 'string' ? [gate.name] : []));
  } catch {
    return [];
  }
}

/** What Claude Code's spinner says while the stop hook runs: the gates by name, or how many. */
export function stopStatus(gates: string[] | undefined): string {
  // Shown at every stop, whatever it runs: the kinds of check (each package's `test` is one), never a count.
  const kinds = [...new Set(gates ?? [])];
  const named = `gate: checking ${kinds.join(', ')}`;
  return kinds.length > 0 && named.length <= 60 ? named : 'gate: checking the change';
}
