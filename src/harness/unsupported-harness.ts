import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { packageRoot } from '../package/package-root.js';
import { HARNESS_NAMES, isHarnessName, type HarnessName } from './adapters.js';

/** Harnesses that have a page in docs/ but no install: why gate cannot gate each, in a line or two (the page says more). */
const UNSUPPORTED: Record<string, string> = {
  amp: 'Amp could continue a turn from a plugin, but nothing here can run Amp or read its code, so gate ships no Amp install until it can be tested.',
  cline: "Cline CLI has no hook that can refuse the end of a task (its TaskComplete hook cannot even show you a report), so gate can't gate it.",
  devin: "Devin CLI reads Claude Code's hooks from .claude/: run `gate init` without --harness (untested: from Devin's documentation only).",
  goose: "goose's documentation does not say what it does with a Stop hook's answer, and goose could not be installed here to find out, so gate ships no goose install.",
  junie: 'Junie CLI has no hook at the end of a turn (its only event is SessionStart, which cannot block), so gate cannot gate it.',
  openhands: 'OpenHands could not be installed here (a Python package on an index these machines do not reach), so nothing was read or run and gate ships no install: a hook written blind could fail open unseen.',
};

const INSTEAD = 'Until then: `gate mcp` (docs/mcp.md) where it takes MCP servers, or `gate check` when the agent says it is done.';

/** `--harness NAME` as a harness gate installs for; a usage error that says why otherwise, and where to read more. */
export function harnessOption(name: string): HarnessName {
  if (isHarnessName(name)) return name;
  const why = UNSUPPORTED[name.toLowerCase()];
  if (why === undefined) throw new UsageError(`unknown --harness "${name}"; one of ${HARNESS_NAMES.join(', ')}`);
  const page = `docs/harness-${name.toLowerCase()}.md`;
  const shipped = join(packageRoot(), page);
  const where = existsSync(shipped) ? `${page} (${shipped})` : page;
  const instead = name.toLowerCase() === 'devin' ? '' : ` ${INSTEAD}`;
  throw new UsageError(`--harness ${name} is not supported: ${why}${instead} See ${where}.`);
}
