// A scripted stand-in for the Anthropic Messages API, for driving the real Claude Code CLI offline.
// Plain JavaScript so that scripts/demo.mjs can use it too; its types are in mock-anthropic.d.mts.
import { createServer } from 'node:http';

/** @typedef {import('./mock-anthropic.d.mts').Step} Step */
/** @typedef {import('./mock-anthropic.d.mts').RecordedRequest} RecordedRequest */
/** @typedef {import('./mock-anthropic.d.mts').MockAnthropic} MockAnthropic */
/**
 * @typedef {{ type: 'text', text: string }
 *   | { type: 'tool_use', id: string, name: string, input: Record<string, unknown> }} Block
 */

const DEFAULT_TEXT = 'OK.';

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @param {Record<string, unknown>} body */
function systemText(body) {
  const { system } = body;
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) return '';
  return system.map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : '')).join('\n');
}

// Measured on 2.1.328: side requests (subagents, prompt hooks, titles, quota checks, summaries) are
// marked by an agent-id header / cc_is_subagent, no tools, max_tokens 1, or a structured-output format;
// some (prompt hooks) reuse the main system prompt and history, so the system prompt alone can't tell.
/** @param {string} path @param {import('node:http').IncomingHttpHeaders} headers @param {unknown} body */
function isMainRequest(path, headers, body) {
  return isAgentTurn(path, body) && !isSubagent(headers, body);
}

/**
 * A model call of an agent working with its tools: the main conversation's, or a subagent's.
 * @param {string} path @param {unknown} body
 */
function isAgentTurn(path, body) {
  if (path !== '/v1/messages' || !isRecord(body)) return false;
  if (!Array.isArray(body.tools) || body.tools.length === 0) return false;
  if (typeof body.max_tokens === 'number' && body.max_tokens <= 1) return false;
  const outputConfig = body.output_config;
  return !(isRecord(outputConfig) && outputConfig.format !== undefined) && body.output_format === undefined;
}

/** @param {import('node:http').IncomingHttpHeaders} headers @param {Record<string, unknown>} body */
function isSubagent(headers, body) {
  return headers['x-claude-code-agent-id'] !== undefined || systemText(body).includes('cc_is_subagent=true');
}

/** @param {unknown} content @returns {string[]} */
function textOf(content) {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block) => {
    if (!isRecord(block)) return [];
    if (block.type === 'text' && typeof block.text === 'string') return [block.text];
    if (block.type === 'tool_result') return textOf(block.content);
    return [];
  });
}

/** @param {RecordedRequest | undefined} request @returns {unknown[]} */
function messagesOf(request) {
  return request && isRecord(request.body) && Array.isArray(request.body.messages) ? request.body.messages : [];
}

/**
 * All text of the last user message of a request (text blocks and tool_result contents), joined.
 * @param {RecordedRequest | undefined} request
 */
export function lastUserText(request) {
  const lastUser = messagesOf(request).filter((message) => isRecord(message) && message.role === 'user').at(-1);
  return isRecord(lastUser) ? textOf(lastUser.content).join('\n') : '';
}

/**
 * Every text a request carries in its messages (all roles), in order: to check what the model never saw.
 * @param {RecordedRequest | undefined} request
 */
export function allMessageText(request) {
  return messagesOf(request).flatMap((message) => (isRecord(message) ? textOf(message.content) : [])).join('\n');
}

// Side requests that demand structured output (e.g. a prompt hook's {ok, reason}) get a value that fits.
/** @param {unknown} schema @returns {unknown} */
function sampleFor(schema) {
  if (!isRecord(schema)) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : Object.keys(properties);
      return Object.fromEntries(Object.entries(properties)
        .filter(([key]) => required.includes(key))
        .map(([key, value]) => [key, sampleFor(value)]));
    }
    case 'array': return [];
    case 'string': return DEFAULT_TEXT;
    case 'boolean': return true;
    case 'number': case 'integer': return 0;
    default: return null;
  }
}

/** @param {unknown} body */
function sideText(body) {
  if (!isRecord(body)) return DEFAULT_TEXT;
  const format = isRecord(body.output_config) ? body.output_config.format : body.output_format;
  return isRecord(format) && isRecord(format.schema) ? JSON.stringify(sampleFor(format.schema)) : DEFAULT_TEXT;
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value */
function sendJson(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/**
 * @param {import('node:http').ServerResponse} res @param {string} id @param {string} model
 * @param {Block[]} blocks @param {boolean} stream
 */
function sendMessage(res, id, model, blocks, stream) {
  const stopReason = blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id, type: 'message', role: 'assistant', model, stop_sequence: null };
  if (!stream) {
    sendJson(res, 200, { ...message, content: blocks, stop_reason: stopReason, usage });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  /** @param {string} type @param {Record<string, unknown>} data */
  const event = (type, data) => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  event('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      event('content_block_start', { index, content_block: { ...block, input: {} } });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage });
  event('message_stop', {});
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

/** @returns {Promise<MockAnthropic>} */
export async function startMockAnthropic() {
  /** @type {RecordedRequest[]} */
  const requests = [];
  /** @type {readonly Step[]} */
  let steps = [];
  let next = 0;
  /** @type {readonly Step[]} */
  let subagentSteps = [];
  let nextSubagent = 0;
  let counter = 0;

  /** @param {Step} step @returns {Block[]} */
  function blocksFor(step) {
    /** @type {Block[]} */
    const blocks = [];
    if (step.text !== undefined) blocks.push({ type: 'text', text: step.text });
    if (step.toolUse) blocks.push({ type: 'tool_use', id: `toolu_mock_${++counter}`, ...step.toolUse });
    return blocks;
  }

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function handle(req, res) {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://mock').pathname;
    const main = isMainRequest(path, req.headers, body);
    const subagent = !main && isAgentTurn(path, body) && isRecord(body) && isSubagent(req.headers, body);
    const step = main && next < steps.length ? next++ : null;
    const subagentStep = subagent && nextSubagent < subagentSteps.length ? nextSubagent++ : null;
    requests.push({ method: req.method ?? '', path, headers: req.headers, body, main, subagent, step });

    if (path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: 10 });
    if (path !== '/v1/messages' || req.method !== 'POST') return sendJson(res, 200, {});
    const scripted = step !== null ? steps[step] : subagentStep !== null ? subagentSteps[subagentStep] : undefined;
    /** @type {Block} */
    const fallback = { type: 'text', text: main ? DEFAULT_TEXT : sideText(body) };
    // A step may hold its answer until something outside happened (the model "thinking" meanwhile).
    if (scripted?.before) await scripted.before();
    const blocks = scripted ? blocksFor(scripted) : [fallback];
    const model = isRecord(body) && typeof body.model === 'string' ? body.model : 'claude-mock';
    sendMessage(res, `msg_mock_${++counter}`, model, blocks, isRecord(body) && body.stream === true);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: String(error) } });
      else res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('mock-anthropic: server has no TCP address');
  const { port } = address;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script(newSteps) {
      steps = [...newSteps];
      next = 0;
    },
    scriptSubagent(newSteps) {
      subagentSteps = [...newSteps];
      nextSubagent = 0;
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
