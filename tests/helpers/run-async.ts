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
