import { LOCAL_FILE, TEAM_FILE } from '../config/find-config.js';
import type { HarnessName } from '../harness/adapters.js';
import type { HookBin } from '../harness/install/installer.js';
import { managerCommands, type PackageManager } from '../package/package-manager.js';
import { describeLaunch, describeWorkspace } from './describe-workspace.js';
import type { InstallPlan } from './plan-install.js';
import { unifiedDiff } from './unified-diff.js';
import type { WorkspaceSetup } from './workspace-setup.js';

export function flags(options: { personal: boolean; harness: HarnessName; eachPackage?: boolean; noCheck?: boolean }): string {
  return `${options.harness === 'claude' ? '' : ` --harness ${options.harness}`}${options.personal ? ' --personal' : ''}${options.eachPackage ? ' --each-package' : ''}${options.noCheck ? ' --no-check' : ''}`;
}

/** What init will do, for the human to read before anything is written. */
export function describePlan(plan: InstallPlan, projectDir: string, outsideGit: boolean, setup: WorkspaceSetup | undefined, enclosing: { root: string; kind: string } | undefined): string {
  const eachPackage = setup !== undefined && setup.commands.size > 0;
  const lines = [`gate init${flags({ personal: plan.personal, harness: plan.installer.harness, eachPackage })} in ${projectDir}`, ''];
  const configFile = plan.personal ? LOCAL_FILE : TEAM_FILE;
  if (plan.keptConfig) {
    lines.push(`${plan.keptConfig.file} exists and is kept as it is; its gates: ${plan.keptConfig.gates.join(', ') || '(none)'}.`);
  }
  if (setup) {
    lines.push(...describeWorkspace(setup, configFile, plan.keptConfig !== undefined || !plan.changes.some((change) => change.display === configFile)));
  } else if (!plan.keptConfig && plan.detection.presets.length > 0) {
    lines.push('Gates, from what this repo uses:');
    for (const chosen of plan.detection.presets) lines.push(`  ${chosen.gateName.padEnd(10)} preset ${chosen.preset}: ${chosen.reasons.join('; ')}`);
  }
  if (plan.detection.packageManager) lines.push(`Package manager: ${plan.detection.packageManager.name} (${plan.detection.packageManager.reason}).`);
  for (const note of [...plan.detection.notes, ...(setup?.notes ?? []), ...plan.notes]) lines.push(`Note: ${note}`);
  if (enclosing) lines.push(`Note: this directory is a package of the ${enclosing.kind} workspace at ${enclosing.root}: run gate init there to gate every package with its own tools.`);
  if (outsideGit) lines.push('Note: this is not a git repository; at a stop gate does nothing here unless the config sets "outsideGit": "run".');
  if (setup && plan.installer.harness === 'claude') lines.push(...describeLaunch(setup, plan.installer.file(plan.personal, '')));
  lines.push(`Hook command: ${plan.command}  (${plan.bin.why})`);
  lines.push(`Hook timeout: stop ${plan.hookTimeout} s (the gates' timeouts${setup ? ', in every config,' : ''} plus a margin), turn start 30 s.`);
  if (plan.changes.length > 0) {
    if (setup) lines.push('', 'Files:', ...plan.changes.map((change) => `  ${change.before === undefined ? 'new    ' : 'changed'} ${change.display}`));
    lines.push('', 'Changes:');
    for (const change of plan.changes) lines.push(unifiedDiff(change.display, change.before, change.after).trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

/** What to do after the files are written. */
export function nextSteps(plan: InstallPlan, projectDir: string, setup: WorkspaceSetup | undefined): string {
  const files = plan.changes.map((change) => change.display);
  const written = files.length > 4 ? `these ${files.length} files (listed above)` : files.join(', ');
  const steps = [`\nWrote ${written}.`, 'Next:'];
  if (plan.personal) {
    steps.push(`  - These files are yours alone (${plan.userLevel ? 'user level, and gitignored' : 'gitignored'}); the team's files were not touched.`);
  } else {
    steps.push(`  - Commit ${written}: every teammate's agent is then gated.`);
  }
  const manager = plan.detection.packageManager?.name ?? 'npm';
  if (plan.bin.bin.relativePath === 'bin/gate.cjs') steps.push("  - Teammates need `npm ci` and `npm run build`: the hook runs this checkout's dist/.");
  else if (plan.bin.bin.mode === 'local') steps.push(`  - Teammates need \`${managerCommands(manager).install}\` (stopgate is a devDependency) before the hook can run.`);
  if (plan.bin.bin.mode === 'global' && plan.bin.bin.program === 'gate') steps.push('  - Everyone who uses this repo needs `npm i -g stopgate`.');
  if (plan.installer.enableStep) steps.push(`  - ${plan.installer.enableStep}`);
  if (plan.installer.harness === 'claude') {
    steps.push(
      setup !== undefined && setup.commands.size > 0
        ? `  - Start Claude Code in ${projectDir} or in any of its packages: each has the hooks (Claude Code reads them only at start).`
        : `  - Start Claude Code in ${projectDir}: it reads hooks only from the directory it was started in (and only at start).`,
    );
  }
  const gate = hookGateCommand(plan.bin.bin, manager);
  steps.push(`  - Run \`${gate} check --all\` to see the gates pass now, and \`${gate} doctor\` to verify the install.`);
  return `${steps.join('\n')}\n`;
}

/** What the user types to run the gate the hook runs: `npx gate` would fetch an unrelated package where stopgate is not a dependency. */
export function hookGateCommand(bin: HookBin, manager: PackageManager): string {
  if (bin.mode === 'local') return bin.relativePath === 'bin/gate.cjs' ? 'node bin/gate.cjs' : `${managerCommands(manager).exec} gate`;
  return (bin.program ?? 'gate').replace(/^npx --yes /, 'npx ');
}
