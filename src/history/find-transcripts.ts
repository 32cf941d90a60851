import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from './transcript-events.js';

export interface TranscriptFile {
  harness: Harness;
  path: string;
  /** The project the harness filed it under, when the folder says (Gemini CLI, Qwen Code). */
  project: string | undefined;
}

export interface FindOptions {
  /** Only transcripts that may belong to this directory or one below it; all when undefined. */
  root: string | undefined;
  /** Skip files last written before this time (ms). */
  since: number | undefined;
}

type Env = Record<string, string | undefined>;

/**
 * Every transcript file on disk, where each CLI writes them (read from their code, see
 * docs/history.md): Claude Code `$CLAUDE_CONFIG_DIR` (~/.claude) `/projects/<cwd, non-alphanumerics
 * as ->/*.jsonl`; Codex `$CODEX_HOME` (~/.codex) `/sessions/YYYY/MM/DD/rollout-*.jsonl`; Gemini CLI
 * `$GEMINI_CLI_HOME` (~) `/.gemini/tmp/<project>/chats/session-*.json[l]`; Qwen Code
 * `$QWEN_RUNTIME_DIR`, `$QWEN_HOME` (~/.qwen) `/projects/<cwd as for Claude>/chats/*.jsonl`. With a
 * root, folders named for another project are not opened.
 */
export function findTranscripts(env: Env, home: string, options: FindOptions): TranscriptFile[] {
  const escaped = options.root === undefined ? undefined : escapePath(options.root);
  const mine = (name: string) => escaped === undefined || name === escaped || name.startsWith(`${escaped}-`);
  const files: TranscriptFile[] = [];
  const claude = join(env['CLAUDE_CONFIG_DIR'] || join(home, '.claude'), 'projects');
  for (const dir of list(claude).filter(mine)) {
    for (const name of list(join(claude, dir)).filter((file) => file.endsWith('.jsonl'))) files.push({ harness: 'claude', path: join(claude, dir, name), project: undefined });
  }
  const codex = join(env['CODEX_HOME'] || join(home, '.codex'), 'sessions');
  for (const path of walk(codex, 3)) if (/\/rollout-[^/]*\.jsonl$/.test(path)) files.push({ harness: 'codex', path, project: undefined });
  const gemini = join(env['GEMINI_CLI_HOME'] || home, '.gemini', 'tmp');
  for (const dir of list(gemini)) {
    const project = geminiProject(join(gemini, dir)) ?? (options.root !== undefined && dir === sha256(options.root) ? options.root : undefined);
    if (options.root !== undefined && (project === undefined || !isWithin(project, options.root))) continue;
    for (const name of list(join(gemini, dir, 'chats')).filter((file) => /^session-.*\.jsonl?$/.test(file))) files.push({ harness: 'gemini', path: join(gemini, dir, 'chats', name), project });
  }
  const qwen = join(env['QWEN_RUNTIME_DIR'] || env['QWEN_HOME'] || join(home, '.qwen'), 'projects');
  for (const dir of list(qwen).filter(mine)) {
    for (const name of list(join(qwen, dir, 'chats')).filter((file) => file.endsWith('.jsonl') && !file.endsWith('.ledger.jsonl'))) files.push({ harness: 'qwen', path: join(qwen, dir, 'chats', name), project: undefined });
  }
  return options.since === undefined ? files : files.filter((file) => modifiedMs(file.path) >= (options.since ?? 0));
}

/** How Claude Code and Qwen Code name a project's folder. */
export function escapePath(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, '-');
}

export function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** Gemini CLI records the project's path in `.project_root` beside `chats/` (0.61); older versions name the folder by its sha256. */
function geminiProject(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, '.project_root'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function walk(dir: string, depth: number): string[] {
  if (depth === 0) return list(dir).map((name) => join(dir, name));
  return list(dir).flatMap((name) => walk(join(dir, name), depth - 1));
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function modifiedMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
