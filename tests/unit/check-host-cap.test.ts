import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkHostCap, qwenBlockCap } from '../../src/doctor/check-host-cap.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("qwenBlockCap: Qwen Code's own cap on Stop blocks in a row, read as Qwen reads it", () => {
  it('is 8 by default, the settings value, or QWEN_CODE_STOP_HOOK_BLOCK_CAP over both', () => {
    expect(qwenBlockCap({}, [])).toBe(8);
    expect(qwenBlockCap({}, [undefined, '{"stopHookBlockingCap": 4}'])).toBe(4);
    expect(qwenBlockCap({}, ['{"stopHookBlockingCap": 5}', '{"stopHookBlockingCap": 4}'])).toBe(5);
    expect(qwenBlockCap({ QWEN_CODE_STOP_HOOK_BLOCK_CAP: '3' }, ['{"stopHookBlockingCap": 5}'])).toBe(3);
  });

  it('takes a value below 1, not whole, or not a number as 8, and one above 100 as 100', () => {
    expect(qwenBlockCap({ QWEN_CODE_STOP_HOOK_BLOCK_CAP: '0' }, [])).toBe(8);
    expect(qwenBlockCap({ QWEN_CODE_STOP_HOOK_BLOCK_CAP: '2.5' }, [])).toBe(8);
    expect(qwenBlockCap({ QWEN_CODE_STOP_HOOK_BLOCK_CAP: 'lots' }, [])).toBe(8);
    expect(qwenBlockCap({ QWEN_CODE_STOP_HOOK_BLOCK_CAP: ' ' }, ['{"stopHookBlockingCap": 2.7}'])).toBe(2);
    expect(qwenBlockCap({ QWEN_CODE_STOP_HOOK_BLOCK_CAP: '500' }, [])).toBe(100);
    expect(qwenBlockCap({}, ['{"stopHookBlockingCap": "3"}'])).toBe(8);
  });
});

describe('checkHostCap: a maxBlocks whose last blocks the host would never send', () => {
  function project(settings?: object): { dir: string; home: string } {
    const base = mkdtempSync(join(tmpdir(), 'gate-cap-'));
    dirs.push(base);
    const dir = join(base, 'repo');
    mkdirSync(join(dir, '.qwen'), { recursive: true });
    if (settings) writeFileSync(join(dir, '.qwen', 'settings.json'), JSON.stringify(settings));
    return { dir, home: join(base, 'home') };
  }

  it('lets Qwen Code send cap − 1 blocks: maxBlocks 7 passes its default 8, maxBlocks 8 does not', () => {
    const { dir, home } = project();
    expect(checkHostCap('qwen', 7, dir, { HOME: home })).toEqual([]);
    expect(checkHostCap('qwen', 8, dir, { HOME: home })).toEqual([
      {
        level: 'problem',
        message: "maxBlocks is 8, but Qwen Code ends the turn instead of sending block 8 in a row (its cap, stopHookBlockingCap or QWEN_CODE_STOP_HOOK_BLOCK_CAP, is 8): only 7 of gate's blocks reach the agent. Set maxBlocks to 7 or less, or raise the cap",
      },
    ]);
  });

  it("reads the project's settings and the variable; other hosts are not Qwen's business", () => {
    const { dir, home } = project({ stopHookBlockingCap: 3 });
    expect(checkHostCap('qwen', 3, dir, { HOME: home })[0]?.message).toMatch(/only 2 of gate's blocks reach the agent/);
    expect(checkHostCap('qwen', 3, dir, { HOME: home, QWEN_CODE_STOP_HOOK_BLOCK_CAP: '10' })).toEqual([]);
    expect(checkHostCap('codex', 8, dir, { HOME: home, QWEN_CODE_STOP_HOOK_BLOCK_CAP: '2' })).toEqual([]);
  });
});
