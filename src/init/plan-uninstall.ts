import { isAbsolute, posix } from 'node:path';
import { LOCAL_FILE, TEAM_FILE } from '../config/find-config.js';
import { hashText, type InstallRecord } from './install-record.js';
import type { Installer } from '../harness/install/installer.js';
import { listDirs } from './plan-workspace.js';

export interface Removal {
  file: string;
  before: string;
  /** undefined: delete the file. */
  after: string | undefined;
}

/**
 * What uninstall changes. A file still exactly as init left it goes back to its bytes from before
 * init (or away, if init created it); a settings file edited since loses only gate's entries; a
 * config edited since is kept, with a note. In a workspace the packages' hook files and the
 * configs init wrote there are undone the same way (`packageDirs`: the workspace's packages).
 */
export function planUninstall(
  installer: Installer,
  personal: boolean,
  home: string,
  read: (file: string) => string | undefined,
  record: InstallRecord | undefined,
  packageDirs: string[] = [],
): { removals: Removal[]; notes: string[] } {
  const removals: Removal[] = [];
  const notes: string[] = [];
  const recorded = new Map((record?.files ?? []).map((entry) => [entry.file, entry]));
  const untouchedSinceInit = (file: string, text: string) => recorded.get(file)?.writtenHash === hashText(text);
  const restore = (file: string, text: string) => removals.push({ file, before: text, after: recorded.get(file)?.before ?? undefined });
  const inPackages = (file: string) => [...new Set([...packageDirs.map((dir) => posix.join(dir, file)), ...[...recorded.keys()].filter((path) => path.endsWith(`/${file}`))])].sort();

  const settingsFile = installer.file(personal, home);
  for (const file of [settingsFile, ...(isAbsolute(settingsFile) ? [] : inPackages(settingsFile))]) {
    const settings = read(file);
    if (settings === undefined) continue;
    if (untouchedSinceInit(file, settings)) {
      restore(file, settings);
      continue;
    }
    const removed = installer.remove(settings, file);
    const createdByInit = recorded.get(file)?.before === null;
    // A file left with nothing at all (a generated plugin) goes too; an emptied settings file init didn't create stays.
    const nothingLeft = removed.empty && (createdByInit || removed.text.trim() === '');
    if (removed.changed) removals.push({ file, before: settings, after: nothingLeft ? undefined : removed.text });
  }

  const configFile = personal ? LOCAL_FILE : TEAM_FILE;
  const config = read(configFile);
  if (config !== undefined) {
    if (untouchedSinceInit(configFile, config)) restore(configFile, config);
    else if (recorded.has(configFile)) notes.push(`${configFile} was edited since gate init wrote it, so it is kept; delete it yourself if you no longer want it.`);
    else notes.push(`${configFile} was not written by gate init here, so it is kept.`);
  }
  const edited: string[] = [];
  const notOurs: string[] = [];
  for (const file of inPackages(configFile)) {
    const text = read(file);
    if (text === undefined) continue;
    if (untouchedSinceInit(file, text)) restore(file, text);
    else (recorded.has(file) ? edited : notOurs).push(posix.dirname(file));
  }
  if (edited.length > 0) notes.push(`the ${configFile} in ${listDirs(edited)} ${edited.length > 1 ? 'were' : 'was'} edited since gate init wrote ${edited.length > 1 ? 'them' : 'it'}, so ${edited.length > 1 ? 'they are' : 'it is'} kept; delete ${edited.length > 1 ? 'them' : 'it'} yourself if you no longer want ${edited.length > 1 ? 'them' : 'it'}.`);
  if (notOurs.length > 0) notes.push(`the ${configFile} in ${listDirs(notOurs)} ${notOurs.length > 1 ? 'were' : 'was'} not written by gate init here, so ${notOurs.length > 1 ? 'they are' : 'it is'} kept.`);

  const ignore = read('.gitignore');
  if (personal && ignore !== undefined && untouchedSinceInit('.gitignore', ignore)) restore('.gitignore', ignore);
  return { removals, notes };
}
