// Types of mock-gemini.mjs: the same surface as the Chat Completions mock, so the shared scenarios
// (../stop-gate-scenarios.ts) run on it. Tool calls name Gemini CLI's tools (`run_shell_command`).
import type { ChatCompletionsMock, RecordedRequest, Step } from '../chat-completions-mock.d.mts';

export type { RecordedRequest, Step };

export interface GeminiMock extends ChatCompletionsMock {
  /** the base URL for GOOGLE_GEMINI_BASE_URL (no path) */
  url: string;
}

/** Everything after the model's last turn (the user's text and tool results), joined. */
export function lastUserText(request: RecordedRequest | undefined): string;
/** Every text a request carries in its contents (all roles), in order. */
export function allMessageText(request: RecordedRequest | undefined): string;
export function startGeminiMock(): Promise<GeminiMock>;
