/** What `gate COMMAND --help` (or `-h`) prints: the command's usage, what it does, its exit codes. */
const USAGE: Record<string, string> = {
  init: `usage: gate init [--harness NAME] [--personal] [--each-package] [--yes] [--dry-run] [--no-check]

Detect the repository's tools, show the plan (which presets, why; which files change, as a diff), and
write gate.config.json and the harness's Stop hook. A second run changes nothing.
  --harness NAME    claude (default), codex, gemini, copilot, qwen, factory, cursor, opencode, auggie, qoder
  --personal        the hook in the harness's personal settings, never committed
  --each-package    at a workspace root: the hooks in every package too
  --yes             write without asking
  --dry-run         show the plan, write nothing
  --no-check        do not run the new gates once after writing
Docs: docs/getting-started.md`,
  uninstall: `usage: gate uninstall [--harness NAME] [--personal] [--yes]

Remove exactly what gate init added, nothing else.
Docs: docs/getting-started.md`,
  doctor: `usage: gate doctor [--harness NAME] [--json]

Is gate installed right: the hook entries and where they are, the command resolves, the config is
valid, every gate's program is found, the hook's timeout covers the gates, a failing stop reaches the agent.
Docs: docs/getting-started.md`,
  run: `usage: gate run [--harness NAME]

The Stop hook: reads the harness's payload on stdin, runs the gates the change triggers, and allows
or refuses the stop in the harness's protocol. Not for a person to run.
Docs: docs/stop-contract.md`,
  check: `usage: gate check [--all] [--json] [--sarif FILE] [--junit FILE] [--codequality FILE] [NAME…]

Run the gates now, for a person: those the change since the baseline triggers, every gate with --all,
or the gates named (each in full).
  --all               every gate, whatever changed (and a receipt: docs/receipts-and-ci.md)
  --json              the results as JSON on stdout
  --sarif FILE        the failures as SARIF 2.1.0 (code scanning)
  --junit FILE        the results as JUnit XML (CI test reports)
  --codequality FILE  the failures as a GitLab Code Quality report
Exit: 0 every gate passed, 1 a gate failed or could not start, 2 bad usage, 3 no config or an invalid one.
Docs: docs/receipts-and-ci.md`,
  status: `usage: gate status [--json]

What a stop would do now, and why: the changed files, the gates they trigger, cached verdicts, this
session's block count, where the logs are. Also: gate explain.`,
  log: `usage: gate log [-n N] [--json]

The last N stops the hook decided (default 20).
Docs: docs/log-and-stats.md`,
  stats: `usage: gate stats [--json]

What the recorded stops add up to: the fast path, the cost, the blocks, the gates that fail most.
Docs: docs/log-and-stats.md`,
  verdict: `usage: gate verdict [--session ID] [--json]

The last stop of a session (default: the latest), for a pipeline that ran an agent.
Exit: 0 green, 1 let through red or unchecked, 2 no record or bad usage.
Docs: docs/ci-verdict.md`,
  history: `usage: gate history [--since DATE] [--all-projects] [--json]

Of the agents' turns that edited files, how many a passing check followed (read from the transcripts on disk).
Docs: docs/history.md`,
  filter: `usage: gate filter --filter ID [--budget N]

Read a tool's output on stdin and print what the agent would read of it.
Docs: docs/presets.md`,
  receipt: `usage: gate receipt [--md | --json]

What the last full run of every gate says about this tree.
Exit: 0 PASS, 1 FAIL, 2 STALE or NONE (or bad usage), 3 no config or an invalid one.
Docs: docs/receipts-and-ci.md`,
  ci: `usage: gate ci [--base REF] [--json FILE] [--summary FILE] [--tamper block|warn|off]
               [--sarif FILE] [--junit FILE] [--codequality FILE] [--comment FILE]

Every gate in full, and the tamper check over the change since the merge base with REF.
  --base REF          branch, tag or commit to compare with (needs the history)
  --tamper MODE       block (default), warn or off
  --summary FILE      a Markdown summary (default: $GITHUB_STEP_SUMMARY)
  --json FILE         the result as JSON
  --sarif FILE        the failures and tamper findings as SARIF 2.1.0 (code scanning)
  --junit FILE        the results as JUnit XML
  --codequality FILE  the failures and tamper findings as a GitLab Code Quality report
  --comment FILE      the pull request's comment, for gate pr-comment
Under GitHub Actions (GITHUB_ACTIONS=true) the change's own failures are also printed as annotations.
Exit: 0 green, 1 a gate failed, timed out or could not start, or the tamper check blocks,
2 bad usage, 3 no config, an invalid one, not a git checkout, --base not found, a file not written.
Docs: docs/receipts-and-ci.md`,
  'pr-comment': `usage: gate pr-comment FILE [--pr N]

Post FILE (written by gate ci --comment) as the pull request's gate comment, or edit the one an earlier
run posted (found by its hidden marker). Reads GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL, and the
pull request from --pr or the event (GITHUB_EVENT_PATH); not a pull request: nothing to do, exit 0.
Exit: 0 done or nothing to do, 2 bad usage, 3 no token, GitHub refused, FILE unreadable.
Docs: docs/receipts-and-ci.md`,
  mcp: `usage: gate mcp [--dir DIR]

An MCP server over stdio: the check as a tool, for agents with no stop hook.
Docs: docs/mcp.md`,
};
USAGE['explain'] = USAGE['status'] ?? '';

/** The help of a command, or undefined for a word that is none. */
export function commandUsage(command: string): string | undefined {
  return USAGE[command];
}

/** `--help` or `-h` among a command's arguments, before any `--` that ends the options. */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}
