import { rmdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { gateCommand } from '../package/gate-command.js';
import { harnessOption } from '../harness/unsupported-harness.js';
import { loadInstaller } from '../harness/install/installers.js';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { findRepo, stateDirOf } from '../git/find-repo.js';
import { applyChanges, readIfPresent } from '../init/apply-changes.js';
import { askYesNo } from '../init/ask.js';
import { readRecord, recordPath } from '../init/install-record.js';
import { planUninstall } from '../init/plan-uninstall.js';
import { unifiedDiff } from '../init/unified-diff.js';
import { outsideGitStateDir } from '../state/outside-git-state-dir.js';

/** `gate uninstall`: remove exactly what init added, nothing else. */
export async function uninstallCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args,
      options: { personal: { type: 'boolean', default: false }, yes: { type: 'boolean', short: 'y', default: false }, harness: { type: 'string', default: 'claude' } },
    }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate uninstall [--personal] [--yes]`);
  }
  const harness = harnessOption(values.harness);
  const installer = await loadInstaller(harness);
  const projectDir = process.cwd();
  const repo = findRepo(projectDir);
  const home = env['HOME'] ?? homedir();
  const record = recordPath(repo ? stateDirOf(repo) : outsideGitStateDir(projectDir), harness, values.personal);
  const packageDirs = await workspacePackageDirs(projectDir, env);
  const plan = planUninstall(installer, values.personal, home, (file) => readIfPresent(resolve(projectDir, file)), readRecord(record), packageDirs);
  const out = process.stdout;
  for (const note of plan.notes) out.write(`Note: ${note}\n`);
  if (plan.removals.length === 0) {
    out.write(`gate is not installed in ${installer.file(values.personal, home)} here; nothing to remove.\n`);
    return 0;
  }
  for (const removal of plan.removals) out.write(unifiedDiff(removal.file, removal.before, removal.after));
  if (!values.yes) {
    const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true && env['CI'] !== 'true';
    if (!interactive) {
      const harnessFlag = harness === 'claude' ? '' : ` --harness ${harness}`;
      out.write(`\nNothing was changed (no terminal to ask). To apply: ${gateCommand()} uninstall${harnessFlag}${values.personal ? ' --personal' : ''} --yes\n`);
      return 0;
    }
    if (!(await askYesNo('\nApply these changes?'))) return 0;
  }
  applyChanges(plan.removals.map((removal) => ({ path: resolve(projectDir, removal.file), display: removal.file, before: removal.before, after: removal.after })));
  rmSync(record, { force: true });
  for (const removal of plan.removals) if (removal.after === undefined) pruneEmptyDirs(dirname(resolve(projectDir, removal.file)), projectDir);
  const files = plan.removals.map((removal) => removal.file);
  out.write(`Removed gate from ${files.length > 4 ? `these ${files.length} files (shown above)` : files.join(', ')}.\n`);
  return 0;
}

/** The workspace's packages, whose hook files `init --each-package` may have written; none when this is no workspace root. */
async function workspacePackageDirs(projectDir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const { detectWorkspaceKind, readWorkspace } = await import('../workspace/workspace-graph.js');
  const kind = detectWorkspaceKind(projectDir);
  if (kind === undefined) return [];
  try {
    return (await readWorkspace(projectDir, kind, { env })).packages.map((pkg) => pkg.dir);
  } catch {
    // What init recorded is still undone; an unreadable workspace only hides packages init did not record.
    return [];
  }
}

/** The folders a deleted file leaves empty (`.claude/` that init made), up to the project directory. */
function pruneEmptyDirs(dir: string, projectDir: string): void {
  for (let current = dir; current !== projectDir && !relative(projectDir, current).startsWith('..'); current = dirname(current)) {
    try {
      rmdirSync(current);
    } catch {
      return; // Not empty (or not ours to remove): stop here.
    }
  }
}
