import { gateHint } from '../package/gate-command.js';

/**
 * A task runner's or package manager's own failure to start the work — nothing the change did: the
 * package manager missing from PATH, a version mismatch, a script that is not there. Told apart by the
 * tool's own words, and only where the gate's output names no failing test or finding (see run-gate):
 * then the gate "could not start", which never refuses a stop for the agent to "fix the code".
 */
export interface SetupFault {
  /** What went wrong, in words for the human. */
  what: string;
  /** What to do about it. */
  fix: string;
}

interface Pattern {
  test: RegExp;
  fault: (match: RegExpMatchArray) => SetupFault;
}

const MANAGERS = 'pnpm|yarn|npm|bun|turbo|nx|npx|corepack';

const PATTERNS: Pattern[] = [
  {
    test: /Unable to find package manager binary/,
    fault: () => ({ what: 'turbo could not find the package manager the repository names (packageManager in package.json)', fix: `put it on the PATH the agent gets (corepack enable, or install it), then run "${gateHint('doctor')}"` }),
  },
  {
    test: /We did not find a package manager specified in your root package\.json|Could not (?:resolve|detect) (?:the )?package manager/i,
    fault: () => ({ what: 'turbo could not tell which package manager the repository uses', fix: 'set "packageManager" in the root package.json' }),
  },
  {
    test: /This project is configured to use (\w+)/,
    fault: (match) => ({ what: `the package manager refused to run: the project is configured to use ${match[1]}`, fix: `run the gate's command through ${match[1]} (corepack enable), or fix "packageManager" in package.json` }),
  },
  {
    test: /ERR_PNPM_BAD_PM_VERSION|ERR_PNPM_UNSUPPORTED_ENGINE/,
    fault: () => ({ what: "pnpm's version is not the one the project asks for", fix: 'install the version in package.json\'s "packageManager" (corepack enable)' }),
  },
  {
    test: /ERR_PNPM_NO_SCRIPT|npm (?:ERR!|error) Missing script: "?([\w:.-]+)"?/,
    fault: (match) => ({ what: `the script${match[1] ? ` "${match[1]}"` : ''} the gate runs is not in package.json`, fix: "fix the gate's command in gate.config.json, or add the script" }),
  },
  {
    test: /NX\s+Could not find Nx modules|Cannot find module '(?:nx|@nx\/[\w-]+)(?:\/[^']*)?'/,
    fault: () => ({ what: "nx's own modules are not installed", fix: "install the project's dependencies" }),
  },
  {
    test: new RegExp(`(?:^|\\n)(?:/usr/bin/env: |(?:/bin/)?(?:ba|da)?sh: (?:\\d+: |line \\d+: )?)'?(${MANAGERS})'?: (?:No such file or directory|not found|command not found)`),
    fault: (match) => ({ what: `${match[1]} is not on the PATH the gate runs with`, fix: `install ${match[1]} or put it on the PATH the agent gets, then run "${gateHint('doctor')}"` }),
  },
];

/** A runner that could not start ends on its fault: words earlier in a long run are a test's own. */
const TAIL_LINES = 20;

export function findSetupFault(output: string): SetupFault | undefined {
  const tail = output.trimEnd().split('\n').filter((line) => line.trim() !== '').slice(-TAIL_LINES).join('\n');
  for (const pattern of PATTERNS) {
    const match = tail.match(pattern.test);
    if (match) return pattern.fault(match);
  }
  return undefined;
}
