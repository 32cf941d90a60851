import { join, relative, sep } from 'node:path';
import { configHash, LOCAL_FILE, TEAM_FILE, type ConfigFiles, type ConfigText } from './find-config.js';

/**
 * The root config a turn started with, kept in its start state: when the turn deletes it, the
 * turn's stops still run the gates it started with (docs/tamper-guard.md).
 */
export interface StartConfig {
  /** The config's folder relative to the repository root ('' for the root), with `/` separators. */
  dir: string;
  team?: string;
  local?: string;
}

/** A config is a few KiB; a bigger one is not copied into every session's state. */
const MOST_CHARS = 256 * 1024;

export function startConfigOf(files: ConfigFiles, root: string): StartConfig | undefined {
  const keep = (file: ConfigText | undefined) => (file && file.unreadable === undefined && file.text.length <= MOST_CHARS ? file.text : undefined);
  const team = keep(files.team);
  const local = keep(files.local);
  const dir = relative(root, files.dir).split(sep).join('/');
  if ((team === undefined && local === undefined) || dir.startsWith('..')) return undefined;
  return { dir, ...(team === undefined ? {} : { team }), ...(local === undefined ? {} : { local }) };
}

/** The start's config as a stop reads one from disk, when it is where the stop would have looked (at or above `projectDir`). */
export function configFilesFromStart(start: StartConfig, root: string, projectDir: string): ConfigFiles | undefined {
  const dir = join(root, start.dir);
  if (relative(dir, projectDir).startsWith('..')) return undefined;
  const team = start.team === undefined ? undefined : { path: join(dir, TEAM_FILE), text: start.team };
  const local = start.local === undefined ? undefined : { path: join(dir, LOCAL_FILE), text: start.local };
  return { dir, team, local, hash: configHash(team, local) };
}

export function isStartConfig(value: unknown): value is StartConfig {
  if (typeof value !== 'object' || value === null) return false;
  const { dir, team, local } = value as Record<string, unknown>;
  const text = (field: unknown) => field === undefined || typeof field === 'string';
  return typeof dir === 'string' && text(team) && text(local) && (team !== undefined || local !== undefined);
}
