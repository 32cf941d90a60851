import { describe, expect, it } from 'vitest';
import { hostBlockCap } from '../../src/config/block-cap.js';
import { ConfigError } from '../../src/config/config-problem.js';
import type { ConfigFiles } from '../../src/config/find-config.js';
import { loadConfig } from '../../src/config/load-config.js';
import { configCacheKey } from '../../src/state/config-cache.js';

const DIR = '/repo';
const GATES = [{ name: 'test', run: ['npm', 'test'] }];

function files(team: unknown, local?: unknown): ConfigFiles {
  return {
    dir: DIR,
    hash: 'h',
    team: { path: `${DIR}/gate.config.json`, text: JSON.stringify(team) },
    local: local === undefined ? undefined : { path: `${DIR}/gate.local.json`, text: JSON.stringify(local) },
  };
}

function problems(config: ConfigFiles, env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(config, DIR, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message.split('\n');
    throw error;
  }
  return [];
}

describe('hostBlockCap', () => {
  it('is Claude Code\'s 8, or CLAUDE_CODE_STOP_HOOK_BLOCK_CAP; 0 or below is no cap', () => {
    expect(hostBlockCap({})).toBe(8);
    expect(hostBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' })).toBe(3);
    expect(hostBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: ' 20 ' })).toBe(20);
    expect(hostBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' })).toBeUndefined();
    expect(hostBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '-1' })).toBeUndefined();
    expect(hostBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: 'lots' })).toBe(8);
  });
});

describe('maxBlocks and the host\'s block cap', () => {
  it('accepts maxBlocks up to the cap', () => {
    expect(loadConfig(files({ maxBlocks: 8, gates: GATES }), DIR, {}).maxBlocks).toBe(8);
    expect(loadConfig(files({ maxBlocks: 20, gates: GATES }), DIR, { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '20' }).maxBlocks).toBe(20);
    expect(loadConfig(files({ maxBlocks: 50, gates: GATES }), DIR, { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' }).maxBlocks).toBe(50);
  });

  it('refuses a maxBlocks past Claude Code\'s 8 and says why and what to do', () => {
    expect(problems(files({ maxBlocks: 9, gates: GATES }), {})).toEqual([
      "gate.config.json: maxBlocks: 9 is more than Claude Code lets a Stop hook block in a row, 8: block 9 would end the turn with Claude Code's warning instead of reaching the agent; set maxBlocks to 8 or less, or raise CLAUDE_CODE_STOP_HOOK_BLOCK_CAP",
    ]);
  });

  it('refuses one past CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, naming the file that set it', () => {
    expect(problems(files({ maxBlocks: 3, gates: GATES }, { maxBlocks: 4 }), { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' })).toEqual([
      "gate.local.json: maxBlocks: 4 is more than Claude Code lets a Stop hook block in a row, 3 (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP): block 4 would end the turn with Claude Code's warning instead of reaching the agent; set maxBlocks to 3 or less, or raise CLAUDE_CODE_STOP_HOOK_BLOCK_CAP",
    ]);
  });

  it('lowers the default 3 to a smaller cap: no file set it, so none is at fault', () => {
    expect(loadConfig(files({ gates: GATES }), DIR, { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' }).maxBlocks).toBe(3);
    expect(loadConfig(files({ gates: GATES }), DIR, { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' }).maxBlocks).toBe(2);
  });

  it('is part of the config cache key: a config checked under one cap is checked again under another', () => {
    const config = files({ maxBlocks: 12, gates: GATES });
    expect(configCacheKey(config, 'build', {})).not.toBe(configCacheKey(config, 'build', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '20' }));
    expect(configCacheKey(config, 'build', {})).toBe(configCacheKey(config, 'build', { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '8' }));
  });
});
