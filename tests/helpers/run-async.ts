import { spawn } from 'node:child_process';

export interface AsyncResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
}

/** Spawns and collects output as bytes; `onSpawn` gets the child (to signal it half-way). */
export function runAsync(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; input?: string | Buffer },
  onSpawn?: (pid: number) => void,
): Promise<AsyncResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolveRun({ code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }));
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    if (child.pid !== undefined) onSpawn?.(child.pid);
  });
}

/**
 * A `gate run` stop (GATE_BIN, `payload` on stdin) sent `signal` once `ready()` holds — polled, with
 * a bound (30 s), so a broken stop fails its test instead of hanging it. `sent`: the signal went.
 */
export async function stopSignalledWhen(
  gateBin: string,
  options: { cwd: string; env: Record<string, string>; input: string },
  ready: () => boolean,
  signal: NodeJS.Signals,
): Promise<AsyncResult & { sent: boolean }> {
  let sent = false;
  const result = await runAsync(process.execPath, [gateBin, 'run'], options, (pid) => {
    void (async () => {
      for (let attempt = 0; attempt < 600 && !ready(); attempt++) await new Promise((wait) => setTimeout(wait, 50));
      sent = process.kill(pid, signal);
    })();
  });
  return { ...result, sent };
}
