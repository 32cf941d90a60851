import { spawn, type ChildProcess } from 'node:child_process';
import { delimiter, dirname, join, resolve } from 'node:path';

export interface SpawnGroupOptions {
  cwd: string;
  /** The whole environment (nothing is inherited); its PATH gets the local node_modules/.bin folders in front. */
  env: NodeJS.ProcessEnv;
  /** `program` is a command line for /bin/sh -c. */
  shell: boolean;
  /** stdout and stderr, merged in the order they arrive. */
  onOutput: (chunk: Buffer) => void;
}

export interface GroupExit {
  exitCode: number | undefined;
  signal: NodeJS.Signals | undefined;
  /** Set when the program could not be started at all (ENOENT, EACCES …). */
  errorCode: string | undefined;
  message: string;
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
 * import than the rest of a checked stop.
 */
export function spawnGroup(program: string, args: string[], options: SpawnGroupOptions): SpawnedGroup {
  const env = { ...options.env, PATH: withLocalBins(options.env['PATH'] ?? process.env['PATH'] ?? '', options.cwd) };
  let child: ChildProcess;
  try {
    child = spawn(program, args, { cwd: options.cwd, env, shell: options.shell ? '/bin/sh' : false, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return { child: undefined, exited: Promise.resolve(notStarted([program, ...args].join(' '), error)) };
  }
  child.stdout?.on('data', options.onOutput);
  child.stderr?.on('data', options.onOutput);
  const exited = new Promise<GroupExit>((resolveExit) => {
    child.on('error', (error) => {
      if (child.pid === undefined) resolveExit(notStarted([program, ...args].join(' '), error));
    });
    child.once('close', (code, signal) => {
      resolveExit({ exitCode: code ?? undefined, signal: signal ?? undefined, errorCode: undefined, message: '' });
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
  const bins: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const bin = join(dir, 'node_modules', '.bin');
    if (!parts.includes(bin)) bins.push(bin);
    if (dirname(dir) === dir) break;
  }
  return path === '' || path === delimiter ? `${bins.join(delimiter)}${path}` : [...bins, path].join(delimiter);
}

function notStarted(command: string, error: unknown): GroupExit {
  const errorCode = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: undefined, signal: undefined, errorCode, message: `Command failed${errorCode ? ` with ${errorCode}` : ''}: ${command}\n${message}` };
}
