import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The files a session's agent edited through its edit tools (the post-edit hook), one path a line. */
function editsPath(stateDir: string, session: string): string {
  return join(stateDir, 'sessions', `${session}.edits`);
}

/** Appended, not rewritten: two edits' hooks at once each keep their line. */
export function recordEdit(stateDir: string, session: string, path: string): void {
  const file = editsPath(stateDir, session);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  appendFileSync(file, `${path.replace(/[\r\n]/g, ' ')}\n`);
}

/** Undefined when the session recorded no edit (no post-edit hook, or none yet): then nothing can be said. */
export function readEdits(stateDir: string, session: string): Set<string> | undefined {
  try {
    return new Set(readFileSync(editsPath(stateDir, session), 'utf8').split('\n').filter(Boolean));
  } catch {
    return undefined;
  }
}
