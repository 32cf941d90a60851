import { dirname, join, relative } from 'node:path';
import type { Preset } from '../config/schema.js';
import { detectWorkspaceKind, readWorkspace, type WorkspaceGraph, type WorkspaceKind } from '../workspace/workspace-graph.js';
import { WorkspaceError } from '../workspace/workspace-error.js';
import { detectPresets } from './detect-presets.js';
import { dropEmptySuites } from './drop-empty-suites.js';
import { dropMissingTools } from './drop-missing-tools.js';
import { leaveToGolangci } from './leave-to-golangci.js';
import type { MemberFacts } from './plan-workspace.js';
import { readRepoFacts } from './repo-facts.js';

export interface Workspace {
  graph: WorkspaceGraph;
  members: MemberFacts[];
  /** Why the packages are not listed, when they could not be read (cargo metadata failed). */
  unread?: string;
}

/** The workspace rooted at `dir`, if it is one, with each package's tools detected in its own directory. */
export async function readMembers(dir: string, presets: Map<string, Preset>, env: NodeJS.ProcessEnv): Promise<Workspace | undefined> {
  const kind = detectWorkspaceKind(dir);
  if (kind === undefined) return undefined;
  if (kind === 'cargo') {
    // A cargo workspace is gated from its root (the presets follow the crate graph): its crates' tools don't matter,
    // and a cargo that can't run here only keeps init from listing them.
    try {
      return { graph: await readWorkspace(dir, kind, { env }), members: [] };
    } catch (error) {
      if (!(error instanceof WorkspaceError)) throw error;
      return { graph: { kind, root: dir, packages: [] }, members: [], unread: error.message };
    }
  }
  const graph = await readWorkspace(dir, kind, { env });
  const members = await Promise.all(
    graph.packages.map(async (pkg) => {
      const facts = readRepoFacts(join(dir, pkg.dir));
      const memberDir = join(dir, pkg.dir);
      const detected = dropEmptySuites(detectPresets(facts, presets, { member: true }), memberDir, presets);
      return { dir: pkg.dir, facts, detection: leaveToGolangci(await dropMissingTools(detected, memberDir, facts, presets, env), memberDir) };
    }),
  );
  return { graph, members };
}

/** The workspace root above `dir` (up to the git root `stopAt`), when `dir` is inside one but not its root. */
export function enclosingWorkspace(dir: string, stopAt: string | undefined): { root: string; kind: WorkspaceKind } | undefined {
  if (stopAt === undefined) return undefined;
  for (let current = dirname(dir); !relative(stopAt, current).startsWith('..'); current = dirname(current)) {
    const kind = detectWorkspaceKind(current);
    if (kind !== undefined) return { root: current, kind };
    if (current === stopAt || dirname(current) === current) break;
  }
  return undefined;
}
