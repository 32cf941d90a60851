import { readFileSync } from 'node:fs';
import { SetupError, UsageError, exitCodeFor } from './errors.js';
import { isPosix, refusalFor } from './platform.js';

const HELP = `gate — a test gate for the end of a coding agent's turn

Usage:
  gate init [--harness NAME] [--personal] [--yes] [--dry-run]   detect the tools, show the plan, install the hooks
            [--each-package]      at a workspace root: the hooks in every package too
  gate uninstall [--harness NAME] [--personal] [--yes]          remove exactly what init added
  gate doctor [--harness NAME] [--json]  is it installed right, and does a failing stop reach the agent?
  gate run [--harness NAME]         the hook: reads the payload on stdin, allows or refuses the stop
                                    (after an agent's edit: says at once if it weakens a check)
  gate check [--all] [--json] [--sarif FILE] [--junit FILE] [NAME…]  run the gates now (changed files only, unless --all or NAMEs)
  gate status [--json]              what a stop would do now, and why
  gate log [-n N] [--json]          the last N stops the hook decided (default 20)
  gate stats [--json]               what the recorded stops add up to: fast path, cost, blocks, failing gates
  gate verdict [--session ID] [--json]  the last stop of a session (default: the latest): 0 green, 1 let through red, 2 no record
  gate history [--since DATE] [--all-projects] [--json]  of the agents' turns that edited files, how many a passing check followed (read from the transcripts on disk)
  gate filter --filter ID [--budget N]  print what the agent would read for a tool's output on stdin
  gate receipt [--md | --json]      what the last full run of every gate says about this tree: 0 PASS, 1 FAIL, 2 STALE or NONE
  gate ci [--base REF] [--json FILE] [--summary FILE] [--tamper block|warn|off]
          [--sarif FILE] [--junit FILE] [--codequality FILE] [--comment FILE]
                                    every gate in full, and the tamper check since the merge base with REF: 0 green, 1 not
  gate pr-comment FILE [--pr N]     post gate ci's --comment FILE on the pull request, or edit the one posted before
  gate mcp [--dir DIR]              an MCP server over stdio, for agents with no stop hook (docs/mcp.md)
  gate --help | --version           gate COMMAND --help: that command's usage

Environment: GATE=0 turns gate off; GATE_SKIP=name,name skips gates.
Exit codes: 0 passed / allowed, 1 a check failed (or could not start), 2 the hook refused the stop (gate run) or bad usage, 3 invalid config or no config.
Harnesses: claude (default), codex, gemini, copilot, qwen, factory, cursor, opencode, auggie, qoder.
Docs: README.md and docs/ in the package.`;

/** Parses the command word and hands off to the command's module, imported only when used. */
export async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  try {
    // Help spawns nothing: it answers on every platform, before a command is refused there.
    if (command !== undefined && (args.includes('--help') || args.includes('-h'))) {
      const { asksForHelp, commandUsage } = await import('./commands/usage.js');
      const usage = asksForHelp(args) ? commandUsage(command) : undefined;
      if (usage !== undefined) {
        process.stdout.write(`${usage}\n`);
        return;
      }
    }
    const refusal = refusalFor(command, process.platform);
    if (refusal !== undefined) throw new SetupError(refusal);
    switch (command) {
      case 'run': {
        if (!isPosix(process.platform)) {
          const { allowUnchecked } = await import('./hook-on-windows.js');
          process.exitCode = allowUnchecked(args, process.env);
          return;
        }
        const { runHook } = await import('./commands/run.js');
        process.exitCode = await runHook(args, process.env);
        return;
      }
      case 'evidence': {
        // Started by the prompt hook in the background (src/verdict/start-evidence.ts); not in --help.
        const { evidenceCommand } = await import('./commands/evidence.js');
        process.exitCode = await evidenceCommand(args, process.env);
        return;
      }
      case 'ahead': {
        // Started by the post-edit hook in the background (src/commands/ahead.ts); not in --help.
        const { aheadCommand } = await import('./commands/ahead.js');
        process.exitCode = await aheadCommand(args, process.env);
        return;
      }
      case 'check': {
        const { checkCommand } = await import('./commands/check.js');
        process.exitCode = await checkCommand(args, process.env);
        return;
      }
      case 'status':
      case 'explain': {
        const { statusCommand } = await import('./commands/status.js');
        process.exitCode = await statusCommand(args, process.env);
        return;
      }
      case 'log': {
        const { logCommand } = await import('./commands/log.js');
        process.exitCode = logCommand(args);
        return;
      }
      case 'stats': {
        const { statsCommand } = await import('./commands/stats.js');
        process.exitCode = statsCommand(args);
        return;
      }
      case 'verdict': {
        const { verdictCommand } = await import('./commands/verdict.js');
        process.exitCode = verdictCommand(args);
        return;
      }
      case 'history': {
        const { historyCommand } = await import('./commands/history.js');
        process.exitCode = historyCommand(args, process.env);
        return;
      }
      case 'init': {
        const { initCommand } = await import('./commands/init.js');
        process.exitCode = await initCommand(args, process.env);
        return;
      }
      case 'uninstall': {
        const { uninstallCommand } = await import('./commands/uninstall.js');
        process.exitCode = await uninstallCommand(args, process.env);
        return;
      }
      case 'doctor': {
        const { doctorCommand } = await import('./commands/doctor.js');
        process.exitCode = await doctorCommand(args, process.env);
        return;
      }
      case 'filter': {
        const { filterCommand } = await import('./commands/filter.js');
        process.exitCode = filterCommand(args);
        return;
      }
      case 'mcp': {
        const { mcpCommand } = await import('./commands/mcp.js');
        process.exitCode = await mcpCommand(args, process.env);
        return;
      }
      case 'receipt': {
        const { receiptCommand } = await import('./commands/receipt.js');
        process.exitCode = await receiptCommand(args);
        return;
      }
      case 'ci': {
        const { ciCommand } = await import('./commands/ci.js');
        process.exitCode = await ciCommand(args, process.env);
        return;
      }
      case 'pr-comment': {
        const { prCommentCommand } = await import('./commands/pr-comment.js');
        process.exitCode = await prCommentCommand(args, process.env);
        return;
      }
      case '--version':
      case '-v':
        process.stdout.write(`${version()}\n`);
        return;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${HELP}\n`);
        return;
      default:
        throw new UsageError(`unknown command "${command}"; run "gate --help"`);
    }
  } catch (error) {
    process.stderr.write(`gate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = exitCodeFor(error);
  }
}

function version(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest ? String(manifest.version) : 'unknown';
}
