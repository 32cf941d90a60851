import { dirname, join } from 'node:path';
import { execGit } from '../git/exec-git.js';
import { LOCAL_FILE, TEAM_FILE } from './find-config.js';

/**
 * Every directory of the repository holding a config, tracked or not (a personal gate.local.json is
 * usually ignored): for `gate check --all` and a change that could not be narrowed down.
 * `ignored: false` leaves out ignored files: listing those walks node_modules and the like (seconds
 * on a big checkout).
 */
export async function listConfigDirs(repoRoot: string, { ignored: withIgnored = true } = {}): Promise<string[]> {
  const specs = (name: string) => [`:(glob)${name}`, `:(glob)**/${name}`];
  const [listed, ignored] = await Promise.all([
    execGit(repoRoot, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...specs(TEAM_FILE), ...specs(LOCAL_FILE)]),
    withIgnored ? execGit(repoRoot, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...specs(LOCAL_FILE)]) : '',
  ]);
  // An installed package's own config is not the repository's.
  const files = `${listed}${ignored}`.split('\0').filter((file) => file !== '' && !/(^|\/)node_modules\//.test(file));
  return [...new Set(files.map((file) => join(repoRoot, dirname(file))))].sort();
}
