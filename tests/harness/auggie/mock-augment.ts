// A mock of the Augment backend that Auggie 0.36.0 talks to (its "tenant URL", taken from
// AUGMENT_SESSION_AUTH): plain HTTP POSTs of JSON, and `/chat-stream` answered with one JSON object
// per line. Read from the CLI's bundle (callApiStream, toChatResult) and the requests it sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type AugmentStep = { say: string } | { tool: string; input: Record<string, unknown> };

export interface AugmentMock {
  url: string;
  /** The AUGMENT_SESSION_AUTH value that points Auggie here. */
  sessionAuth: string;
  /** The body of every `/chat-stream` request, in order: one per model call. */
  chats: Array<Record<string, unknown>>;
  script(steps: AugmentStep[]): void;
  close(): Promise<void>;
}

/** Hooks run only when the backend's feature flags turn them on (`featureFlagsV2.enableHooks`). */
const MODELS = {
  default_model: 'mock',
  models: [{ name: 'mock', suggested_prefix_char_count: 0, suggested_suffix_char_count: 0 }],
  feature_flags: { enable_hooks: true },
};

/** What the other endpoints need to answer so that nothing logs a conversion error. */
const ANSWERS: Record<string, unknown> = {
  '/get-models': MODELS,
  '/agents/list-remote-tools': { tools: [] },
  '/find-missing': { unknown_memory_names: [], nonindexed_blob_names: [] },
  '/batch-upload': { blob_names: [] },
};

// Node types and stop reasons are Augment's enums: 0 is text, 5 a tool call; 1 ends the turn, 3 asks for tools.
function streamOf(step: AugmentStep, call: number): string {
  const lines =
    'say' in step
      ? [{ text: step.say, nodes: [{ id: 0, type: 0, content: step.say }] }, { text: '', nodes: [], stop_reason: 1 }]
      : [
          { text: '', nodes: [{ id: 1, type: 5, content: '', tool_use: { tool_use_id: `call-${call}`, tool_name: step.tool, input_json: JSON.stringify(step.input) } }] },
          { text: '', nodes: [], stop_reason: 3 },
        ];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

export async function startAugmentMock(): Promise<AugmentMock> {
  let steps: AugmentStep[] = [];
  const chats: Array<Record<string, unknown>> = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      if (path === '/chat-stream') {
        const parsed: unknown = JSON.parse(body);
        chats.push(typeof parsed === 'object' && parsed !== null ? { ...parsed } : {});
        const step = steps[chats.length - 1] ?? { say: 'Nothing more to do.' };
        response.writeHead(200, { 'content-type': 'application/json' }).end(streamOf(step, chats.length));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWERS[path] ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the Augment mock has no port');
  const url = `http://127.0.0.1:${address.port}/`;
  return {
    url,
    sessionAuth: JSON.stringify({ accessToken: 'mock-token', tenantURL: url, scopes: ['read', 'write'] }),
    chats,
    script(next) {
      steps = next;
      chats.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
