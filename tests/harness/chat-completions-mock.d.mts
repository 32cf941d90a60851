// Types of chat-completions-mock.mjs (plain JavaScript, like tests/claude/mock-anthropic.mjs).
import type { IncomingHttpHeaders } from 'node:http';

export interface ToolCall {
  /** the harness's own tool name: `run_shell_command` (Qwen), `Execute` (Factory), `bash` (Copilot) */
  name: string;
  arguments: Record<string, unknown>;
}

/** One scripted answer of the model: text, tool calls, or both (text first). */
export type Step = { text: string; toolCalls?: ToolCall[] } | { text?: string; toolCalls: ToolCall[] };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** true for the agent's own model calls (they offer tools): the ones that consume the script */
  main: boolean;
  /** index of the script step that answered it; null for side requests and once the script ran out */
  step: number | null;
}

export interface MockOptions {
  /** tells the agent's own calls from helpers; default: a chat completion that offers tools */
  isMain?: (request: RecordedRequest) => boolean;
  /** the id `GET /v1/models` lists */
  model?: string;
}

export interface ChatCompletionsMock {
  /** the base URL, ending in /v1 */
  url: string;
  port: number;
  requests: RecordedRequest[];
  script(steps: readonly Step[]): void;
  mainRequests(): RecordedRequest[];
  /** main requests that arrived after the script was used up (answered "OK.") */
  unscripted(): RecordedRequest[];
  lastUserText(request: RecordedRequest | undefined): string;
  close(): Promise<void>;
}

/** The text of every message after the last assistant message (user and tool messages), joined. */
export function lastUserText(request: RecordedRequest | undefined): string;
/** Every text a request carries in its messages (all roles), in order. */
export function allMessageText(request: RecordedRequest | undefined): string;
export function startChatCompletionsMock(options?: MockOptions): Promise<ChatCompletionsMock>;
