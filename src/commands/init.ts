import { execFileSync } from 'node:child_process';
import { homedir } from 'node:os';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { findConfig, type ConfigFiles } from '../config/find-config.js';
import { listConfigDirs } from '../config/list-config-dirs.js';
import { loadConfig } from '../config/load-config.js';
import { loadPresets } from '../config/load-presets.js';
import { SetupError, UsageError } from '../errors.js';
import { gateCommand, gateHint } from '../package/gate-command.js';
import { findRepo, stateDirOf } from '../git/find-repo.js';
import { applyChanges, readIfPresent } from '../init/apply-changes.js';
import { askYesNo } from '../init/ask.js';
import { describePlan, flags, nextSteps } from '../init/describe-plan.js';
import { detectPresets } from '../init/detect-presets.js';
import { dropEmptySuites } from '../init/drop-empty-suites.js';
import { dropMissingTools } from '../init/drop-missing-tools.js';
import { leaveToGolangci } from '../init/leave-to-golangci.js';
import { configWith, hookBudget, type HookBudget } from '../init/hook-budget.js';
import { chooseHookBin, findLocalBin, ranThroughNpx } from '../init/hook-command.js';
import { ADAPTERS } from '../harness/adapters.js';
import { harnessOption } from '../harness/unsupported-harness.js';
import { checkCommandRuns } from '../doctor/check-command.js';
import { verifyHookBin } from '../init/verify-hook-bin.js';
import { loadInstaller } from '../harness/install/installers.js';
import { readRecord, recordPath, writeRecord } from '../init/install-record.js';
import { findUnignoredEnvironments } from '../init/find-unignored-environments.js';
import { planInstall } from '../init/plan-install.js';
import { enclosingWorkspace, readMembers } from '../init/read-members.js';
import { readRepoFacts } from '../init/repo-facts.js';
import { shareIgnored, stillIgnored } from '../init/share-ignored.js';
import { planWorkspaceSetup, type WorkspaceSetup } from '../init/workspace-setup.js';
import { packageRoot } from '../package/package-root.js';
import { outsideGitStateDir } from '../state/outside-git-state-dir.js';

/** `gate init`: detect the repo's tools, show the plan, write it (asking first on a terminal). */
export async function initCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = parseInitArgs(args);
  const projectDir = process.cwd();
  const repo = findRepo(projectDir);
  const facts = readRepoFacts(projectDir);
  const presets = loadPresets();
  const workspace = await readMembers(projectDir, presets, env);
  const enclosing = workspace ? undefined : enclosingWorkspace(projectDir, repo?.root);
  if (options.eachPackage && !workspace) {
    const where = enclosing ? `run it in ${enclosing.root}, the root of the ${enclosing.kind} workspace this package belongs to` : `${projectDir} is none`;
    throw new UsageError(`--each-package works at a workspace root (package.json "workspaces", pnpm-workspace.yaml, go.work, or a Cargo.toml [workspace]); ${where}`);
  }
  if (options.eachPackage && workspace?.unread !== undefined) throw new SetupError(`--each-package needs the workspace's members, which could not be listed: ${workspace.unread}`);
  const detected = dropEmptySuites(detectPresets(facts, presets, { workspaceRoot: workspace !== undefined }), projectDir, presets);
  const detection = leaveToGolangci(await dropMissingTools(detected, projectDir, facts, presets, env), projectDir);
  const version = packageVersion();
  const installer = await loadInstaller(options.harness);
  const home = env['HOME'] ?? homedir();
  // A user-level hook runs in every repository: it can't point into this one's node_modules.
  const userLevel = isAbsolute(installer.file(options.personal, home));
  const chosen = chooseHookBin({
    projectDir,
    localBin: findLocalBin(projectDir, repo?.root),
    listedInPackageJson: Object.values(facts.packageJson?.dependencies ?? {}).some((names) => names.includes('stopgate')),
    ranThroughNpx: ranThroughNpx(process.argv[1]),
    version,
    userLevel,
    globalOnPath: userLevel && globalGateOnPath(env['PATH'] ?? '', projectDir),
    ownCheckout: !userLevel && resolve(packageRoot()) === resolve(projectDir) && existsSync(join(projectDir, 'src', 'hook-main.ts')),
  });
  // Never a hook that silently does nothing: the command is run from here before it is written.
  const verified = verifyHookBin({
    installer,
    chosen,
    projectDir,
    private: options.personal || userLevel,
    selfPath: selfBinPath(process.argv[1]),
    runs: (command) => checkCommandRuns(command, projectDir, env, ADAPTERS[options.harness]),
    manager: detection.packageManager?.name,
    workspaceRoot: workspace !== undefined,
  });
  const bin = verified.chosen;
  const read = (file: string) => readIfPresent(resolve(projectDir, file));
  const schemaRef = bin.bin.mode === 'local' ? './node_modules/stopgate/schema.json' : undefined;
  const setup = workspace && planWorkspaceSetup({ workspace, projectDir, personal: options.personal, eachPackage: options.eachPackage, presets, detection, installer, bin, schemaRef, read });
  const nested = setup ? await nestedConfigs(projectDir, repo?.root, options.personal, setup) : [];
  const plan = planInstall({
    projectDir,
    home,
    personal: options.personal,
    installer,
    detection,
    bin,
    read,
    gatesBudget: (text) =>
      setup ? hookBudget(configWith(projectDir, options.personal, text), nested, projectDir) : gatesBudget(projectDir, repo?.root, options.personal, text),
    isIgnored: (file) => repo !== undefined && isIgnored(repo.root, join(projectDir, file)),
    unignoredNodeModules: repo !== undefined && existsSync(join(projectDir, 'node_modules', 'stopgate')) && !isIgnored(repo.root, join(projectDir, 'node_modules')),
    unignoredEnvironments: repo === undefined ? [] : findUnignoredEnvironments(projectDir),
    schemaRef,
    ...(setup && { workspace: setup.files }),
  });
  // A team file git ignores would never reach the team.
  if (repo) shareIgnored(plan, projectDir, repo.root, read);

  const out = process.stdout;
  out.write(describePlan(plan, projectDir, repo === undefined, setup, enclosing));
  if (verified.note) out.write(`\n${verified.note}\n`);
  if (plan.changes.length === 0) {
    out.write('\nNothing to change: gate is already installed here.\n');
    return 0;
  }
  if (options.dryRun) {
    out.write('\n--dry-run: nothing was written.\n');
    return 0;
  }
  if (!options.yes) {
    const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true && env['CI'] !== 'true';
    if (!interactive) {
      out.write(`\nNothing was written (no terminal to ask). To apply this plan: ${gateCommand()} init${flags(options)} --yes\n`);
      return 0;
    }
    if (!(await askYesNo('\nWrite these files?'))) {
      out.write('Nothing was written.\n');
      return 0;
    }
  }
  applyChanges(plan.changes);
  const stateDir = repo ? stateDirOf(repo) : outsideGitStateDir(projectDir);
  const record = recordPath(stateDir, options.harness, options.personal);
  writeRecord(
    record,
    readRecord(record),
    plan.changes.map((change) => ({ file: change.display, before: change.before, after: change.after })),
  );
  out.write(nextSteps(plan, projectDir, setup));
  if (repo) out.write(stillIgnored(plan, projectDir, repo.root));
  // A gate red before the agent changes anything refuses every stop for what no turn caused: found now.
  const checked = options.noCheck ? undefined : await checkGatesOnce(projectDir, env, out);
  // What doctor says now, so a problem init could not see (a settings file that disables hooks, a
  // second install) is said at once.
  const { doctorFindings, renderFindings } = await import('./doctor.js');
  out.write(`\ngate doctor:\n${renderFindings(await doctorFindings(options.harness, projectDir, env))}`);
  if (checked !== undefined) out.write(checked);
  return 0;
}

/** Runs the gates just written; what to say last: the red ones with their first failure, or why they could not run. */
async function checkGatesOnce(projectDir: string, env: NodeJS.ProcessEnv, out: NodeJS.WriteStream): Promise<string> {
  const { checkNewGates } = await import('../init/check-new-gates.js');
  const { describeRedGates } = await import('../init/describe-red-gates.js');
  const ran = await checkNewGates(projectDir, env, (text) => out.write(text));
  if ('error' in ran) return `\nThe gates could not be run once on this tree (${ran.error}): run "${gateHint('check --all')}" to see whether one is red before an agent starts.\n`;
  return describeRedGates(ran.results);
}

/** This gate's own bin (bin/gate.cjs) by its real path, when init was started through it. */
function selfBinPath(script: string | undefined): string | undefined {
  if (script === undefined) return undefined;
  try {
    const path = realpathSync(script);
    return path.endsWith(`${sep}bin${sep}gate.cjs`) ? path : undefined;
  } catch {
    return undefined;
  }
}

function parseInitArgs(args: string[]) {
  try {
    const { values } = parseArgs({
      args,
      options: {
        personal: { type: 'boolean', default: false },
        yes: { type: 'boolean', short: 'y', default: false },
        'dry-run': { type: 'boolean', default: false },
        harness: { type: 'string', default: 'claude' },
        'each-package': { type: 'boolean', default: false },
        'no-check': { type: 'boolean', default: false },
      },
    });
    const harness = harnessOption(values.harness);
    if (values['each-package'] && harness !== 'claude') {
      throw new UsageError(`--each-package is for Claude Code, which reads hooks only from the directory it is started in; ${harness} is installed at the root`);
    }
    return { personal: values.personal, yes: values.yes, dryRun: values['dry-run'], harness, eachPackage: values['each-package'], noCheck: values['no-check'] };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate init [--personal] [--each-package] [--yes] [--dry-run] [--no-check]`);
  }
}

/** The worst case the stop hook must wait for: every gate running to its timeout, one after another. */
function gatesBudget(projectDir: string, repoRoot: string | undefined, personal: boolean, text: string | undefined): HookBudget | undefined {
  const found = findConfig(projectDir, repoRoot);
  const file = personal ? 'local' : 'team';
  const files = found ?? { dir: projectDir, hash: '' };
  const withPlanned = text === undefined ? files : { ...files, dir: found?.dir ?? projectDir, [file]: { path: join(projectDir, personal ? 'gate.local.json' : 'gate.config.json'), text } };
  try {
    const config = loadConfig(withPlanned, projectDir);
    return { seconds: config.gates.reduce((sum, gate) => sum + gate.timeoutSeconds, 0), maxBlocks: config.maxBlocks, subagents: config.subagents, gates: config.gates.map((gate) => gate.name) };
  } catch {
    return undefined;
  }
}

/** The configs below the root a stop can involve, as they will be once init writes the packages' configs. */
async function nestedConfigs(projectDir: string, repoRoot: string | undefined, personal: boolean, setup: WorkspaceSetup): Promise<ConfigFiles[]> {
  const planned = new Map(setup.files.configs.map((change) => [dirname(change.path), change.after]));
  const existing = repoRoot === undefined ? [] : await listConfigDirs(repoRoot);
  const dirs = new Set([...existing.filter((dir) => dir !== projectDir && !relative(projectDir, dir).startsWith('..')), ...planned.keys()]);
  return [...dirs].sort().map((dir) => configWith(dir, personal, planned.get(dir)));
}

/** A `gate` on PATH that is not this project's own node_modules/.bin: a global install. */
function globalGateOnPath(path: string, projectDir: string): boolean {
  return path
    .split(delimiter)
    .filter((dir) => dir !== '' && !resolve(projectDir, dir).startsWith(resolve(projectDir, 'node_modules')))
    .some((dir) => existsSync(join(dir, 'gate')));
}

function isIgnored(root: string, path: string): boolean {
  try {
    execFileSync('git', ['-C', root, 'check-ignore', '-q', '--no-index', path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest && typeof manifest.version === 'string' ? manifest.version : '0.0.0';
}
