import { readdirSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/**
 * The pytest-testmon package installed next to the pytest on PATH (the one the gate would run), or
 * undefined. Only installed counts: `--testmon` without it is a usage error.
 */
export function findTestmon(env: NodeJS.ProcessEnv): string | undefined {
  if (env['PYTEST_DISABLE_PLUGIN_AUTOLOAD']) return undefined;
  const pytest = (env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'pytest')).find(isFile);
  if (!pytest) return undefined;
  const prefix = dirname(dirname(realpathSync(pytest)));
  let versions: string[];
  try {
    versions = readdirSync(join(prefix, 'lib')).filter((name) => name.startsWith('python'));
  } catch {
    return undefined;
  }
  const candidates = versions.flatMap((version) => ['site-packages', 'dist-packages'].map((folder) => join(prefix, 'lib', version, folder, 'testmon')));
  return candidates.find((dir) => isFile(join(dir, '__init__.py')));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
