import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { sessionFileName } from '../hook/session-file-name.js';
import { selectGates, type GateSelection } from '../plan/select-gates.js';
import { buildCommand } from '../runner/build-command.js';
import { gateFileName } from '../runner/gate-file-name.js';
import { readSession, sessionPath } from '../state/session-state.js';
import { readVerdicts, verdictKey, verdictsPath } from '../state/verdict-cache.js';
import { changeSinceBaseline, openProject, openTree } from './open-project.js';

/** `gate status`: what a stop would do now and why. */
export async function statusCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let json: boolean;
  try {
    json = parseArgs({ args, options: { json: { type: 'boolean', default: false } } }).values.json;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate status [--json]`);
  }
  const project = openProject(process.cwd());
  const sessionId = env['CLAUDE_CODE_SESSION_ID'];
  const session = sessionId ? readSession(sessionPath(project.stateDir, sessionFileName(sessionId))).value : undefined;
  const since = await changeSinceBaseline(project, session?.baseline);
  const skip = new Set((env['GATE_SKIP'] ?? '').split(',').filter(Boolean));
  const tree = await openTree(project, since.change);
  const root = project.repo?.root ?? project.config.dir;
  const selections = since.alreadyPassed ? [] : selectGates(tree.gates, since.change, root, tree.scopes, skip, undefined);
  const known = readVerdicts(verdictsPath(project.stateDir));
  const isCached = (selection: (typeof selections)[number]) =>
    since.snapshot !== undefined &&
    selection.run &&
    known.includes(verdictKey(tree.hashes.get(selection.gate.configDir) ?? project.configFiles.hash, selection, since.snapshot, root));
  const sessions = listBlockedSessions(project.stateDir);
  const tiers = await Promise.all(selections.map((selection) => (selection.run && !isCached(selection) ? describeCommand(selection, project.projectDir, project.stateDir) : undefined)));
  const view = {
    projectDir: project.projectDir,
    repository: project.repo?.root ?? null,
    config: [project.configFiles.team?.path, project.configFiles.local?.path].filter(Boolean),
    packageConfigs: [...tree.scopes.keys()].filter((dir) => dir !== project.configFiles.dir).map((dir) => relative(project.projectDir, dir) || '.'),
    workspaces: tree.root.workspaces?.kind ?? null,
    ignoredSettings: tree.ignoredKeys,
    notices: tree.notices,
    gateOff: env['GATE'] === '0',
    baseline: since.baseline,
    alreadyPassed: since.alreadyPassed,
    changedFiles: since.change.paths,
    gates: selections.map((selection, index) => ({
      name: selection.gate.name,
      runs: selection.run && !isCached(selection),
      cached: isCached(selection),
      reason: selection.reason,
      ...tiers[index],
    })),
    blockedSessions: sessions,
    logs: relative(project.projectDir, join(project.stateDir, 'logs')),
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `project:   ${view.projectDir}`,
    `config:    ${view.config.join(', ')}`,
    view.workspaces ? `workspace: ${view.workspaces} (a changed package's dependents run too)` : '',
    view.packageConfigs.length > 0 ? `packages:  ${view.packageConfigs.join(', ')} (their own config covers their files)` : '',
    ...view.ignoredSettings.map((line) => `note:      ${line}`),
    ...view.notices.map((line) => `note:      ${line}`),
    view.gateOff ? 'GATE=0 is set: every stop is allowed unchecked.' : '',
    `baseline:  ${view.baseline}`,
    `changed:   ${view.changedFiles.length === 0 ? 'nothing' : view.changedFiles.slice(0, 20).join(', ') + (view.changedFiles.length > 20 ? ` … (${view.changedFiles.length} in all)` : '')}`,
    since.alreadyPassed ? 'verdict:   this exact tree already passed every gate; a stop would be allowed at once.' : 'gates at the next stop:',
    ...view.gates.flatMap((gate) => [
      `  ${gate.runs ? 'run ' : 'skip'} ${gate.name}: ${gate.cached ? `${gate.reason}, but it passed on exactly this state before (cached)` : gate.reason}`,
      ...(gate.command ? [`       ${gate.fast ? 'fast tier' : 'full run'}: ${gate.tier && gate.tier !== 'the full run' ? `${gate.tier}: ` : ''}${gate.command}`] : []),
    ]),
    `blocks:    ${sessions.length === 0 ? 'no session is blocked' : sessions.map((s) => `${s.session} ${s.blocks}/${project.config.maxBlocks}`).join(', ')}`,
    `logs:      ${view.logs}`,
  ];
  process.stdout.write(`${lines.filter(Boolean).join('\n')}\n`);
  return 0;
}

/** The command the next stop would run for a gate, and which tier it is. */
async function describeCommand(selection: GateSelection, projectDir: string, stateDir: string): Promise<{ command: string; fast: boolean; tier?: string }> {
  const command = await buildCommand(selection.gate, selection.files, { projectDir, cacheDir: join(stateDir, 'cache', gateFileName(selection.gate.name)), full: selection.partial });
  if (command.nothingToRun) return { command: '(nothing to run)', fast: command.fast, ...(command.why ? { tier: command.why } : {}) };
  return { command: command.display, fast: command.fast, ...(command.why ? { tier: command.why } : {}) };
}

function listBlockedSessions(stateDir: string): Array<{ session: string; blocks: number }> {
  let files: string[];
  try {
    files = readdirSync(join(stateDir, 'sessions'));
  } catch {
    return [];
  }
  return files
    .filter((file) => file.endsWith('.json'))
    .map((file) => ({ session: file.slice(0, -5), blocks: readSession(join(stateDir, 'sessions', file)).value?.blocks ?? 0 }))
    .filter((entry) => entry.blocks > 0);
}
