/**
 * One adapter per harness: how its payload names things, and how it is told "block", "allow" and
 * "tell the human" (harnesses.md). The engine and the report are the same for all.
 */
export type HarnessName = 'claude' | 'codex' | 'gemini' | 'copilot' | 'qwen' | 'factory' | 'cursor' | 'opencode' | 'auggie' | 'qoder';
export const HARNESS_NAMES: readonly HarnessName[] = ['claude', 'codex', 'gemini', 'copilot', 'qwen', 'factory', 'cursor', 'opencode', 'auggie', 'qoder'];

/** What an event means to gate, whatever the harness calls it. */
export type TurnEvent = 'turn-start' | 'stop' | 'subagent-stop' | 'post-edit' | 'other';

/**
 * How a block reaches the agent:
 * - exit2: exit 2 with the report on stderr (the agent reads stderr verbatim);
 * - decision: exit 0 with `{"decision":"block","reason":…}` on stdout (Copilot ignores exit 2;
 *   Gemini reads stdout first);
 * - followup: exit 0 with `{"followup_message":…}` on stdout (Cursor);
 * - plugin: the OpenCode plugin reads gate's JSON and sends the report as a new message;
 * - stop-output: exit 0 with `{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":…}}`
 *   and a `systemMessage` for the human (Auggie).
 */
export type BlockProtocol = 'exit2' | 'decision' | 'followup' | 'plugin' | 'stop-output';

/**
 * What an exit-2 block also prints on stdout: `system-message` is `{"systemMessage": …}` for the
 * human, which also keeps Claude Code from taking the block for a missing hook script.
 */
export type BlockStdout = 'none' | 'system-message';

export interface Adapter {
  name: HarnessName;
  events: Readonly<Record<string, TurnEvent>>;
  /** Environment variables naming the project (launch) directory, most specific first. */
  projectEnv: readonly string[];
  sessionKeys: readonly string[];
  protocol: BlockProtocol;
  /** Only with `exit2`; `none` when unset. */
  blockStdout?: BlockStdout;
  /**
   * The most UTF-8 bytes of a report that reach the agent intact (the report budget counts
   * characters): Codex cuts past 10,000; Qwen Code and Factory Droid decode each 64 KiB read of
   * stderr on its own, so a longer report can have a character split into U+FFFD.
   */
  reportBytes?: number;
  /**
   * The harness delivers a block as a new prompt and fires its turn-start event again with the
   * report as `prompt` (Gemini CLI, measured; Cursor, taken as possible): that is no new turn.
   */
  reportReturnsAsPrompt?: boolean;
  /**
   * A variable the harness replaces in the command's text with the project directory, already
   * shell-quoted, before a shell sees it (Gemini CLI's `$GEMINI_PROJECT_DIR`): a probe of the
   * command must do the same.
   */
  substitutesInCommand?: string;
}

const CLAUDE_EVENTS = { UserPromptSubmit: 'turn-start', Stop: 'stop', SubagentStop: 'subagent-stop' } as const;

export const ADAPTERS: Readonly<Record<HarnessName, Adapter>> = {
  // reportReturnsAsPrompt: Copilot CLI runs Claude-format entries too, and fires UserPromptSubmit again with the report.
  claude: {
    name: 'claude',
    // PostToolUse: the post-edit nudge (init writes it for Edit, Write and MultiEdit).
    events: { ...CLAUDE_EVENTS, PostToolUse: 'post-edit' },
    projectEnv: ['CLAUDE_PROJECT_DIR'],
    sessionKeys: ['session_id'],
    protocol: 'exit2',
    blockStdout: 'system-message',
    reportReturnsAsPrompt: true,
  },
  // Codex keeps 10,000 UTF-8 bytes of a block message and cuts the middle out of a longer one (0.171.0).
  codex: { name: 'codex', events: CLAUDE_EVENTS, projectEnv: [], sessionKeys: ['session_id'], protocol: 'exit2', reportBytes: 10_000 },
  gemini: {
    name: 'gemini',
    events: { BeforeAgent: 'turn-start', AfterAgent: 'stop' },
    projectEnv: ['GEMINI_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
    sessionKeys: ['session_id'],
    protocol: 'decision',
    reportReturnsAsPrompt: true,
    substitutesInCommand: 'GEMINI_PROJECT_DIR',
  },
  copilot: {
    name: 'copilot',
    events: { userPromptSubmitted: 'turn-start', agentStop: 'stop', subagentStop: 'subagent-stop', ...CLAUDE_EVENTS },
    projectEnv: ['COPILOT_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
    sessionKeys: ['sessionId', 'session_id'],
    protocol: 'decision',
    reportReturnsAsPrompt: true,
  },
  qwen: {
    name: 'qwen',
    events: CLAUDE_EVENTS,
    projectEnv: ['QWEN_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
    sessionKeys: ['session_id'],
    protocol: 'exit2',
    reportBytes: 60_000,
    reportReturnsAsPrompt: true,
  },
  // `droid exec` fires SessionStart but no UserPromptSubmit (measured on 0.225.2): its one prompt starts there.
  factory: {
    name: 'factory',
    events: { ...CLAUDE_EVENTS, SessionStart: 'turn-start' },
    projectEnv: ['FACTORY_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
    sessionKeys: ['session_id'],
    protocol: 'exit2',
    reportBytes: 60_000,
    reportReturnsAsPrompt: true,
  },
  cursor: {
    name: 'cursor',
    events: { beforeSubmitPrompt: 'turn-start', stop: 'stop' },
    projectEnv: ['CURSOR_PROJECT_DIR'],
    sessionKeys: ['conversation_id'],
    protocol: 'followup',
    reportReturnsAsPrompt: true,
  },
  // The payload is built by the generated plugin (templates/opencode-plugin.js) from OpenCode's events.
  opencode: {
    name: 'opencode',
    events: { 'chat.message': 'turn-start', 'session.idle': 'stop' },
    projectEnv: ['OPENCODE_PROJECT_DIR'],
    sessionKeys: ['session_id'],
    protocol: 'plugin',
    reportReturnsAsPrompt: true,
  },
  // Auggie 0.36.0 runs the Stop hook but drops its verdict: the human reads the systemMessage, the
  // model nothing (measured; docs/harness-auggie.md). The block is the one its hook runner parses.
  // No turn start: Auggie fires PromptSubmit without waiting for it, so the agent's first edit can
  // come before the baseline; without one, a stop compares with the last green state or HEAD.
  auggie: {
    name: 'auggie',
    events: { Stop: 'stop' },
    projectEnv: ['AUGMENT_PROJECT_DIR'],
    sessionKeys: ['conversation_id'],
    protocol: 'stop-output',
  },
  // Read in qodercli 1.1.52's bundle, not run against a model (docs/harness-qoder.md): exit 2 blocks
  // with stderr as the reason (stdout is then not read); each pipe read is decoded on its own, as in Qwen.
  // UserPromptSubmit fires once per prompt (deduplicated by prompt id), not on a block's continuation.
  qoder: {
    name: 'qoder',
    events: CLAUDE_EVENTS,
    projectEnv: ['QODER_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'],
    sessionKeys: ['session_id'],
    protocol: 'exit2',
    reportBytes: 60_000,
  },
};

export function isHarnessName(name: string): name is HarnessName {
  return (HARNESS_NAMES as readonly string[]).includes(name);
}
