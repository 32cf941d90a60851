import type { ConfigFiles } from '../config/find-config.js';
import { claudeHookTimeout } from '../harness/claude-hook-timeout.js';
import { loadConfigCached } from '../state/config-cache.js';
import { stopBudgetSeconds } from '../plan/stop-budget.js';
import { assumedHookTimeout, gitLimitAt, PROMPT_HOOK_TIMEOUT } from '../plan/hook-time.js';

/**
 * The hook's timeout in seconds: gate's entry for `event` in Claude Code's project settings (the
 * shortest, when both files have one), else as `gate init` sizes it from the root config's
 * budget. Other harnesses keep the timeout in their own files: there, init's sizing is assumed.
 */
export async function hookTimeoutSeconds(input: { harness: string; event: 'Stop' | 'SubagentStop' | 'UserPromptSubmit'; projectDir: string; configFiles: ConfigFiles; stateDir: string; budgetSeconds?: number }): Promise<number> {
  const fromSettings = input.harness === 'claude' ? claudeHookTimeout(input.projectDir, input.event) : undefined;
  if (fromSettings !== undefined) return fromSettings;
  if (input.event === 'UserPromptSubmit') return PROMPT_HOOK_TIMEOUT;
  return assumedHookTimeout(input.budgetSeconds ?? (await rootBudget(input.configFiles, input.stateDir, input.projectDir)));
}

/** The root config's budget; 0 when it cannot be read (the config's problem is told by the stop). */
async function rootBudget(files: ConfigFiles, stateDir: string, projectDir: string): Promise<number> {
  try {
    const config = await loadConfigCached(stateDir, files, projectDir);
    return stopBudgetSeconds(config.gates, config.declaredConcurrency);
  } catch {
    return 0;
  }
}

/** When the hook's git calls must end (epoch ms), learnt once a git call is slow (src/git/exec-git.ts). */
export async function gitLimitFor(input: Parameters<typeof hookTimeoutSeconds>[0]): Promise<number> {
  return gitLimitAt(Math.round(performance.timeOrigin), await hookTimeoutSeconds(input));
}
