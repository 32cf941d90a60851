import { spawn } from 'node:child_process';
import { decodeBytes } from './path-bytes.js';

export class GitError extends Error {
  override name = 'GitError';
  constructor(
    message: string,
    readonly missing: boolean,
    /** Killed at the stop's time limit: the command (`git status`) and how long it had run, in seconds. */
    readonly timedOut?: { command: string; seconds: number },
  ) {
    super(message);
  }
}

/** By name: see isStateError. */
export function isGitError(error: unknown): error is GitError {
  return error instanceof Error && error.name === 'GitError';
}

/**
 * When gate's git calls must have ended (epoch ms). A git call can hang on what the repository runs
 * inside it (a `core.fsmonitor` hook, a clean filter): past `at` it is killed with its process
 * group. `later`, asked once by the first call still running at `at`, may move the limit on: the
 * hook sets an early `at` that only a slow git reaches, and learns the real one then, so that a
 * stop whose git is quick never pays for knowing it.
 */
export interface GitLimit {
  at: number;
  later?: () => Promise<number | undefined>;
}

interface GitClock {
  limit: GitLimit | undefined;
  extending: Promise<void> | undefined;
  spentMs: number;
}

declare global {
  // One per process: the hook's two bundles (dist/hook.cjs, dist/hook-gates.cjs) each hold a copy of this module.
  var stopgateGitClock: GitClock | undefined;
}

globalThis.stopgateGitClock ??= { limit: undefined, extending: undefined, spentMs: 0 };
const clock: GitClock = globalThis.stopgateGitClock;

/** Sets (or, with undefined, lifts) the limit of every git call from now on, and of those running. */
export function limitGit(next: GitLimit | undefined): void {
  clock.limit = next;
  clock.extending = undefined;
}

/** How long this process's git calls have taken, ended ones summed: what a stop says its git cost. */
export function gitSpentMs(): number {
  return clock.spentMs;
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
  return spawnGit(root, args, { env: gitEnv(process.env), maxBuffer });
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
 * write a tree of the work tree as it is, or to check a tree out into a folder. With `running`, its
 * pid is in the set while it runs: a caller that removes what git writes can stop it first (a
 * checkout outlives a gate that exits mid-way, and writes on).
 */
export async function execGitIndexed(root: string, args: string[], indexFile: string, input?: string, running?: Set<number>): Promise<string> {
  return decodeBytes(await spawnGit(root, args, { env: { ...gitEnv(process.env), GIT_INDEX_FILE: indexFile }, input: input ?? '', running }));
}

interface SpawnOptions {
  env: NodeJS.ProcessEnv;
  maxBuffer?: number;
  input?: string;
  running?: Set<number> | undefined;
}

// git's groups still running: a gate that exits or is killed (a harness signals the hook's process
// group at its timeout, which git's own group escapes) takes them with it rather than leave a hung
// fsmonitor hook behind.
const liveGroups = new Set<number>();
let handlersInstalled = false;

function killLiveGroups(): void {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

function trackGitGroup(pid: number): void {
  liveGroups.add(pid);
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killLiveGroups);
  for (const [signal, number] of [['SIGTERM', 15], ['SIGINT', 2], ['SIGHUP', 1]] as const) {
    process.on(signal, () => {
      killLiveGroups();
      // After the signal's other handlers (a stop's record of the kill, the gates' groups), which may exit first.
      process.nextTick(() => process.exit(128 + number));
    });
  }
}

/**
 * Every git call: in a process group of its own (spawn, not execFile, which passes no `detached`
 * on), so that at the limit git and whatever it started — a hook, a filter holding our stderr — are
 * killed together, and the call rejects at once rather than waiting for pipes a grandchild holds.
 */
function spawnGit(root: string, args: string[], options: SpawnOptions): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const started = Date.now();
    const child = spawn('git', ['-C', root, ...args], { env: options.env, detached: true });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let size = 0;
    let settled = false;
    const pid = child.pid;
    if (pid !== undefined) trackGitGroup(pid);
    const finish = (error: GitError | undefined) => {
      if (settled) return;
      settled = true;
      clock.spentMs += Date.now() - started;
      stopWatching();
      if (pid !== undefined) {
        options.running?.delete(pid);
        liveGroups.delete(pid);
      }
      if (error) reject(error);
      else resolvePromise(Buffer.concat(stdout));
    };
    const fail = (detail: string, missing: boolean, timedOut?: GitError['timedOut']) => finish(new GitError(`git ${subcommand(args)}: ${detail}`, missing, timedOut));
    const killGroup = () => {
      try {
        if (pid !== undefined) process.kill(-pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const stopWatching = watchLimit(() => {
      killGroup();
      child.stdout.destroy();
      child.stderr.destroy();
      const seconds = Math.round((Date.now() - started) / 1000);
      fail(`killed after ${seconds} s, at the stop's time limit`, false, { command: `git ${subcommand(args)}`, seconds });
    });
    if (pid !== undefined) options.running?.add(pid);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (options.maxBuffer !== undefined && size > options.maxBuffer) {
        killGroup();
        return fail('stdout maxBuffer length exceeded', false);
      }
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? 'git was not found on PATH' : error.message, error.code === 'ENOENT'));
    child.on('close', (code, signal) => {
      if (code === 0) return finish(undefined);
      fail(Buffer.concat(stderr).toString('utf8').trim() || `exited with ${signal ?? code}`, false);
    });
    // git may exit without reading its stdin (a failure, or a command that takes none): EPIPE then is no error of ours.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** Calls `expire` once the limit has passed (moved on first by its `later`, if any); returns the function that stops watching. */
function watchLimit(expire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const check = async (): Promise<void> => {
    const current = clock.limit;
    if (stopped || current === undefined) return;
    if (Date.now() >= current.at && current.later) {
      const ask = current.later;
      current.later = undefined;
      clock.extending = ask().then(
        (at) => {
          if (at !== undefined && at > current.at) current.at = at;
        },
        () => {},
      );
    }
    const waiting = clock.extending;
    if (Date.now() >= current.at && waiting) {
      await waiting;
      if (clock.extending === waiting) clock.extending = undefined;
      return check();
    }
    if (Date.now() < current.at) {
      timer = setTimeout(() => void check(), current.at - Date.now());
      return;
    }
    stopped = true;
    expire();
  };
  if (clock.limit !== undefined) timer = setTimeout(() => void check(), Math.max(0, clock.limit.at - Date.now()));
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
