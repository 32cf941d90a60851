import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { checkCommand } from '../doctor/check-command.js';
import { checkConfigs } from '../doctor/check-configs.js';
import { checkHostCap } from '../doctor/check-host-cap.js';
import { checkLastRun } from '../doctor/check-last-run.js';
import { checkPackageHooks } from '../doctor/check-package-hooks.js';
import { checkShared } from '../doctor/check-shared.js';
import type { Finding, Level } from '../doctor/judge-delivery.js';
import { gateHint } from '../package/gate-command.js';
import { findRepo } from '../git/find-repo.js';
import { ADAPTERS, type HarnessName } from '../harness/adapters.js';
import { harnessOption } from '../harness/unsupported-harness.js';
import { loadInstaller } from '../harness/install/installers.js';
import { readIfPresent } from '../init/apply-changes.js';
import { enclosingWorkspace } from '../init/read-members.js';
import { findGateHooks } from '../harness/install/settings-merge.js';
import type { FoundGateHook } from '../harness/install/gate-hook-entry.js';

const MARK: Record<Level, string> = { ok: '✔', problem: '✖', warning: '!', info: '·' };

/** `gate doctor`: is gate installed right here? Exit 0 when all is well, 1 with each problem said. */
export async function doctorCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let values: { json: boolean; harness: string };
  try {
    values = parseArgs({ args, options: { json: { type: 'boolean', default: false }, harness: { type: 'string', default: 'claude' } } }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate doctor [--harness NAME] [--json]`);
  }
  const { json } = values;
  const harness = harnessOption(values.harness);
  const projectDir = process.cwd();
  const findings = await doctorFindings(harness, projectDir, env);
  const problems = findings.filter((finding) => finding.level === 'problem').length;
  if (json) process.stdout.write(`${JSON.stringify({ ok: problems === 0, findings }, null, 2)}\n`);
  else process.stdout.write(renderFindings(findings));
  return problems === 0 ? 0 : 1;
}

/** What `gate doctor` finds for a harness in a directory (also said at the end of every init). */
export function doctorFindings(harness: HarnessName, projectDir: string, env: NodeJS.ProcessEnv): Promise<Finding[]> {
  return harness === 'claude' ? diagnose(projectDir, env) : diagnoseHarness(harness, projectDir, env);
}

export function renderFindings(findings: Finding[]): string {
  const problems = findings.filter((finding) => finding.level === 'problem').length;
  const lines = findings.map((finding) => `${MARK[finding.level]} ${finding.message}\n`).join('');
  const warnings = findings.filter((finding) => finding.level === 'warning').length;
  const counted = [problems > 0 ? `${problems} problem${problems === 1 ? '' : 's'}` : '', warnings > 0 ? `${warnings} warning${warnings === 1 ? '' : 's'}` : ''].filter(Boolean).join(', ');
  return `${lines}${counted === '' ? '\nAll is well.\n' : `\n${counted}.\n`}`;
}

async function diagnose(projectDir: string, env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const findings: Finding[] = [];
  const repo = findRepo(projectDir);
  const userDir = env['CLAUDE_CONFIG_DIR'] ?? join(env['HOME'] ?? homedir(), '.claude');
  const scopes = [
    { scope: 'user', path: join(userDir, 'settings.json') },
    { scope: 'project', path: join(projectDir, '.claude', 'settings.json') },
    { scope: 'local', path: join(projectDir, '.claude', 'settings.local.json') },
  ];
  const installed: Array<{ scope: string; file: string; hooks: FoundGateHook[] }> = [];
  for (const { scope, path } of scopes) {
    const text = readIfPresent(path);
    if (text === undefined) continue;
    const file = scope === 'user' ? path : relative(projectDir, path);
    try {
      const hooks = findGateHooks(text, file);
      if (/"disableAllHooks"\s*:\s*true/.test(text)) findings.push({ level: 'problem', message: `${file} sets "disableAllHooks": true — Claude Code runs no hook at all` });
      if (hooks.length > 0) installed.push({ scope, file, hooks });
    } catch (error) {
      findings.push({ level: 'problem', message: error instanceof Error ? error.message : String(error) });
    }
  }

  const plugin = pluginInstalls(scopes);
  if (plugin.length > 0) {
    findings.push({ level: 'ok', message: `the stopgate Claude Code plugin is enabled (${plugin.join(', ')}): it gates every repository with a gate config` });
    if (installed.length > 0) {
      findings.push({
        level: 'problem',
        message: `gate runs twice at every stop: from the plugin and from ${installed.map(({ file }) => file).join(', ')}. Keep one: "${gateHint('uninstall')}" here, or disable the plugin`,
      });
    }
  }
  const above = installed.length === 0 && plugin.length === 0 ? ancestorInstalls(projectDir, repo?.root) : [];
  const workspace = repo ? enclosingWorkspace(projectDir, repo.root) : undefined;
  if (installed.length === 0 && plugin.length === 0) {
    const gatedAbove = above[0]?.dir;
    if (gatedAbove === undefined && workspace === undefined) {
      findings.push({ level: 'problem', message: `not installed: no gate hook in the user, project or local Claude Code settings; run "${gateHint('init')}"` });
    } else {
      // Started in a package of a repository gated at its root (or of a workspace): the stop here is not.
      const fixes = [
        workspace ? `run "${gateHint('init --each-package')}" in ${workspace.root}` : `run "${gateHint('init')}" here`,
        ...(gatedAbove ? [`start the agent in ${gatedAbove}`] : []),
      ];
      findings.push({
        level: 'problem',
        message: `a stop started in ${projectDir} is not gated: Claude Code reads hooks only from the directory it is started in, and neither .claude/settings.json, .claude/settings.local.json here nor the user settings have gate's. Fix: ${fixes.join(', or ')}`,
      });
    }
    findings.push(...above.map(({ finding }) => finding));
  }
  for (const { file, hooks } of installed) {
    const events = hooks.map((hook) => hook.event);
    findings.push({ level: 'ok', message: `${file}: gate hooks on ${events.join(', ')}` });
    if (!events.includes('Stop')) findings.push({ level: 'problem', message: `${file}: no Stop hook, so no stop is ever gated; run "${gateHint('init')}"` });
    if (!events.includes('UserPromptSubmit')) {
      findings.push({ level: 'info', message: `${file}: no UserPromptSubmit hook: the turn's baseline falls back to the last passing tree or HEAD, so a question-only turn in a dirty repo may run the gates` });
    }
  }
  findings.push(...checkShared(projectDir, repo?.root, installed.filter(({ scope }) => scope === 'project').map(({ file }) => file)));
  const stopCommands = new Set(installed.flatMap(({ hooks }) => hooks.filter((hook) => hook.event === 'Stop').map(commandText)));
  if (stopCommands.size > 1) {
    const where = installed.filter(({ hooks }) => hooks.some((hook) => hook.event === 'Stop')).map(({ file }) => file);
    findings.push({ level: 'problem', message: `gate's Stop hook is installed in ${where.join(' and ')} with different commands: every stop would run the gates twice; run "${gateHint('uninstall')}" (or --personal) for one of them` });
  }
  for (const command of stopCommands) findings.push(...checkCommand('claude', command, projectDir, env));
  if (repo && resolve(repo.root) !== resolve(projectDir) && workspace === undefined) {
    findings.push({ level: 'info', message: `Claude Code reads hooks only from the directory it is started in: start it in ${projectDir} for these hooks to run (not in ${repo.root})` });
  }
  const stopHooks = installed.flatMap(({ file, hooks }) => hooks.filter((hook) => hook.event === 'Stop').map((hook) => ({ file, timeout: hook.timeout })));
  if (installed.length > 0) findings.push(...(await checkPackageHooks(projectDir, env)));
  const checked = await checkConfigs(projectDir, repo?.root, env, stopHooks);
  findings.push(...checked.findings);
  if (checked.root) findings.push(...(await checkLastRun(projectDir)));
  const gatedBy = stopHooks.length > 0 ? stopHooks.map(({ file }) => file).join(' and ') : plugin.length > 0 ? 'the stopgate plugin' : undefined;
  if (repo && resolve(repo.root) !== resolve(projectDir) && gatedBy !== undefined && checked.applies !== undefined) {
    findings.push({ level: 'ok', message: `a stop started in ${projectDir} is gated: ${gatedBy} runs gate, with ${checked.applies}` });
  }
  for (const { file, hooks } of installed) {
    if (checked.root?.subagents && !hooks.some((hook) => hook.event === 'SubagentStop')) {
      findings.push({ level: 'problem', message: `${file}: the config gates subagents, but there is no SubagentStop hook; run "${gateHint('init')}" again` });
    }
  }
  return findings;
}

/** Another harness: gate's entries in its project and personal files, each stop command probed, the config. */
async function diagnoseHarness(harness: HarnessName, projectDir: string, env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const findings: Finding[] = [];
  const adapter = ADAPTERS[harness];
  const installer = await loadInstaller(harness);
  const home = env['HOME'] ?? homedir();
  const stops: Array<{ file: string; command: string; timeout: number | undefined }> = [];
  for (const personal of [false, true]) {
    const file = installer.file(personal, home);
    const text = readIfPresent(resolve(projectDir, file));
    if (text === undefined) continue;
    try {
      const hooks = installer.find(text, file);
      if (hooks.length === 0) continue;
      findings.push({ level: 'ok', message: `${file}: gate hooks on ${hooks.map((hook) => hook.event).join(', ')}` });
      const stopHooks = hooks.filter((hook) => adapter.events[hook.event] === 'stop');
      if (stopHooks.length === 0) findings.push({ level: 'problem', message: `${file}: no stop hook, so no stop is ever gated; run "${gateHint(`init --harness ${harness}`)}"` });
      stops.push(...stopHooks.map((hook) => ({ file, command: hook.command, timeout: hook.timeoutSeconds })));
    } catch (error) {
      findings.push({ level: 'problem', message: error instanceof Error ? error.message : String(error) });
    }
  }
  const teamFile = installer.file(false, home);
  if (stops.some((stop) => stop.file === teamFile)) findings.push(...checkShared(projectDir, findRepo(projectDir)?.root, [teamFile]));
  if (stops.length === 0) findings.push({ level: 'problem', message: `not installed for ${harness}: run "${gateHint(`init --harness ${harness}`)}"` });
  for (const command of new Set(stops.map((stop) => stop.command))) findings.push(...checkCommand(harness, command, projectDir, env));
  if (harness === 'codex') {
    const { checkCodexTrust } = await import('../doctor/check-codex-trust.js');
    const installs = [...new Set(stops.map((stop) => stop.file))].map((file) => ({ file, path: resolve(projectDir, file), personal: file !== teamFile }));
    findings.push(...(await checkCodexTrust(installs, projectDir, env)));
  }
  if (harness === 'cursor' && stops.length > 0) findings.push(...claudeBesideCursor(projectDir, home));
  if (installer.enableStep) findings.push({ level: 'info', message: installer.enableStep });
  const checked = await checkConfigs(projectDir, findRepo(projectDir)?.root, env, stops);
  const capped = checked.root && stops.length > 0 ? checkHostCap(harness, checked.root.maxBlocks, projectDir, env) : [];
  return [...findings, ...checked.findings, ...capped, ...(checked.root ? await checkLastRun(projectDir) : [])];
}

/** Cursor runs `.claude` hooks too (third-party hooks); gate's copy there steps aside (src/harness/cursor-owns-stop.ts). */
function claudeBesideCursor(projectDir: string, home: string): Finding[] {
  const files = [join(projectDir, '.claude', 'settings.json'), join(projectDir, '.claude', 'settings.local.json'), join(home, '.claude', 'settings.json')];
  const gated = files.filter((path) => {
    const text = readIfPresent(path);
    try {
      return text !== undefined && findGateHooks(text, path).some((hook) => hook.event === 'Stop');
    } catch {
      return false;
    }
  });
  if (gated.length === 0) return [];
  const named = gated.map((path) => (path.startsWith(projectDir) ? relative(projectDir, path) : path)).join(', ');
  return [{ level: 'info', message: `${named} also has gate's Stop hook, which Cursor runs too when its third-party hooks are on: there gate leaves Cursor's stops to the .cursor hook, so each stop is gated once` }];
}

function commandText(hook: FoundGateHook): string {
  return hook.args ? [hook.command, ...hook.args].join(' ') : hook.command;
}

/** Settings files that enable the stopgate plugin (`enabledPlugins: {"stopgate@…": true}`). */
function pluginInstalls(scopes: Array<{ scope: string; path: string }>): string[] {
  return scopes.flatMap(({ scope, path }) => {
    try {
      const settings: unknown = JSON.parse(readIfPresent(path) ?? '{}');
      if (typeof settings !== 'object' || settings === null || !('enabledPlugins' in settings)) return [];
      const enabled = settings.enabledPlugins;
      if (typeof enabled !== 'object' || enabled === null) return [];
      return Object.entries(enabled).some(([id, on]) => id.startsWith('stopgate@') && on === true) ? [`${scope} settings`] : [];
    } catch {
      return [];
    }
  });
}

/** gate installed above (a monorepo root), while Claude Code would be started here; nearest first. */
function ancestorInstalls(projectDir: string, root: string | undefined): Array<{ dir: string; finding: Finding }> {
  const found: Array<{ dir: string; finding: Finding }> = [];
  for (let dir = dirname(projectDir); root !== undefined && relative(root, dir).startsWith('..') === false; dir = dirname(dir)) {
    for (const file of ['settings.json', 'settings.local.json']) {
      const path = join(dir, '.claude', file);
      const text = readIfPresent(path);
      try {
        if (text !== undefined && findGateHooks(text, path).length > 0) {
          found.push({ dir, finding: { level: 'info', message: `${path} has gate hooks, but Claude Code started in ${projectDir} does not read them` } });
        }
      } catch {
        // An unreadable ancestor settings file is not this directory's problem.
      }
    }
    if (dir === root || dirname(dir) === dir) break;
  }
  return found;
}
