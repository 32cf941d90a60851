import { existsSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { splitCommand } from '../plan/split-command.js';
import type { Finding } from './judge-delivery.js';

export function checkProgram(name: string, run: string | string[], shell: boolean, cwd: string, env: NodeJS.ProcessEnv): Finding {
  if (shell) return { level: 'info', message: `gate "${name}" runs through a shell; its programs are not checked` };
  const program = (typeof run === 'string' ? splitCommand(run) : run)[0] ?? '';
  const found = findProgram(program, cwd, env['PATH'] ?? '');
  return found
    ? { level: 'ok', message: `gate "${name}": ${program} found (${found})` }
    : { level: 'problem', message: `gate "${name}": program "${program}" not found in node_modules/.bin or on PATH; install it, or the gate can never give a verdict` };
}

function findProgram(program: string, cwd: string, path: string): string | undefined {
  if (program.includes('/')) {
    const full = isAbsolute(program) ? program : resolve(cwd, program);
    return existsSync(full) ? full : undefined;
  }
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', program);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  return path.split(delimiter).filter(Boolean).map((dir) => join(dir, program)).find((candidate) => existsSync(candidate));
}
