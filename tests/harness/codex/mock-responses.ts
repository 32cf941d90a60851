// A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`, SSE), for driving the real
// Codex CLI offline. Each model call takes the next step of the script: text, or a shell command
// run through Codex's `exec_command` tool. Every request is recorded.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';

export type Step = { text: string } | { exec: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** a model call of the conversation: POST …/responses with tools */
  main: boolean;
  /** the script step that answered it; null once the script ran out (answered "OK.") */
  step: number | null;
}

export interface MockResponses {
  /** the provider's base_url, ending in /v1 */
  baseUrl: string;
  requests: RecordedRequest[];
  script(steps: readonly Step[]): void;
  mainRequests(): RecordedRequest[];
  unscripted(): RecordedRequest[];
  close(): Promise<void>;
}

export const text = (value: string): Step => ({ text: value });
export const exec = (command: string): Step => ({ exec: command });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function inputOf(request: RecordedRequest | undefined): unknown[] {
  return request && isRecord(request.body) && Array.isArray(request.body['input']) ? request.body['input'] : [];
}

/** The text of one input item: a message's text parts joined, or a tool call's output. */
function itemText(item: unknown): string {
  if (!isRecord(item)) return '';
  if (item['type'] === 'function_call_output') return typeof item['output'] === 'string' ? item['output'] : '';
  if (item['type'] !== 'message' || !Array.isArray(item['content'])) return '';
  return item['content'].map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('\n');
}

/** What the model was sent last in this request: the newest user message or tool output. */
export function lastInputText(request: RecordedRequest | undefined): string {
  return itemText(inputOf(request).at(-1));
}

/** Every text of every input item of a request (all roles), joined. */
export function allInputText(request: RecordedRequest | undefined): string {
  return inputOf(request).map(itemText).join('\n');
}

/** Every string anywhere in a request's body (instructions, tools, every item and its arguments), joined. */
export function requestText(request: RecordedRequest | undefined): string {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isRecord(value)) Object.values(value).forEach(walk);
  };
  walk(request?.body);
  return strings.join('\n');
}

function isMainRequest(method: string, path: string, body: unknown): boolean {
  return method === 'POST' && path.endsWith('/responses') && isRecord(body) && Array.isArray(body['tools']) && body['tools'].length > 0;
}

const USAGE = { input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 };

/** response.created, one response.output_item.done, response.completed: all Codex needs. */
function sendStream(res: ServerResponse, id: number, step: Step): void {
  const item =
    'exec' in step
      ? { type: 'function_call', id: `fc_mock_${id}`, call_id: `call_mock_${id}`, name: 'exec_command', arguments: JSON.stringify({ cmd: step.exec }) }
      : { type: 'message', role: 'assistant', id: `msg_mock_${id}`, content: [{ type: 'output_text', text: step.text }] };
  const events = [
    { type: 'response.created', response: { id: `resp_mock_${id}` } },
    { type: 'response.output_item.done', item },
    { type: 'response.completed', response: { id: `resp_mock_${id}`, usage: USAGE } },
  ];
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  const body = Buffer.concat(chunks).toString('utf8');
  try {
    return body === '' ? null : JSON.parse(body);
  } catch {
    return body;
  }
}

export async function startMockResponses(): Promise<MockResponses> {
  const requests: RecordedRequest[] = [];
  let steps: readonly Step[] = [];
  let next = 0;
  let counter = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const method = req.method ?? '';
    const path = new URL(req.url ?? '/', 'http://mock').pathname;
    const main = isMainRequest(method, path, body);
    const step = main && next < steps.length ? next++ : null;
    requests.push({ method, path, headers: req.headers, body, main, step });
    if (!main) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock-responses: no ${method} ${path}` } }));
      return;
    }
    sendStream(res, ++counter, step === null ? text('OK.') : (steps[step] ?? text('OK.')));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('mock-responses: server has no TCP address');

  return {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    requests,
    script(newSteps) {
      steps = [...newSteps];
      next = 0;
    },
    mainRequests: () => requests.filter((request) => request.main),
    unscripted: () => requests.filter((request) => request.main && request.step === null),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
