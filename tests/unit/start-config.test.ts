import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configAtStart } from '../../src/commands/config-gone.js';
import { readConfigAt, type ConfigFiles } from '../../src/config/find-config.js';
import { configFilesFromStart, isStartConfig, startConfigOf, type StartConfig } from '../../src/config/start-config.js';
import { readSession, writeSession } from '../../src/state/session-state.js';
import { fingerprintEnvironment } from '../../src/start/environment.js';

const ROOT = '/repo';
const TEAM = '{ "gates": [{ "name": "test", "run": "npm test" }] }\n';
const files = (dir: string, team?: string, local?: string): ConfigFiles => ({
  dir,
  team: team === undefined ? undefined : { path: join(dir, 'gate.config.json'), text: team },
  local: local === undefined ? undefined : { path: join(dir, 'gate.local.json'), text: local },
  hash: 'unused',
});

describe('the config a turn started with (issue 38, point 1)', () => {
  it('is kept with its folder, and read back as the stop reads one from disk, with the same hash', () => {
    const kept = startConfigOf(files(join(ROOT, 'app'), TEAM, '{}'), ROOT);
    expect(kept).toEqual({ dir: 'app', team: TEAM, local: '{}' });
    expect(kept && isStartConfig(kept)).toBe(true);
    const back = kept && configFilesFromStart(kept, ROOT, join(ROOT, 'app', 'src'));
    expect(back).toMatchObject({ dir: join(ROOT, 'app'), team: { path: join(ROOT, 'app', 'gate.config.json'), text: TEAM }, local: { text: '{}' } });
  });

  it('hashes as the same files read from disk do, so a pass on the start counts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gate-start-config-'));
    try {
      writeFileSync(join(dir, 'gate.config.json'), TEAM);
      const onDisk = readConfigAt(dir);
      const kept = onDisk && startConfigOf(onDisk, dir);
      expect(kept && configFilesFromStart(kept, dir, dir)?.hash).toBe(onDisk?.hash);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is not kept when unreadable or outside the repository, and not used for a project folder it does not cover', () => {
    expect(startConfigOf({ ...files(ROOT), team: { path: '/repo/gate.config.json', text: '', unreadable: 'it is a directory, not a file' } }, ROOT)).toBeUndefined();
    expect(startConfigOf(files('/elsewhere', TEAM), ROOT)).toBeUndefined();
    expect(configFilesFromStart({ dir: 'app', team: TEAM }, ROOT, join(ROOT, 'lib'))).toBeUndefined();
    expect(isStartConfig({ dir: '' })).toBe(false);
    expect(isStartConfig({ dir: '', team: 3 })).toBe(false);
  });
});

describe('configAtStart', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const session = (config: StartConfig | undefined) => {
    dir = mkdtempSync(join(tmpdir(), 'gate-config-gone-'));
    const file = join(dir, 'session.json');
    writeSession(file, { blocks: 0, start: { digest: 'd', tree: undefined, environment: fingerprintEnvironment([dir], {}), ...(config ? { config } : {}) } });
    return file;
  };

  it('gives a stop of the turn the config it started with', () => {
    const file = session({ dir: '', team: TEAM });
    expect(configAtStart(file, 'stop', dir, dir)?.team?.text).toBe(TEAM);
    expect(configAtStart(file, 'subagent-stop', dir, dir)?.team?.text).toBe(TEAM);
    expect(configAtStart(file, 'post-edit', dir, dir)).toBeUndefined();
  });

  it('forgets it when a turn starts without a config: gate taken out of a project stays silent', () => {
    const file = session({ dir: '', team: TEAM });
    expect(configAtStart(file, 'turn-start', dir, dir)).toBeUndefined();
    expect(readSession(file).value?.start?.config).toBeUndefined();
    expect(readSession(file).value?.start?.digest).toBe('d');
    expect(configAtStart(file, 'stop', dir, dir)).toBeUndefined();
  });

  it('has nothing for a session whose start had no config', () => {
    expect(configAtStart(session(undefined), 'stop', dir, dir)).toBeUndefined();
  });
});
