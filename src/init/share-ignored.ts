import { isAbsolute, resolve } from 'node:path';
import { findIgnored, type IgnoredFile } from './find-ignored.js';
import { appendIgnoreBlock } from './gitignore-lines.js';
import type { InstallPlan } from './plan-install.js';

/** The files of a team install that the team commits: not a personal one's, not one outside the repo. */
export function teamFiles(plan: InstallPlan): string[] {
  if (plan.personal) return [];
  return plan.changes.map((change) => change.display).filter((file) => !isAbsolute(file) && !file.endsWith('.gitignore'));
}

/**
 * A team file git ignores never reaches the team (`git add -A` leaves it out): the plan gets the
 * .gitignore lines that bring it back, shown in its diff and written on the same yes, and says
 * `git add -f` for those who would rather keep .gitignore as it is.
 */
export function shareIgnored(plan: InstallPlan, projectDir: string, repoRoot: string, read: (file: string) => string | undefined): void {
  const ignored = findIgnored(projectDir, repoRoot, teamFiles(plan));
  if (ignored === undefined || ignored.length === 0) return;
  for (const [ignoreFile, files] of groupBy(ignored, (file) => file.ignoreFile)) {
    const planned = plan.changes.find((change) => change.display === ignoreFile);
    const lines = files.flatMap((file) => file.lines).filter((line, index, all) => all.indexOf(line) === index);
    if (planned) planned.after = appendIgnoreBlock(planned.after, lines);
    else {
      const before = read(ignoreFile);
      plan.changes.push({ path: resolve(projectDir, ignoreFile), display: ignoreFile, before, after: appendIgnoreBlock(before, lines) });
    }
    for (const file of files) plan.notes.push(`${describeIgnored(file)}: \`git add -A\` would leave it out, and no teammate would get it. ${ignoreFile} gets the lines that bring it back (${file.lines.join(', ')}); or leave ${ignoreFile} as it is and commit it with \`git add -f ${file.file}\`.`);
  }
}

/** After writing: a team file git still ignores (a rule init could not override), with the command that commits it. */
export function stillIgnored(plan: InstallPlan, projectDir: string, repoRoot: string): string {
  const ignored = findIgnored(projectDir, repoRoot, teamFiles(plan)) ?? [];
  return ignored.map((file) => `  - ${describeIgnored(file)}: commit it with \`git add -f ${file.file}\`, or no teammate gets it.\n`).join('');
}

export function describeIgnored(file: IgnoredFile): string {
  return `git ignores ${file.file} (${file.where}: ${file.pattern})`;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
