import { messages } from '../messages.js';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sessionFileName } from '../state/session-file-name.js';
import { filesToRun, selectGates, type GateSelection } from '../plan/select-gates.js';
import { leaveToPackages } from '../plan/leave-to-packages.js';
import { skipUnchangedCode } from '../plan/skip-unchanged-code.js';
import { narrowBarrelAdditions } from '../plan/barrel-additions.js';
import { buildCommand } from '../runner/build-command.js';
import { envCacheFile } from '../runner/ask-env-manager.js';
import { gateFileName } from '../runner/gate-file-name.js';
import { locateProgram, type ProgramUsed } from '../runner/locate-program.js';
import { describeRunningStop, readRunningStops } from '../state/running-stop.js';
import { readSession, sessionPath } from '../state/session-state.js';
import { readVerdicts, verdictKey, verdictsPath } from '../state/verdict-cache.js';
import { describeContentPass, reuseContentPasses, type ContentPass } from '../state/content-results.js';
import { skipDependentLint } from '../workspace/skip-dependent-lint.js';
import { changeSinceBaseline, openTree, type Project } from './open-project.js';

export type StatusView = Awaited<ReturnType<typeof statusView>>;

/** What a stop would do now and why, as data: what `gate status --json` prints. */
export async function statusView(project: Project, env: NodeJS.ProcessEnv) {
  const sessionId = env['CLAUDE_CODE_SESSION_ID'];
  const session = sessionId ? readSession(sessionPath(project.stateDir, sessionFileName(sessionId))).value : undefined;
  const since = await changeSinceBaseline(project, session?.baseline, session?.start);
  const skip = new Set((env['GATE_SKIP'] ?? '').split(',').filter(Boolean));
  const tree = await openTree(project, since.change);
  const root = project.repo?.root ?? project.config.dir;
  const selected = since.alreadyPassed ? [] : leaveToPackages(skipDependentLint(selectGates(tree.gates, since.change, root, tree.scopes, skip, undefined), tree, root));
  const base = { root, base: since.base, start: session?.start, env, projectDir: project.projectDir };
  const selections = await narrowBarrelAdditions(await skipUnchangedCode(selected, base), base);
  const known = readVerdicts(verdictsPath(project.stateDir));
  const isCached = (selection: (typeof selections)[number]) =>
    since.snapshot !== undefined &&
    selection.run &&
    known.includes(verdictKey(tree.hashes.get(selection.gate.configDir) ?? project.configFiles.hash, selection, since.snapshot, root));
  const reuse = since.snapshot ? reuseContentPasses(project.stateDir, selections, tree, project.configFiles.hash, since.snapshot, root) : undefined;
  const reusedPass = (selection: (typeof selections)[number]) => reuse?.passes.get(selection.gate.name);
  const sessions = listBlockedSessions(project.stateDir);
  const tiers = await Promise.all(selections.map((selection) => (selection.run && !isCached(selection) && !reusedPass(selection) ? describeCommand(selection, project.projectDir, project.stateDir, env) : undefined)));
  return {
    projectDir: project.projectDir,
    repository: project.repo?.root ?? null,
    config: [project.configFiles.team?.path, project.configFiles.local?.path].filter(Boolean),
    packageConfigs: [...tree.scopes.keys()].filter((dir) => dir !== project.configFiles.dir).map((dir) => relative(project.projectDir, dir) || '.'),
    workspaces: tree.root.workspaces?.kind ?? null,
    ignoredSettings: tree.ignoredKeys,
    notices: tree.uncovered.length > 0 ? [...tree.notices, messages.uncoveredPackages(tree.uncovered).replace(/^gate: /, '')] : tree.notices,
    gateOff: env['GATE'] === '0',
    baseline: since.baseline,
    alreadyPassed: since.alreadyPassed,
    changedFiles: since.change.paths,
    gates: selections.map((selection, index) => ({
      name: selection.gate.name,
      runs: selection.run && !isCached(selection) && !reusedPass(selection),
      cached: isCached(selection),
      reason: contentNote(selection.reason, reusedPass(selection)),
      ...tiers[index],
    })),
    blockedSessions: sessions,
    // A stop running its gates right now, in this repository: which gates, for how long.
    runningStops: readRunningStops(project.stateDir).map((stop) => ({ ...stop, summary: describeRunningStop(stop, Date.now()) })),
    logs: relative(project.projectDir, join(project.stateDir, 'logs')),
  };
}

/** The command the next stop would run for a gate, which tier it is, and the program it starts (from where). */
async function describeCommand(selection: GateSelection, projectDir: string, stateDir: string, env: NodeJS.ProcessEnv): Promise<{ command: string; fast: boolean; tier?: string; program?: Pick<ProgramUsed, 'name' | 'path' | 'from'> }> {
  const { files, full } = filesToRun(selection);
  const command = await buildCommand(selection.gate, files, { projectDir, cacheDir: join(stateDir, 'cache', gateFileName(selection.gate.name)), full, ...(selection.leaveOut ? { leaveOut: selection.leaveOut } : {}) });
  if (command.nothingToRun) return { command: '(nothing to run)', fast: command.fast, ...(command.why ? { tier: command.why } : {}) };
  const program = await locateProgram(selection.gate, command, { ...env, ...selection.gate.env }, projectDir, envCacheFile(join(stateDir, 'cache')));
  return { command: command.display, fast: command.fast, ...(command.why ? { tier: command.why } : {}), ...(program ? { program: { name: program.name, path: program.path, from: program.from } } : {}) };
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

function contentNote(reason: string, pass: ContentPass | undefined): string {
  return pass ? `${reason}, but it ${describeContentPass(pass)}` : reason;
}
