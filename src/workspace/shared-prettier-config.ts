import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * eslint-plugin-prettier formats with the prettier config found from the file: only an inline object
 * or a JSON file is known to name no other package (`"prettier": "@acme/prettier-config"` does).
 */
export function sharedPrettierConfig(cwd: string, repoRoot: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const name of readdirSafe(dir)) {
      if (!/^(?:\.prettierrc(?:\..+)?|prettier\.config\..+)$/.test(name)) continue;
      if (!((name === '.prettierrc.json' || name === '.prettierrc') && isJson(join(dir, name)))) return show(join(dir, name), repoRoot);
    }
    const manifest = join(dir, 'package.json');
    if (isFile(manifest)) {
      try {
        const setting = (JSON.parse(readFileSync(manifest, 'utf8')) as { prettier?: unknown }).prettier;
        if (setting !== undefined && !isPlainSetting(setting)) return `${show(manifest, repoRoot)}'s "prettier"`;
      } catch {
        return show(manifest, repoRoot);
      }
    }
    if (dir === repoRoot || relative(repoRoot, dir).startsWith('..') || dirname(dir) === dir) return undefined;
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isJson(file: string): boolean {
  try {
    return isPlainSetting(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return false;
  }
}

// Prettier plugins are packages, maybe the workspace's own.
function isPlainSetting(setting: unknown): boolean {
  return typeof setting === 'object' && setting !== null && !('plugins' in setting);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function show(path: string, repoRoot: string): string {
  return relative(repoRoot, path).split('\\').join('/') || '.';
}
