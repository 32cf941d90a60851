import { spawn, type ChildProcess } from 'node:child_process';
import { delimiter, dirname, join, resolve } from 'node:path';
import { findProgram } from './find-program.js';
import { watchdogArgs, watchdogProgram } from './watchdog.js';

/** How long the output may stay open once the command has exited: only what it left running holds it then. */
export const DRAIN_GRACE_MS = 1000;

export interface SpawnGroupOptions {
  cwd: string;
  /** The whole environment (nothing is inherited); its PATH gets the local node_modules/.bin folders in front. */
  env: NodeJS.ProcessEnv;
  /** `program` is a command line for /bin/sh -c. */
  shell: boolean;
  /** stdout and stderr, merged in the order they arrive. */
  onOutput: (chunk: Buffer) => void;
  /**
   * A deadline enforced by `timeout` (src/runner/watchdog.ts), which outlives gate: the group gets
   * SIGTERM at `seconds` and SIGKILL `graceSeconds` later. Left out where there is no `timeout`.
   */
  watchdog?: { seconds: number; graceSeconds: number };
}

export interface GroupExit {
  exitCode: number | undefined;
  signal: NodeJS.Signals | undefined;
  /** Set when the program could not be started at all (ENOENT, EACCES …). */
  errorCode: string | undefined;
  message: string;
  /** The output was still open DRAIN_GRACE_MS after the command exited (something it left running holds it) and was closed. */
  outputHeld: boolean;
}

export interface SpawnedGroup {
  /** Undefined when nothing started. */
  child: ChildProcess | undefined;
  /** Settles once the process has exited and both output pipes are closed; never rejects. */
  exited: Promise<GroupExit>;
}

/**
 * Starts a command as the leader of a process group of its own (detached: setsid), so that a
 * timeout can signal everything it started. node:child_process directly: execa costs more to
 * import than the rest of a checked stop. Settles on the command's exit status: once it has exited,
 * its output gets DRAIN_GRACE_MS to close, then is closed — a child that left the group
 * (setsid, a detached spawn) and kept the output open does not hold the verdict up.
 */
export function spawnGroup(program: string, args: string[], options: SpawnGroupOptions): SpawnedGroup {
  const env = { ...options.env, PATH: withLocalBins(options.env['PATH'] ?? process.env['PATH'] ?? '', options.cwd) };
  const command = [program, ...args].join(' ');
  if (!options.shell) {
    // Asked first: under `timeout` a missing program is an exit 127, like one that ran and exited 127.
    const lookup = findProgram(program, options.cwd, env.PATH);
    if ('missing' in lookup) return { child: undefined, exited: Promise.resolve(notStarted(command, Object.assign(new Error(`spawn ${program} ${lookup.missing}`), { code: lookup.missing }))) };
  }
  const argv = options.shell ? ['/bin/sh', '-c', program] : [program, ...args];
  const timeout = options.watchdog === undefined ? undefined : watchdogProgram();
  const [file = program, ...rest] = timeout && options.watchdog ? [timeout, ...watchdogArgs(options.watchdog.seconds, options.watchdog.graceSeconds), ...argv] : argv;
  let child: ChildProcess;
  try {
    child = spawn(file, rest, { cwd: options.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return { child: undefined, exited: Promise.resolve(notStarted(command, error)) };
  }
  child.stdout?.on('data', options.onOutput);
  child.stderr?.on('data', options.onOutput);
  let outputHeld = false;
  child.once('exit', () => {
    const drain = setTimeout(() => {
      outputHeld = true;
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, DRAIN_GRACE_MS);
    child.once('close', () => clearTimeout(drain));
  });
  const exited = new Promise<GroupExit>((resolveExit) => {
    child.on('error', (error) => {
      if (child.pid === undefined) resolveExit(notStarted(command, error));
    });
    child.once('close', (code, signal) => {
      resolveExit({ exitCode: code ?? undefined, signal: signal ?? undefined, errorCode: undefined, message: '', outputHeld });
    });
  });
  return { child: child.pid === undefined ? undefined : child, exited };
}

/**
 * node_modules/.bin of `cwd` and of each folder above it, nearest first, in front of PATH (those
 * already on it are not repeated): what `npx` and npm scripts see.
 */
export function withLocalBins(path: string, cwd: string): string {
  const parts = path.split(delimiter);
  const bins = localBins(cwd).filter((bin) => !parts.includes(bin));
  return path === '' || path === delimiter ? `${bins.join(delimiter)}${path}` : [...bins, path].join(delimiter);
}

/** node_modules/.bin of `cwd` and of each folder above it, nearest first. */
export function localBins(cwd: string): string[] {
  const bins: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    bins.push(join(dir, 'node_modules', '.bin'));
    if (dirname(dir) === dir) return bins;
  }
}

function notStarted(command: string, error: unknown): GroupExit {
  const errorCode = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: undefined, signal: undefined, errorCode, message: `Command failed${errorCode ? ` with ${errorCode}` : ''}: ${command}\n${message}`, outputHeld: false };
}
