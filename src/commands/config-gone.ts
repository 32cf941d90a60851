import type { ConfigFiles } from '../config/find-config.js';
import { configFilesFromStart } from '../config/start-config.js';
import type { TurnEvent } from '../harness/adapters.js';
import { readSession, writeSession } from '../state/session-state.js';

/**
 * No config where the hook looks, in a session gate has state for. A stop of a turn that started
 * with a config judges the turn by that config (its deletion is then a tamper finding, as an edit
 * is); a turn that starts without one forgets the last turn's, so that gate, once taken out of a
 * project, stays silent.
 */
export function configAtStart(sessionFile: string, event: TurnEvent, root: string, projectDir: string): ConfigFiles | undefined {
  const state = readSession(sessionFile).value;
  const kept = state?.start?.config;
  if (state?.start === undefined || kept === undefined) return undefined;
  if (event === 'turn-start') {
    const { config: _forgotten, ...start } = state.start;
    writeSession(sessionFile, { ...state, start });
    return undefined;
  }
  if (event !== 'stop' && event !== 'subagent-stop') return undefined;
  return configFilesFromStart(kept, root, projectDir);
}
