import { execFile, spawn } from 'node:child_process';
import { decodeBytes } from './path-bytes.js';

export class GitError extends Error {
  override name = 'GitError';
  constructor(
    message: string,
    readonly missing: boolean,
  ) {
    super(message);
  }
}

/** By name: see isStateError. */
export function isGitError(error: unknown): error is GitError {
  return error instanceof Error && error.name === 'GitError';
}

/**
 * The one place that spawns git. Output is read as bytes and decoded by decodeBytes, so a file name
 * that is not UTF-8 survives; callers ask for `-z` forms, where names are never quoted.
 */
export async function execGit(root: string, args: string[], maxBuffer = 256 * 1024 * 1024): Promise<string> {
  return decodeBytes(await execGitBytes(root, args, maxBuffer));
}

/** execGit's output as it came: a blob's bytes, to hash as a file's. */
export function execGitBytes(root: string, args: string[], maxBuffer = 256 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      'git',
      ['-C', root, ...args],
      { encoding: 'buffer', maxBuffer, env: gitEnv(process.env) },
      (error, stdout, stderr) => {
        if (!error) return resolvePromise(stdout);
        const missing = 'code' in error && error.code === 'ENOENT';
        const detail = missing ? 'git was not found on PATH' : stderr.toString('utf8').trim() || error.message;
        reject(new GitError(`git ${subcommand(args)}: ${detail}`, missing));
      },
    );
  });
}

/** What to call the command in an error: its subcommand, after any `-c name=value`. */
function subcommand(args: string[]): string {
  let at = 0;
  while (args[at] === '-c') at += 2;
  return args[at] ?? '';
}

// Locale-independent, never paged, never prompting; GIT_DIR from an outer git hook must not
// redirect us to another repository.
function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { GIT_DIR: _dir, GIT_WORK_TREE: _tree, GIT_INDEX_FILE: _index, ...rest } = env;
  return { ...rest, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
}

/**
 * git with an index of gate's own (GIT_INDEX_FILE), never the user's, and `input` on its stdin: to
 * write a tree of the work tree as it is, or to check a tree out into a folder. With `running`, git
 * runs in a process group of its own whose pid is in the set while it runs: a caller that removes
 * what git writes can stop it first (a checkout outlives a gate that exits mid-way, and writes on).
 */
export function execGitIndexed(root: string, args: string[], indexFile: string, input?: string, running?: Set<number>): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    // spawn, not execFile: execFile passes no `detached` on.
    const child = spawn('git', ['-C', root, ...args], { env: { ...gitEnv(process.env), GIT_INDEX_FILE: indexFile }, detached: running !== undefined });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const pid = child.pid;
    if (pid !== undefined) running?.add(pid);
    const fail = (detail: string, missing: boolean) => reject(new GitError(`git ${subcommand(args)}: ${detail}`, missing));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (pid !== undefined) running?.delete(pid);
      fail(error.code === 'ENOENT' ? 'git was not found on PATH' : error.message, error.code === 'ENOENT');
    });
    child.on('close', (code, signal) => {
      if (pid !== undefined) running?.delete(pid);
      if (code === 0) return resolvePromise(decodeBytes(Buffer.concat(stdout)));
      fail(Buffer.concat(stderr).toString('utf8').trim() || `exited with ${signal ?? code}`, false);
    });
    // git may exit without reading its stdin (a failure, or a command that takes none): EPIPE then is no error of ours.
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}
