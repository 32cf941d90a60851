import { LOCAL_FILE, TEAM_FILE } from '../config/find-config.js';
import { hashText, type InstallRecord } from './install-record.js';
import type { Installer } from '../harness/install/installer.js';

export interface Removal {
  file: string;
  before: string;
  /** undefined: delete the file. */
  after: string | undefined;
}

/**
 * What uninstall changes. A file still exactly as init left it goes back to its bytes from before
 * init (or away, if init created it); a settings file edited since loses only gate's entries; a
 * config edited since is kept, with a note.
 */
export function planUninstall(
  installer: Installer,
  personal: boolean,
  home: string,
  read: (file: string) => string | undefined,
  record: InstallRecord | undefined,
): { removals: Removal[]; notes: string[] } {
  const removals: Removal[] = [];
  const notes: string[] = [];
  const recorded = new Map((record?.files ?? []).map((entry) => [entry.file, entry]));
  const untouchedSinceInit = (file: string, text: string) => recorded.get(file)?.writtenHash === hashText(text);
  const restore = (file: string, text: string) => removals.push({ file, before: text, after: recorded.get(file)?.before ?? undefined });

  const settingsFile = installer.file(personal, home);
  const settings = read(settingsFile);
  if (settings !== undefined) {
    if (untouchedSinceInit(settingsFile, settings)) restore(settingsFile, settings);
    else {
      const removed = installer.remove(settings, settingsFile);
      const createdByInit = recorded.get(settingsFile)?.before === null;
      // A file left with nothing at all (a generated plugin) goes too; an emptied settings file init didn't create stays.
      const nothingLeft = removed.empty && (createdByInit || removed.text.trim() === '');
      if (removed.changed) removals.push({ file: settingsFile, before: settings, after: nothingLeft ? undefined : removed.text });
    }
  }

  const configFile = personal ? LOCAL_FILE : TEAM_FILE;
  const config = read(configFile);
  if (config !== undefined) {
    if (untouchedSinceInit(configFile, config)) restore(configFile, config);
    else if (recorded.has(configFile)) notes.push(`${configFile} was edited since gate init wrote it, so it is kept; delete it yourself if you no longer want it.`);
    else notes.push(`${configFile} was not written by gate init here, so it is kept.`);
  }

  const ignore = read('.gitignore');
  if (personal && ignore !== undefined && untouchedSinceInit('.gitignore', ignore)) restore('.gitignore', ignore);
  return { removals, notes };
}
