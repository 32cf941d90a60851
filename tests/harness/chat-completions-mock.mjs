// A scripted stand-in for the OpenAI Chat Completions API (`POST /v1/chat/completions`, streaming or
// not), for driving the real Qwen Code, Factory Droid and Copilot CLIs offline. Plain JavaScript
// like tests/claude/mock-anthropic.mjs; its types are in chat-completions-mock.d.mts.
import { createServer } from 'node:http';

/** @typedef {import('./chat-completions-mock.d.mts').Step} Step */
/** @typedef {import('./chat-completions-mock.d.mts').RecordedRequest} RecordedRequest */
/** @typedef {import('./chat-completions-mock.d.mts').ChatCompletionsMock} ChatCompletionsMock */
/** @typedef {import('./chat-completions-mock.d.mts').MockOptions} MockOptions */

const DEFAULT_TEXT = 'OK.';

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @param {unknown} content @returns {string} */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : typeof part === 'string' ? part : ''))
    .join('\n');
}

/** @param {RecordedRequest | undefined} request @returns {unknown[]} */
function messagesOf(request) {
  return request && isRecord(request.body) && Array.isArray(request.body.messages) ? request.body.messages : [];
}

/**
 * The text of every message after the last assistant message (the user and tool messages the model
 * is answering), joined: where a harness puts a stop hook's feedback.
 * @param {RecordedRequest | undefined} request
 */
export function lastUserText(request) {
  const messages = messagesOf(request);
  const lastAssistant = messages.findLastIndex((message) => isRecord(message) && message.role === 'assistant');
  return messages
    .slice(lastAssistant + 1)
    .filter((message) => isRecord(message) && message.role !== 'system')
    .map((message) => (isRecord(message) ? textOf(message.content) : ''))
    .join('\n');
}

/** Every text a request carries in its messages (all roles), in order. @param {RecordedRequest | undefined} request */
export function allMessageText(request) {
  return messagesOf(request)
    .map((message) => (isRecord(message) ? textOf(message.content) : ''))
    .join('\n');
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value */
function sendJson(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {{ id: string, model: string, text: string | undefined, toolCalls: Array<{ id: string, name: string, arguments: string }>, stream: boolean }} answer
 */
function sendCompletion(res, { id, model, text, toolCalls, stream }) {
  const created = Math.floor(Date.now() / 1000);
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const calls = toolCalls.map((call, index) => ({ index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  if (!stream) {
    const message = { role: 'assistant', content: text ?? null, ...(calls.length > 0 ? { tool_calls: calls.map(({ index: _index, ...call }) => call) } : {}) };
    sendJson(res, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finishReason }], usage });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  /** @param {Record<string, unknown>} delta @param {string | null} finish */
  const chunk = (delta, finish) => {
    const data = { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] };
    res.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  chunk({ role: 'assistant', content: '' }, null);
  if (text !== undefined) chunk({ content: text }, null);
  for (const call of calls) {
    chunk({ tool_calls: [{ ...call, function: { name: call.function.name, arguments: '' } }] }, null);
    chunk({ tool_calls: [{ index: call.index, function: { arguments: call.function.arguments } }] }, null);
  }
  chunk({}, finishReason);
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
  res.write('data: [DONE]\n\n');
  res.end();
}

/** @param {import('node:http').IncomingMessage} req @returns {Promise<unknown>} */
function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text === '' ? null : JSON.parse(text));
      } catch {
        resolve(text);
      }
    });
  });
}

/**
 * A main request is one of the agent's own turns: a chat completion that offers tools. Helpers
 * (titles, next-speaker checks, summaries) send none, or are told apart by `isMain`.
 * @param {string} path @param {unknown} body
 */
function offersTools(path, body) {
  return path.endsWith('/chat/completions') && isRecord(body) && Array.isArray(body.tools) && body.tools.length > 0;
}

/** @param {MockOptions} [options] @returns {Promise<ChatCompletionsMock>} */
export async function startChatCompletionsMock(options = {}) {
  const isMain = options.isMain ?? ((request) => offersTools(request.path, request.body));
  /** @type {RecordedRequest[]} */
  const requests = [];
  /** @type {readonly Step[]} */
  let steps = [];
  let next = 0;
  let counter = 0;

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function handle(req, res) {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://mock').pathname;
    const recorded = { method: req.method ?? '', path, headers: req.headers, body, main: false, step: /** @type {number | null} */ (null) };
    recorded.main = req.method === 'POST' && isMain(recorded);
    recorded.step = recorded.main && next < steps.length ? next++ : null;
    requests.push(recorded);

    if (path.endsWith('/models') && req.method === 'GET') {
      const model = { id: options.model ?? 'mock-model', object: 'model', created: 0, owned_by: 'mock' };
      return sendJson(res, 200, { object: 'list', data: [model] });
    }
    if (!path.endsWith('/chat/completions') || req.method !== 'POST') return sendJson(res, 200, {});
    const scripted = recorded.step === null ? undefined : steps[recorded.step];
    const toolCalls = (scripted?.toolCalls ?? []).map((call) => ({
      id: `call_mock_${++counter}`,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    }));
    const text = scripted ? scripted.text : DEFAULT_TEXT;
    const model = isRecord(body) && typeof body.model === 'string' ? body.model : 'mock-model';
    sendCompletion(res, { id: `chatcmpl-mock-${++counter}`, model, text, toolCalls, stream: isRecord(body) && body.stream === true });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'server_error', message: String(error) } });
      else res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('chat-completions-mock: server has no TCP address');
  const { port } = address;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    script(newSteps) {
      steps = [...newSteps];
      next = 0;
    },
    mainRequests: () => requests.filter((request) => request.main),
    unscripted: () => requests.filter((request) => request.main && request.step === null),
    lastUserText,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve(undefined)));
      }),
  };
}
