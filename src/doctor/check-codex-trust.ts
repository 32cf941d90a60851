import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import type { Finding } from './judge-delivery.js';
import { listCodexHooks, type CodexListing, type ListedCodexHook } from './list-codex-hooks.js';

export interface CodexInstall {
  /** As doctor names it: `.codex/hooks.json` or the personal file's path. */
  file: string;
  path: string;
  personal: boolean;
}

/** Whether Codex would run gate's hooks here: the project trusted, each hook approved and unchanged since. */
export async function checkCodexTrust(installs: CodexInstall[], projectDir: string, env: NodeJS.ProcessEnv): Promise<Finding[]> {
  if (installs.length === 0) return [];
  const codex = onPath('codex', env['PATH']);
  if (codex === undefined) return [{ level: 'info', message: "codex is not on PATH, so doctor could not ask it whether gate's hooks are approved" }];
  return judgeCodexTrust(await listCodexHooks(codex, projectDir, env), installs, projectDir);
}

export function judgeCodexTrust(listing: CodexListing, installs: CodexInstall[], projectDir: string): Finding[] {
  if ('error' in listing) return [{ level: 'warning', message: `could not ask Codex whether gate's hooks are approved: ${listing.error}` }];
  return installs.flatMap((install) => {
    const ours = listing.hooks.filter((hook) => samePath(hook.sourcePath, install.path) && /\brun --harness codex\b/.test(hook.command ?? ''));
    if (ours.length === 0) {
      const why = install.personal
        ? `Codex lists none of gate's hooks from it${listing.warnings.length > 0 ? ` (${listing.warnings.join('; ')})` : ''}`
        : `Codex does not load it in ${projectDir}: the project is not trusted. Start codex here and trust the project (Codex reads a project's .codex/ only then)`;
      return [{ level: 'problem', message: `${install.file}: ${why}` }];
    }
    const findings: Finding[] = [];
    const untrusted = ours.filter((hook) => hook.trustStatus === 'untrusted');
    const modified = ours.filter((hook) => hook.trustStatus === 'modified');
    const unknown = ours.filter((hook) => !['trusted', 'managed', 'untrusted', 'modified'].includes(hook.trustStatus));
    if (untrusted.length > 0) {
      findings.push({ level: 'problem', message: `${install.file}: Codex has not approved gate's ${events(untrusted)} yet and does not run ${untrusted.length > 1 ? 'them' : 'it'} (\`codex exec\` skips it without a word): start codex here and approve it under /hooks` });
    }
    if (modified.length > 0) {
      findings.push({ level: 'problem', message: `${install.file}: gate's ${events(modified)} changed since Codex approved it (gate init rewrites the timeout when the gates change), so Codex skips it: approve it again under /hooks` });
    }
    if (unknown.length > 0) findings.push({ level: 'warning', message: `${install.file}: Codex reports gate's ${events(unknown)} as "${unknown[0]?.trustStatus}"` });
    if (findings.length === 0) findings.push({ level: 'ok', message: `${install.file}: Codex has approved gate's ${events(ours)}` });
    return findings;
  });
}

function events(hooks: ListedCodexHook[]): string {
  const names = hooks.map((hook) => hook.eventName);
  return `${names.join(' and ')} hook${names.length > 1 ? 's' : ''}`;
}

function samePath(a: string, b: string): boolean {
  return real(a) === real(b);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function onPath(program: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
