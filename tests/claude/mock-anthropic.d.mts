// Types of mock-anthropic.mjs (plain JavaScript, shared with scripts/demo.mjs).
import type { IncomingHttpHeaders } from 'node:http';

export interface ToolUse {
  name: string;
  input: Record<string, unknown>;
}

/** One scripted answer of the model: text, a tool call, or both (text first); `before` holds it until it resolves. */
export type Step = ({ text: string; toolUse?: ToolUse } | { text?: string; toolUse: ToolUse }) & { before?: () => Promise<void> };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** true for the main conversation's model calls: the ones that consume the script */
  main: boolean;
  /** true for a subagent's model calls (with tools): they consume the subagent script */
  subagent: boolean;
  /** index of the script step that answered it; null for side requests and once the script ran out */
  step: number | null;
}

export interface MockAnthropic {
  url: string;
  port: number;
  requests: RecordedRequest[];
  script(steps: readonly Step[]): void;
  /** What subagents answer, in order, across all subagents; "OK." once used up. */
  scriptSubagent(steps: readonly Step[]): void;
  mainRequests(): RecordedRequest[];
  /** main requests that arrived after the script was used up (answered "OK.") */
  unscripted(): RecordedRequest[];
  lastUserText(request: RecordedRequest | undefined): string;
  close(): Promise<void>;
}

/** All text of the last user message of a request (text blocks and tool_result contents), joined. */
export function lastUserText(request: RecordedRequest | undefined): string;
/** Every text a request carries in its messages (all roles), in order. */
export function allMessageText(request: RecordedRequest | undefined): string;
export function startMockAnthropic(): Promise<MockAnthropic>;
