import { join } from 'node:path';
import { LOCAL_FILE, TEAM_FILE } from '../config/find-config.js';
import type { Detection } from './detect-presets.js';
import { addIgnoreLines } from './gitignore-lines.js';
import type { HookCommand } from './hook-command.js';
import { mergeGateHooks } from './settings-merge.js';
import { renderStarterConfig } from './starter-config.js';

export interface FileChange {
  path: string;
  /** Relative to the project directory, for the plan. */
  display: string;
  before: string | undefined;
  after: string;
}

export interface InstallPlan {
  personal: boolean;
  detection: Detection;
  hook: HookCommand;
  hookTimeout: number;
  /** Gates of a config that already exists and is kept as it is. */
  keptConfig: { file: string; gates: string[] } | undefined;
  changes: FileChange[];
  notes: string[];
}

export interface InstallInputs {
  projectDir: string;
  personal: boolean;
  detection: Detection;
  hook: HookCommand;
  /** Current contents of the files init may touch, by path relative to projectDir. */
  read: (relativePath: string) => string | undefined;
  /** Seconds the gates of the resulting config may take in all, or undefined if unknown. */
  gatesBudget: (configText: string | undefined) => number | undefined;
  isIgnored: (relativePath: string) => boolean;
  schemaRef: string | undefined;
}

export const PROMPT_HOOK_TIMEOUT = 30;
const MARGIN_SECONDS = 30;
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
    const gates = inputs.detection.presets.map((chosen) => ({ name: chosen.gateName, preset: chosen.preset }));
    if (gates.length === 0) notes.push(`No test runner, type checker or linter was detected: add gates to ${configFile} by hand (see docs/configuration.md).`);
    configText = renderStarterConfig(gates, inputs.schemaRef);
    changes.push({ path: join(inputs.projectDir, configFile), display: configFile, before: undefined, after: configText });
  }

  const budget = inputs.gatesBudget(configText);
  if (budget === undefined) notes.push(`The config could not be read to size the hook's timeout; using ${UNKNOWN_BUDGET + MARGIN_SECONDS} s.`);
  const hookTimeout = (budget ?? UNKNOWN_BUDGET) + MARGIN_SECONDS;

  const settingsFile = inputs.personal ? '.claude/settings.local.json' : '.claude/settings.json';
  const settingsBefore = inputs.read(settingsFile);
  const merged = mergeGateHooks(
    settingsBefore,
    [
      { event: 'Stop', command: inputs.hook.command, timeout: hookTimeout },
      { event: 'UserPromptSubmit', command: inputs.hook.command, timeout: PROMPT_HOOK_TIMEOUT },
    ],
    settingsFile,
  );
  if (merged.changed) changes.push({ path: join(inputs.projectDir, settingsFile), display: settingsFile, before: settingsBefore, after: merged.text });

  if (inputs.personal) {
    const private_ = [LOCAL_FILE, '.claude/settings.local.json'].filter((file) => !inputs.isIgnored(file));
    if (private_.length > 0) {
      const before = inputs.read('.gitignore');
      changes.push({ path: join(inputs.projectDir, '.gitignore'), display: '.gitignore', before, after: addIgnoreLines(before, private_) });
    }
  }
  return { personal: inputs.personal, detection: inputs.detection, hook: inputs.hook, hookTimeout, keptConfig, changes, notes };
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
