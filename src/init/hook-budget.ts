import { join } from 'node:path';
import { LOCAL_FILE, readConfigAt, TEAM_FILE, type ConfigFiles } from '../config/find-config.js';
import { loadConfig } from '../config/load-config.js';
import { stopBudgetSeconds } from '../plan/stop-budget.js';

export interface HookBudget {
  seconds: number;
  maxBlocks: number;
  subagents: boolean;
  /** The gates' names, for the status line a harness shows while the hook runs. */
  gates: string[];
}

/**
 * The longest the stop hook may wait for: a stop over every gate of every config (the root config
 * and each nested one), as src/plan/stop-budget.ts bounds it and the stop keeps to. The settings that
 * shape the hook entries come from the root config. Undefined when a config can't be read.
 */
export function hookBudget(root: ConfigFiles, nested: ConfigFiles[], displayBase: string): HookBudget | undefined {
  try {
    const config = loadConfig(root, displayBase);
    const gates = [config, ...nested.map((files) => loadConfig(files, displayBase))].flatMap((loaded) => loaded.gates);
    return { seconds: stopBudgetSeconds(gates, config.declaredConcurrency), maxBlocks: config.maxBlocks, subagents: config.subagents, gates: gates.map((gate) => gate.name) };
  } catch {
    return undefined;
  }
}

/** The config files in `dir` as they will be once init writes `text` (undefined: as they are). */
export function configWith(dir: string, personal: boolean, text: string | undefined): ConfigFiles {
  const files = readConfigAt(dir) ?? { dir, hash: '' };
  if (text === undefined) return files;
  return personal ? { ...files, local: { path: join(dir, LOCAL_FILE), text } } : { ...files, team: { path: join(dir, TEAM_FILE), text } };
}
