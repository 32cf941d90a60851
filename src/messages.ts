import { gateHint } from './package/gate-command.js';

/** Every sentence gate says to a human from the hook, in one place. */
export const messages = {
  blocked: (red: string[], block: number, maxBlocks: number) =>
    `gate: refused the stop (block ${block} of ${maxBlocks}): ${red.length > 0 ? `${red.join(', ')} failed` : 'the change weakens tests or checks'}; the agent has the report.`,
  /** Auggie 0.36.0 runs the Stop hook and drops its block (docs/harness-auggie.md): the human gets the report too. */
  blockMayBeDropped: (toHuman: string, report: string) =>
    `${toHuman}\ngate: Auggie 0.36.0 ends the turn even so (it ignores a Stop hook's block), so the agent may not read this report; hand it over, or run "${gateHint('check')}":\n${report}`,
  escape: (blocks: number, red: string[]) =>
    `gate: let the turn end after ${blocks} blocked stops in a row; still failing: ${red.join(', ')}. Run "${gateHint('check')}" to see the failures.`,
  askedLetThrough: (why: 'plan' | 'question', red: string[], stops: number, maxBlocks: number) =>
    `gate: ${why === 'plan' ? 'the agent is in plan mode' : 'the agent ended its turn with a question to you'}, so the stop was let through; ${red.length > 0 ? `still failing: ${red.join(', ')}` : 'the change weakens tests or checks'}. Run "${gateHint('check')}" to see the failures.${
      stops > 1 ? ` It has stopped to ask on ${stops} stops in a row while these stayed red${why === 'question' && stops >= maxBlocks ? `; its next question is gated as usual (maxBlocks ${maxBlocks})` : ''}.` : ''
    }`,
  askedGated: (stops: number, red: string[]) =>
    `gate: the agent asked again after ${stops} questions in a row while ${red.join(', ')} stayed red, so this stop was gated as usual.`,
  unchangedSinceBlock: (red: string[]) =>
    `gate: the agent stopped again without changing anything since it was blocked; let the turn end. Still failing: ${red.join(', ')}.`,
  tampering: (lines: string[]) => `gate: the change skips, deletes or weakens tests or checks:\n${lines.join('\n')}`,
  /** Facts about a stop's gates, said with whatever it decided: `allowed` only when nothing else says the decision. */
  preExisting: (gates: string[], allowed: boolean) =>
    `gate: ${gates.join(', ')} still failing, but only with failures from before this turn${allowed ? '; the stop was allowed.' : ' (not blocking).'}`,
  flaky: (parts: string[], allowed: boolean) => `gate: flaky — ${parts.join('; ')}.${allowed ? ' The stop was allowed.' : ''}`,
  noVerdict: (parts: string[], allowed: boolean) => `gate: no verdict from ${parts.join('; ')}${allowed ? '; the stop was allowed.' : '.'}`,
  /** The first line of the report kept for the human when a stop is let through red: nothing was refused. */
  letThroughHeader: (red: string[], gateCount: number) =>
    red.length > 0 ? `gate: ${red.length} of ${gateCount} checks failed (${red.join(', ')}) at this stop, which was let through.` : 'gate: this stop was let through.',
  transientRerun: (gate: string, files: string[], status: string) =>
    `gate: ${gate} failed only in ${files.length === 1 ? 'a file' : 'files'} that appeared or vanished while the gates ran (${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}: another gate's, likely), so it ran again alone: ${status === 'passed' ? 'it passed' : status}.`,
  transientLeftOut: (ids: string[]) =>
    `Left out: ${ids.length} ${ids.length === 1 ? 'finding' : 'findings'} in files that appeared or vanished while the gates ran (another gate's, likely): ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}.`,
  loadFlakyLeftOut: (ids: string[]) =>
    `Left out: ${ids.length} ${ids.length === 1 ? 'failure' : 'failures'} that passed when run again alone (flaky under the load of the gates beside it): ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}.`,
  /** After a gate that timed out and counts as a failure (`onTimeout: "once"`): what the agent can do about it. */
  timedOutOnce: (seconds: number, finishedBefore: boolean) =>
    `It did not finish within its timeout of ${seconds} s${finishedBefore ? ' (it did at its previous run)' : ''}: the change may make a test hang or loop — find it and fix it. If nothing hangs, stop again without changing anything, and the turn ends.`,
  leftRunning: (gate: string, processes: string) => `gate: ${gate} left running: ${processes}, killed (they kept its output open after it exited).`,
  configInvalid: (detail: string) =>
    `gate: the config is invalid, so nothing was checked and the stop was allowed.\n${detail}\nFix it, then run "${gateHint('check')}".`,
  crashed: (detail: string) =>
    `gate: an internal error let the stop through unchecked: ${detail}. Run "${gateHint('doctor')}"; please report it if it persists.`,
  gitFailed: (detail: string) => `gate: could not read the repository state (${detail}); the stop was allowed unchecked.`,
  gitTimedOut: (command: string, seconds: number, atStop: boolean) =>
    `gate: "${command}" did not finish within ${seconds} s and was killed before the hook's timeout, so ${atStop ? 'the stop was allowed unchecked' : "the turn's start was not recorded"}. ` +
    'Something git runs inside it hangs or is slow: a core.fsmonitor hook ("git config core.fsmonitor") or a clean filter of a path in .gitattributes ("git config --get-regexp \'^filter\\.\'"). ' +
    `Time "${command}" in the repository, then fix or unset what hangs ("git config --unset core.fsmonitor").`,
  badPayload: () => 'gate: the hook received no valid JSON payload, so nothing was checked.',
  unknownHarness: (name: string) => `gate: unknown --harness "${name}" in the hook command; nothing was checked. Known: claude, codex, gemini, copilot, qwen, factory, cursor, opencode, auggie, qoder.`,
  untrackedFlood: (count: number, folder: string | undefined) =>
    `gate: ${count} untracked files are not ignored${folder ? ` (most under ${folder}/)` : ''}; every stop has to look at them. Add ${folder ? `${folder}/` : 'them'} to .gitignore if it is build output.`,
  uncoveredPackages: (dirs: string[]) => {
    const one = dirs.length === 1;
    const listed = one ? dirs[0] : `${dirs.slice(0, 3).join(', ')}${dirs.length > 3 ? ` and ${dirs.length - 3} more` : ''}`;
    return `gate: ${listed} ${one ? 'has no gate config of its' : 'have no gate config of their'} own, so only the root config's gates looked at ${one ? 'it' : 'them'}: ${one ? 'its' : 'their'} own tests and checks did not run. Run "${gateHint('init')}" at the repository root again to add ${one ? 'one' : 'them'} (existing configs are kept), or add a gate.config.json with "gates": [] where a package needs none.`;
  },
  configGone: (file: string) =>
    `gate: ${file} was there when this turn started and is gone now; this stop ran the gates the turn started with. Put it back, or take gate out of the project with "${gateHint('uninstall')}" (the next turn without a config is not gated).`,
  stateReset: (file: string) => `gate: its state file ${file} was unreadable and has been reset.`,
  unsupportedPlatform: () => 'gate: Windows is not supported yet (see docs/windows.md); the stop was allowed unchecked.',
  unsupportedCommand: (command: string) =>
    `"gate ${command}" does not run on Windows yet: gate runs its gates in process groups and hook commands through /bin/sh, which need Linux or macOS (WSL counts). See docs/windows.md.`,
  outsideGitSkipped: (dir: string) =>
    `gate: ${dir} is not in a git repository, so gate cannot tell what changed and checks no stop here ("outsideGit": "skip"; "run" runs every gate at every stop). Said once per session; each stop is in the stop log.`,
  outsideGitNoProject: (dir: string) =>
    `gate: this stop was not checked: its directory (${dir}) is not in a git repository, has no gate.config.json, and the harness named no project directory (CLAUDE_PROJECT_DIR or GATE_PROJECT_DIR). Said once per session; each stop is in the stop log.`,
  stateUnwritable: (detail: string) => `gate: ${detail}; the stop was allowed unchecked (a block it cannot count could trap the agent). Fix the folder or run "${gateHint('doctor')}".`,
} as const;
