import { execFileSync } from 'node:child_process';
import { homedir } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findConfig } from '../config/find-config.js';
import { loadConfig } from '../config/load-config.js';
import { loadPresets } from '../config/load-presets.js';
import { UsageError } from '../errors.js';
import { findRepo, stateDirOf } from '../git/find-repo.js';
import { applyChanges, readIfPresent } from '../init/apply-changes.js';
import { askYesNo } from '../init/ask.js';
import { detectPresets } from '../init/detect-presets.js';
import { chooseHookBin, findLocalBin, ranThroughNpx } from '../init/hook-command.js';
import { HARNESS_NAMES, isHarnessName, type HarnessName } from '../harness/adapters.js';
import { loadInstaller } from '../harness/install/installers.js';
import { readRecord, recordPath, writeRecord } from '../init/install-record.js';
import { planInstall, type InstallPlan } from '../init/plan-install.js';
import { readRepoFacts } from '../init/repo-facts.js';
import { unifiedDiff } from '../init/unified-diff.js';
import { packageRoot } from '../package-root.js';
import { outsideGitStateDir } from '../state/outside-git-state-dir.js';

/** `gate init`: detect the repo's tools, show the plan, write it (asking first on a terminal). */
export async function initCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const options = parseInitArgs(args);
  const projectDir = process.cwd();
  const repo = findRepo(projectDir);
  const facts = readRepoFacts(projectDir);
  const detection = detectPresets(facts, loadPresets());
  const version = packageVersion();
  const installer = await loadInstaller(options.harness);
  const home = env['HOME'] ?? homedir();
  // A user-level hook runs in every repository: it can't point into this one's node_modules.
  const userLevel = isAbsolute(installer.file(options.personal, home));
  const bin = chooseHookBin({
    projectDir,
    localBin: findLocalBin(projectDir, repo?.root),
    listedInPackageJson: Object.values(facts.packageJson?.dependencies ?? {}).some((names) => names.includes('stopgate')),
    ranThroughNpx: ranThroughNpx(process.argv[1]),
    version,
    userLevel,
    globalOnPath: userLevel && globalGateOnPath(env['PATH'] ?? '', projectDir),
    ownCheckout: !userLevel && resolve(packageRoot()) === resolve(projectDir) && existsSync(join(projectDir, 'src', 'hook-main.ts')),
  });
  const plan = planInstall({
    projectDir,
    home,
    personal: options.personal,
    installer,
    detection,
    bin,
    read: (file) => readIfPresent(resolve(projectDir, file)),
    gatesBudget: (text) => gatesBudget(projectDir, repo?.root, options.personal, text),
    isIgnored: (file) => repo !== undefined && isIgnored(repo.root, join(projectDir, file)),
    schemaRef: bin.bin.mode === 'local' ? './node_modules/stopgate/schema.json' : undefined,
  });

  const out = process.stdout;
  out.write(describePlan(plan, projectDir, repo === undefined));
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
      out.write(`\nNothing was written (no terminal to ask). To apply this plan: npx gate init${flags(options)} --yes\n`);
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
  out.write(nextSteps(plan, projectDir));
  return 0;
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
      },
    });
    if (!isHarnessName(values.harness)) throw new UsageError(`unknown --harness "${values.harness}"; one of ${HARNESS_NAMES.join(', ')}`);
    return { personal: values.personal, yes: values.yes, dryRun: values['dry-run'], harness: values.harness };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate init [--personal] [--yes] [--dry-run]`);
  }
}

function flags(options: { personal: boolean; harness: HarnessName }): string {
  return `${options.harness === 'claude' ? '' : ` --harness ${options.harness}`}${options.personal ? ' --personal' : ''}`;
}

function describePlan(plan: InstallPlan, projectDir: string, outsideGit: boolean): string {
  const lines = [`gate init${flags({ personal: plan.personal, harness: plan.installer.harness })} in ${projectDir}`, ''];
  if (plan.keptConfig) {
    lines.push(`${plan.keptConfig.file} exists and is kept as it is; its gates: ${plan.keptConfig.gates.join(', ') || '(none)'}.`);
  } else if (plan.detection.presets.length > 0) {
    lines.push('Gates, from what this repo uses:');
    for (const chosen of plan.detection.presets) lines.push(`  ${chosen.gateName.padEnd(10)} preset ${chosen.preset}: ${chosen.reasons.join('; ')}`);
  }
  if (plan.detection.packageManager) lines.push(`Package manager: ${plan.detection.packageManager.name} (${plan.detection.packageManager.reason}).`);
  for (const note of [...plan.detection.notes, ...plan.notes]) lines.push(`Note: ${note}`);
  if (outsideGit) lines.push('Note: this is not a git repository; at a stop gate does nothing here unless the config sets "outsideGit": "run".');
  lines.push(`Hook command: ${plan.command}  (${plan.bin.why})`);
  lines.push(`Hook timeout: stop ${plan.hookTimeout} s (the gates' timeouts plus a margin), turn start 30 s.`);
  if (plan.changes.length > 0) {
    lines.push('', 'Changes:');
    for (const change of plan.changes) lines.push(unifiedDiff(change.display, change.before, change.after).trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

function nextSteps(plan: InstallPlan, projectDir: string): string {
  const written = plan.changes.map((change) => change.display).join(', ');
  const steps = [`\nWrote ${written}.`, 'Next:'];
  if (plan.personal) {
    steps.push(`  - These files are yours alone (${plan.userLevel ? 'user level, and gitignored' : 'gitignored'}); the team's files were not touched.`);
  } else {
    steps.push(`  - Commit ${written}: every teammate's agent is then gated.`);
  }
  if (plan.bin.bin.relativePath === 'bin/gate.cjs') steps.push("  - Teammates need `npm ci` and `npm run build`: the hook runs this checkout's dist/.");
  else if (plan.bin.bin.mode === 'local') steps.push('  - Teammates need `npm install` (stopgate is a devDependency) before the hook can run.');
  if (plan.bin.bin.mode === 'global') steps.push('  - Everyone who uses this repo needs `npm i -g stopgate`.');
  if (plan.installer.enableStep) steps.push(`  - ${plan.installer.enableStep}`);
  if (plan.installer.harness === 'claude') steps.push(`  - Start Claude Code in ${projectDir}: it reads hooks only from the directory it was started in (and only at start).`);
  steps.push('  - Run `npx gate check --all` to see the gates pass now, and `npx gate doctor` to verify the install.');
  return `${steps.join('\n')}\n`;
}

/** The worst case the stop hook must wait for: every gate running to its timeout, one after another. */
function gatesBudget(projectDir: string, repoRoot: string | undefined, personal: boolean, text: string | undefined): { seconds: number; maxBlocks: number; subagents: boolean } | undefined {
  const found = findConfig(projectDir, repoRoot);
  const file = personal ? 'local' : 'team';
  const files = found ?? { dir: projectDir, hash: '' };
  const withPlanned = text === undefined ? files : { ...files, dir: found?.dir ?? projectDir, [file]: { path: join(projectDir, personal ? 'gate.local.json' : 'gate.config.json'), text } };
  try {
    const config = loadConfig(withPlanned, projectDir);
    return { seconds: config.gates.reduce((sum, gate) => sum + gate.timeoutSeconds, 0), maxBlocks: config.maxBlocks, subagents: config.subagents };
  } catch {
    return undefined;
  }
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
