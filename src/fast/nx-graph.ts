import type { ResolvedGate } from '../config/load-config.js';
import { withLocalBins } from '../runner/spawn-group.js';
import { runTool, type ToolOutput } from './run-tool.js';
import { normalizeDir, type WorkspaceUnit } from './turbo-nx-owners.js';

export interface NxProject extends WorkspaceUnit {
  /** Names of the projects it depends on (static imports, package.json, implicit), as Nx's graph has them. */
  deps: string[];
}

const MARK = '@@gate-nx-graph@@';

// The project graph from the repository's own Nx, through its public API (what @nx/devkit re-exports):
// `nx graph` and `nx show` also ask git what changed (`git merge-base`, `git diff`), this does not.
// Anything Nx or a plugin prints goes before the mark.
const SCRIPT = `
const { createProjectGraphAsync } = require(require.resolve('nx/src/devkit-exports', { paths: [process.cwd()] }));
createProjectGraphAsync({ exitOnError: false }).then((graph) => {
  const projects = Object.values(graph.nodes).map((node) => ({ name: node.name, dir: node.data.root, deps: (graph.dependencies[node.name] || []).map((dep) => dep.target) }));
  process.stdout.write('\\n${MARK}' + JSON.stringify(projects));
}, (error) => {
  process.stderr.write(String((error && error.message) || error));
  process.exitCode = 1;
});
`;

/** Nx reads these too when the gate's command runs: no daemon left behind, no Nx Cloud. */
export const NX_ENV = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };

export function readNxGraph(gate: ResolvedGate): Promise<ToolOutput> {
  const path = withLocalBins(gate.env['PATH'] ?? process.env['PATH'] ?? '', gate.cwd);
  return runTool(gate, 'node', ['-e', SCRIPT], { ...NX_ENV, PATH: path });
}

export function parseNxGraph(stdout: string): NxProject[] {
  const at = stdout.lastIndexOf(MARK);
  if (at === -1) throw new Error('no project graph in its output');
  const parsed: unknown = JSON.parse(stdout.slice(at + MARK.length));
  if (!Array.isArray(parsed)) throw new Error('the project graph is not a list');
  return parsed.map((project: unknown) => {
    if (!isProject(project)) throw new Error('a project without a name, a root and dependencies');
    return { name: project.name, dir: normalizeDir(project.dir), deps: project.deps };
  });
}

function isProject(value: unknown): value is NxProject {
  if (!isRecord(value)) return false;
  const deps = value['deps'];
  return typeof value['name'] === 'string' && typeof value['dir'] === 'string' && Array.isArray(deps) && deps.every((dep) => typeof dep === 'string');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
