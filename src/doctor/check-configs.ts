import { stopBudgetSeconds } from '../plan/stop-budget.js';
import { join, relative, sep } from 'node:path';
import { ConfigError } from '../config/config-problem.js';
import { findConfig, findRootConfig, LOCAL_FILE, readConfigAt, TEAM_FILE, type ConfigFiles } from '../config/find-config.js';
import { listConfigDirs } from '../config/list-config-dirs.js';
import { loadConfig, type ResolvedConfig } from '../config/load-config.js';
import { gateHint } from '../package/gate-command.js';
import { findRepo, stateDirOf } from '../git/find-repo.js';
import { envCacheFile } from '../runner/ask-env-manager.js';
import { checkProgram } from './check-program.js';
import type { Finding } from './judge-delivery.js';

const DEFAULT_HOOK_TIMEOUT = 600;

export interface ConfigsChecked {
  findings: Finding[];
  /** The root config of a stop started here: its stop-wide settings count. */
  root?: ResolvedConfig;
  /** Which configs a stop started here uses, for the "is it gated" line: the root's and this directory's own. */
  applies?: string;
}

/**
 * The configs a stop started in `projectDir` involves are valid, their programs are found, and each
 * stop hook's timeout is above the longest a stop may take (src/plan/stop-budget.ts): the root config (the topmost from here up to the
 * git root), the nearest one here, and every package config below the root (a change can reach any).
 */
export async function checkConfigs(
  projectDir: string,
  repoRoot: string | undefined,
  env: NodeJS.ProcessEnv,
  stopHooks: Array<{ file: string; timeout: number | undefined }>,
): Promise<ConfigsChecked> {
  const findings: Finding[] = [];
  const rootFiles = findRootConfig(projectDir, repoRoot);
  if (!rootFiles) {
    findings.push({ level: 'problem', message: `no gate.config.json or gate.local.json from here up to the git root; run "${gateHint('init')}"` });
    return { findings };
  }
  const own = findConfig(projectDir, repoRoot);
  const nestedDirs = repoRoot === undefined ? [] : (await listConfigDirs(repoRoot)).filter((dir) => dir !== rootFiles.dir && !relative(rootFiles.dir, dir).startsWith('..'));
  const dirLabel = (dir: string) => relative(repoRoot ?? rootFiles.dir, dir).split(sep).join('/');
  const label = (files: ConfigFiles) => [dirLabel(files.dir), files.team ? TEAM_FILE : LOCAL_FILE].filter(Boolean).join('/');

  const root = load(rootFiles, projectDir, findings);
  if (!root) return { findings };
  findings.push({ level: 'ok', message: `config valid: ${root.gates.map((gate) => gate.name).join(', ') || 'no gates'}${nestedDirs.length > 0 ? ` (${label(rootFiles)}, the root config)` : ''}` });
  const repo = findRepo(projectDir);
  const cacheFile = repo ? envCacheFile(join(stateDirOf(repo), 'cache')) : undefined;
  for (const gate of root.gates) findings.push(...(await checkProgram(gate.name, gate, env, projectDir, cacheFile)));

  const everyGate = [...root.gates];
  const quiet: string[] = [];
  for (const dir of nestedDirs) {
    const files = readConfigAt(dir);
    if (!files) continue;
    const config = load(files, projectDir, findings);
    if (!config) continue;
    everyGate.push(...config.gates);
    const name = label(files);
    for (const key of config.stopWideKeys) findings.push({ level: 'info', message: `${name} sets "${key}", which only the root config decides: ignored` });
    const checks = (await Promise.all(config.gates.map((gate) => checkProgram(`${dirLabel(dir)}:${gate.name}`, gate, env, projectDir, cacheFile)))).flat();
    // The config of the directory the agent starts in is shown in full; the other packages only when something is wrong.
    if (own?.dir === dir) {
      findings.push({ level: 'ok', message: `config valid: ${name}: ${config.gates.map((gate) => gate.name).join(', ') || 'no gates'}` }, ...checks);
    } else {
      const said = checks.filter((check) => check.level === 'problem' || check.level === 'warning');
      findings.push(...said);
      if (said.length === 0) quiet.push(name);
    }
  }
  if (quiet.length > 0) findings.push({ level: 'ok', message: `${quiet.length}${own !== undefined && own.dir !== rootFiles.dir ? ' more' : ''} package config${quiet.length === 1 ? '' : 's'} valid, every program found (${quiet.length > 3 ? `${quiet.slice(0, 3).join(', ')} …` : quiet.join(', ')})` });

  const seconds = stopBudgetSeconds(everyGate, root.declaredConcurrency);
  for (const { file, timeout = DEFAULT_HOOK_TIMEOUT } of stopHooks) {
    findings.push(
      timeout > seconds
        ? { level: 'ok', message: `${file}: Stop hook timeout ${timeout} s exceeds the longest a stop may take, ${seconds} s` }
        : { level: 'problem', message: `${file}: Stop hook timeout ${timeout} s is not above the longest a stop may take, ${seconds} s: the harness would kill gate first and let the stop through silently; run "${gateHint('init')}" again` },
    );
  }
  const workspaces = root.workspaces ? ` ("workspaces": "${root.workspaces.kind}")` : '';
  const applies = own && own.dir !== rootFiles.dir ? `the root config ${label(rootFiles)}${workspaces}, and ${label(own)} for the files here` : `${label(rootFiles)}${workspaces}`;
  return { findings, root, applies };
}

function load(files: ConfigFiles, displayBase: string, findings: Finding[]): ResolvedConfig | undefined {
  try {
    return loadConfig(files, displayBase);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.message.split('\n')) findings.push({ level: 'problem', message: problem });
    return undefined;
  }
}
