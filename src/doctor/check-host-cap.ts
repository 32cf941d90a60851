import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HarnessName } from '../harness/adapters.js';
import { readIfPresent } from '../init/apply-changes.js';
import type { Finding } from './judge-delivery.js';

/** Qwen Code's default `stopHookBlockingCap` and the most it accepts (0.24.4, packages/core/src/hooks/stopHookCap.ts). */
const QWEN_DEFAULT_CAP = 8;
const QWEN_MAX_CAP = 100;

/**
 * Qwen Code's cap on Stop hook blocks in a row: QWEN_CODE_STOP_HOOK_BLOCK_CAP when set, else the
 * `stopHookBlockingCap` of the project's or the user's settings, else 8; a value below 1 or not a
 * whole number is 8, one above 100 is 100 (Qwen's own reading).
 */
export function qwenBlockCap(env: NodeJS.ProcessEnv, settingsTexts: Array<string | undefined>): number {
  const fromEnv = env['QWEN_CODE_STOP_HOOK_BLOCK_CAP'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return normalise(Number(fromEnv), true);
  for (const text of settingsTexts) {
    const value = settingValue(text);
    if (value !== undefined) return normalise(value, false);
  }
  return QWEN_DEFAULT_CAP;
}

/**
 * Qwen Code counts a block as the N-th in a row before it sends it, and at its cap ends the turn
 * instead (`nextStopHookBlock`: capped when the count reaches the cap): so only cap − 1 of gate's
 * blocks reach the agent, and a maxBlocks past that has its last blocks end the turn unexplained.
 */
export function checkHostCap(harness: HarnessName, maxBlocks: number, projectDir: string, env: NodeJS.ProcessEnv): Finding[] {
  if (harness !== 'qwen') return [];
  const home = env['HOME'] ?? homedir();
  const cap = qwenBlockCap(env, [readIfPresent(join(projectDir, '.qwen', 'settings.json')), readIfPresent(join(home, '.qwen', 'settings.json'))]);
  if (maxBlocks <= cap - 1) return [];
  return [{
    level: 'problem',
    message: `maxBlocks is ${maxBlocks}, but Qwen Code ends the turn instead of sending block ${cap} in a row (its cap, stopHookBlockingCap or QWEN_CODE_STOP_HOOK_BLOCK_CAP, is ${cap}): only ${cap - 1} of gate's blocks reach the agent. Set maxBlocks to ${cap - 1} or less, or raise the cap`,
  }];
}

function normalise(value: number, fromEnv: boolean): number {
  if (!Number.isFinite(value) || (fromEnv && !Number.isInteger(value))) return QWEN_DEFAULT_CAP;
  const whole = Math.floor(value);
  return whole >= 1 ? Math.min(whole, QWEN_MAX_CAP) : QWEN_DEFAULT_CAP;
}

function settingValue(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    const settings: unknown = JSON.parse(text);
    if (typeof settings !== 'object' || settings === null || !('stopHookBlockingCap' in settings)) return undefined;
    return typeof settings.stopHookBlockingCap === 'number' ? settings.stopHookBlockingCap : QWEN_DEFAULT_CAP;
  } catch {
    return undefined;
  }
}
