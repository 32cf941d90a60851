import { fastHash } from '../hash/fast-hash.js';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const TEAM_FILE = 'gate.config.json';
export const LOCAL_FILE = 'gate.local.json';

export interface ConfigFiles {
  /** The directory holding the config: gates run here unless they say otherwise. */
  dir: string;
  team?: ConfigText;
  local?: ConfigText;
  /** Changes whenever either file's bytes change; part of what "already passed" means. */
  hash: string;
}

export interface ConfigText {
  path: string;
  text: string;
  /** It is there but cannot be read (a directory, no permission): said as a config problem, never as "no config". */
  unreadable?: string;
}

/**
 * The nearest directory from `start` up to `stopAt` (the git root) holding either config file.
 * Outside git only `start` itself is looked at, so a stray config in a home directory never applies.
 */
export function findConfig(start: string, stopAt: string | undefined): ConfigFiles | undefined {
  return configsUpwards(start, stopAt).next().value;
}

/**
 * The root config of a stop: the topmost directory from `start` up to `stopAt` holding a config.
 * In a monorepo launched in a package it is the repository's config, whose stop-wide settings
 * (maxBlocks, budget, tamper, workspaces …) count; the package's own config still owns its files.
 */
export function findRootConfig(start: string, stopAt: string | undefined): ConfigFiles | undefined {
  let top: ConfigFiles | undefined;
  for (const found of configsUpwards(start, stopAt)) top = found;
  return top;
}

/** The config files in exactly `dir`, if any. */
export function readConfigAt(dir: string): ConfigFiles | undefined {
  const team = readIfPresent(join(dir, TEAM_FILE));
  const local = readIfPresent(join(dir, LOCAL_FILE));
  if (!team && !local) return undefined;
  return { dir, team, local, hash: configHash(team, local) };
}

/** The `hash` of a config made of these files (as read from disk, or kept from the turn's start). */
export function configHash(team: ConfigText | undefined, local: ConfigText | undefined): string {
  return fastHash(`${team?.unreadable ?? team?.text ?? ''}\0${local?.unreadable ?? local?.text ?? ''}`);
}

function* configsUpwards(start: string, stopAt: string | undefined): Generator<ConfigFiles, undefined> {
  let dir = resolve(start);
  const top = stopAt === undefined ? dir : resolve(stopAt);
  if (relative(top, dir).startsWith('..')) dir = top;
  for (;;) {
    const found = readConfigAt(dir);
    if (found) yield found;
    if (dir === top) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function readIfPresent(path: string): ConfigText | undefined {
  try {
    return { path, text: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { path, text: '', unreadable: code === 'EISDIR' ? 'it is a directory, not a file' : error instanceof Error ? error.message : String(error) };
  }
}
