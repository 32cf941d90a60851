import type { ConfigFiles } from './find-config.js';

/**
 * The `"tamper"` setting as the files say it, read without validating them (the personal file's
 * word wins, as when the config is loaded); `undefined` when unset or unreadable. For the hot
 * paths, which must not load the config schema: a stop's early diff, the post-edit nudge.
 */
export function rawTamperSetting(files: ConfigFiles): unknown {
  let setting: unknown;
  for (const source of [files.team, files.local]) {
    try {
      const value: unknown = source ? JSON.parse(source.text.replace(/^\uFEFF/, '')) : undefined;
      if (typeof value === 'object' && value !== null && 'tamper' in value) setting = value.tamper;
    } catch {
      // Invalid: reported by whoever validates the config.
    }
  }
  return setting;
}
