/** The margin `gate init` puts above a stop's budget for the hook's timeout (src/init/plan-install.ts). */
export const HOOK_MARGIN_SECONDS = 30;

/** The prompt hook's timeout as `gate init` writes it. */
export const PROMPT_HOOK_TIMEOUT = 30;

/** What a stop keeps of the hook's time after its git calls are killed: to say why, and record it. */
export const GIT_RESERVE_MS = 2000;

/** What a stop keeps of the hook's time after its gates' deadline: to kill them (2 s grace), judge, report. */
export const GATES_RESERVE_MS = 10_000;

/** Of the hook timeout's margin, what a gate started late may run past its budget (a start, a cut to whole seconds). */
export const DEADLINE_SLACK_MS = 5000;

/** The hook's timeout when the settings do not say: as `gate init` sizes it. */
export function assumedHookTimeout(budgetSeconds: number): number {
  return budgetSeconds + HOOK_MARGIN_SECONDS;
}

/** When git must have ended (epoch ms): the hook's end, less what the stop needs to say so. */
export function gitLimitAt(hookStart: number, hookTimeoutSeconds: number): number {
  return hookStart + hookTimeoutSeconds * 1000 - GIT_RESERVE_MS;
}

/**
 * When the gates must be decided (epoch ms). The budget counts from when the gates begin, not from
 * the hook's start: slow git (a clean filter, an fsmonitor hook) before them spends the hook's
 * margin, not a gate's timeout. Never past the hook's end less GATES_RESERVE_MS.
 */
export function gatesDeadline(input: { hookStart: number; gatesStart: number; budgetMs: number; hookTimeoutSeconds: number }): number {
  return Math.min(input.gatesStart + input.budgetMs + DEADLINE_SLACK_MS, input.hookStart + input.hookTimeoutSeconds * 1000 - GATES_RESERVE_MS);
}

/** Why a gate got no time, when git took it: said instead of "timed out after 0 s". */
export function spentByGit(gitMs: number): string | undefined {
  return gitMs >= 500 ? `the hook's timeout was spent by git (${(gitMs / 1000).toFixed(1)} s)` : undefined;
}
