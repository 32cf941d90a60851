import { messages } from './messages.js';

/**
 * gate runs every gate in a process group of its own (a `detached` spawn, killed on timeout with
 * `process.kill(-pid)`) and runs hook commands through /bin/sh, as the harnesses do: POSIX only.
 * On Windows those calls would misbehave rather than fail, so gate says so first (docs/windows.md).
 */
export function isPosix(platform: NodeJS.Platform): boolean {
  return platform !== 'win32';
}

/**
 * The commands that run gates or hook commands, write a hook that would only ever allow, or
 * describe a stop that would not happen that way. uninstall, log, stats and filter still run.
 */
const NEEDS_POSIX: ReadonlySet<string> = new Set(['init', 'check', 'status', 'explain', 'doctor', 'mcp', 'ci']);

/** Why `gate <command>` refuses to run on this platform; undefined when it runs. */
export function refusalFor(command: string | undefined, platform: NodeJS.Platform): string | undefined {
  if (isPosix(platform) || command === undefined || !NEEDS_POSIX.has(command)) return undefined;
  return messages.unsupportedCommand(command);
}
