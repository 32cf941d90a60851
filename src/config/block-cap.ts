import type { ConfigProblem } from './config-problem.js';

/** Claude Code ends a turn itself once a Stop hook has blocked it this many times in a row (2.1.332). */
const CLAUDE_BLOCK_CAP = 8;

/**
 * The most blocks in a row Claude Code lets through to the model: 8, or CLAUDE_CODE_STOP_HOOK_BLOCK_CAP
 * (0 or below: no cap). Measured: with a cap of N the model reads N reports and the hook's next block
 * ends the turn with Claude Code's own warning (docs/stop-contract.md).
 */
export function hostBlockCap(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['CLAUDE_CODE_STOP_HOOK_BLOCK_CAP']?.trim() ?? '';
  if (!/^-?\d+$/.test(raw)) return CLAUDE_BLOCK_CAP;
  const cap = Number(raw);
  return cap > 0 ? cap : undefined;
}

/** A maxBlocks past the host's cap: gate's last blocks would never reach the agent, and the escape would be the host's, unexplained. */
export function checkBlockCap(file: string, maxBlocks: number | undefined, env: NodeJS.ProcessEnv): ConfigProblem[] {
  const cap = hostBlockCap(env);
  if (maxBlocks === undefined || cap === undefined || maxBlocks <= cap) return [];
  const source = env['CLAUDE_CODE_STOP_HOOK_BLOCK_CAP'] === undefined ? '' : ' (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP)';
  return [{
    file,
    path: 'maxBlocks',
    message: `${maxBlocks} is more than Claude Code lets a Stop hook block in a row, ${cap}${source}: block ${cap + 1} would end the turn with Claude Code's warning instead of reaching the agent; set maxBlocks to ${cap} or less, or raise CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`,
  }];
}
