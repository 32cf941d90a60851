import { loadConfigTree, type ConfigTree } from '../config/config-tree.js';
import { findRootConfig, LOCAL_FILE, TEAM_FILE, type ConfigFiles } from '../config/find-config.js';
import { listConfigDirs } from '../config/list-config-dirs.js';
import { loadConfig, type ResolvedConfig } from '../config/load-config.js';
import { SetupError } from '../errors.js';
import { gateHint } from '../package/gate-command.js';
import { findRepo, stateDirOf, type Repo } from '../git/find-repo.js';
import type { ChangeSet } from '../plan/select-gates.js';
import { committedPaths } from '../snapshot/committed-paths.js';
import { changedPaths, headSnapshot, type Snapshot } from '../snapshot/snapshot.js';
import { takeSnapshot } from '../snapshot/take-snapshot.js';
import { outsideGitStateDir } from '../state/outside-git-state-dir.js';
import { passedPath, readPassed } from '../state/session-state.js';
import type { StartState } from '../start/start-state.js';

export interface Project {
  projectDir: string;
  repo: Repo | undefined;
  configFiles: ConfigFiles;
  config: ResolvedConfig;
  stateDir: string;
}

/** For the human commands: the project around `projectDir`, with its config loaded (or a clear error). */
export function openProject(projectDir: string): Project {
  const repo = findRepo(projectDir);
  const configFiles = findRootConfig(projectDir, repo?.root);
  if (!configFiles) {
    throw new SetupError(`no ${TEAM_FILE} or ${LOCAL_FILE} found from ${projectDir} up to ${repo?.root ?? 'here'}; run "${gateHint('init')}" to create one`);
  }
  const config = loadConfig(configFiles, projectDir);
  const stateDir = repo ? stateDirOf(repo) : outsideGitStateDir(configFiles.dir);
  return { projectDir, repo, configFiles, config, stateDir };
}

/** The configs a change involves (see loadConfigTree), for the human commands. */
export async function openTree(project: Project, change: ChangeSet): Promise<ConfigTree> {
  const repoRoot = project.repo?.root ?? project.configFiles.dir;
  return loadConfigTree({
    repoRoot,
    rootFiles: project.configFiles,
    change,
    load: async (files) => (files.dir === project.configFiles.dir ? project.config : loadConfig(files, project.projectDir)),
    ...(project.repo ? { listConfigDirs: () => listConfigDirs(repoRoot) } : {}),
  });
}

export interface ChangeSinceBaseline {
  snapshot: Snapshot | undefined;
  change: ChangeSet;
  /** In words: what the change is measured against. */
  baseline: string;
  /** The state the change is measured from. */
  base?: Snapshot;
  alreadyPassed: boolean;
}

/** What changed since the last state that passed, or since HEAD: the human's view of "the change". */
export async function changeSinceBaseline(project: Project, sessionBaseline?: Snapshot, start?: StartState): Promise<ChangeSinceBaseline> {
  if (!project.repo) return { snapshot: undefined, change: { paths: [], all: true }, baseline: 'none (not a git repository)', alreadyPassed: false };
  const { snapshot } = await takeSnapshot(project.repo);
  const passed = readPassed(passedPath(project.stateDir)).value;
  const alreadyPassed = passed?.snapshot.digest === snapshot.digest && passed.configHash === project.configFiles.hash;
  const base = sessionBaseline ?? passed?.snapshot ?? headSnapshot(snapshot.head);
  const baseline = sessionBaseline ? "the session's turn start" : passed ? 'the last tree that passed' : 'HEAD';
  const committed = base.head === snapshot.head ? [] : await committedPaths(project.repo, base.head, snapshot.head);
  const change: ChangeSet = changedPaths(base, snapshot, committed);
  if (change.paths.some((path) => path === 'package.json' || path.endsWith('/package.json'))) {
    const { readManifestKeys } = await import('../plan/read-manifest-keys.js');
    change.manifestKeys = await readManifestKeys(project.repo.root, base, sessionBaseline ? start : undefined, change.paths);
  }
  return { snapshot, change, baseline, base, alreadyPassed };
}
