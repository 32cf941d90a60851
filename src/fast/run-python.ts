import { spawn } from 'node:child_process';

/**
 * The project's Python run on `args` with `input` on its stdin: what it printed, or undefined when it
 * could not start, exited non-zero or ran past `timeoutMs` (then it is killed).
 */
export function runPython(python: string, args: string[], input: string, cwd: string, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    let stdout = '';
    const child = spawn(python, args, { cwd, stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? stdout : undefined);
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
