// A scripted stand-in for the Gemini API (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
// and `:generateContent`), for driving the real Gemini CLI offline. Same surface as
// ../chat-completions-mock.mjs, so the shared scenarios run on it; its types are in mock-gemini.d.mts.
import { createServer } from 'node:http';

const DEFAULT_TEXT = 'OK.';

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @param {unknown} body @returns {unknown[]} */
function contentsOf(body) {
  return isRecord(body) && Array.isArray(body.contents) ? body.contents : [];
}

/** The texts of one content's parts: text parts, and what a tool returned (functionResponse). @param {unknown} content */
function partTexts(content) {
  if (!isRecord(content) || !Array.isArray(content.parts)) return [];
  return content.parts.flatMap((part) => {
    if (!isRecord(part)) return [];
    if (typeof part.text === 'string' && part.thought !== true) return [part.text];
    if (isRecord(part.functionResponse)) return [JSON.stringify(part.functionResponse.response ?? null)];
    return [];
  });
}

/**
 * Everything after the model's last turn (the user's text and tool results), joined: where Gemini
 * CLI puts an AfterAgent hook's reason.
 * @param {import('./mock-gemini.d.mts').RecordedRequest | undefined} request
 */
export function lastUserText(request) {
  const contents = contentsOf(request?.body);
  const lastModel = contents.findLastIndex((content) => isRecord(content) && content.role === 'model');
  return contents.slice(lastModel + 1).flatMap(partTexts).join('\n');
}

/** @param {import('./mock-gemini.d.mts').RecordedRequest | undefined} request */
export function allMessageText(request) {
  return contentsOf(request?.body).flatMap(partTexts).join('\n');
}

/**
 * The agent's own calls offer its tools; helpers (next-speaker checks, summaries, loop detection)
 * ask for JSON or offer none.
 * @param {string} path @param {unknown} body
 */
function isMainCall(path, body) {
  if (!/:(stream)?[gG]enerateContent$/.test(path) || !isRecord(body)) return false;
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  if (config.responseJsonSchema !== undefined || config.responseSchema !== undefined) return false;
  return Array.isArray(body.tools) && body.tools.some((tool) => isRecord(tool) && Array.isArray(tool.functionDeclarations) && tool.functionDeclarations.length > 0);
}

// Helpers that ask for JSON get a value that fits; a next-speaker check is told the user speaks next.
/** @param {unknown} schema @returns {unknown} */
function sampleFor(schema) {
  if (!isRecord(schema)) return null;
  if (Array.isArray(schema.enum)) return schema.enum.includes('user') ? 'user' : schema.enum[0];
  switch (String(schema.type).toLowerCase()) {
    case 'object': {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, sampleFor(value)]));
    }
    case 'array': return [];
    case 'string': return DEFAULT_TEXT;
    case 'boolean': return false;
    case 'number': case 'integer': return 0;
    default: return null;
  }
}

/** @param {unknown} body */
function sideText(body) {
  const config = isRecord(body) && isRecord(body.generationConfig) ? body.generationConfig : {};
  const schema = config.responseJsonSchema ?? config.responseSchema;
  return schema === undefined ? DEFAULT_TEXT : JSON.stringify(sampleFor(schema));
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value */
function sendJson(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
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

/** @returns {Promise<import('./mock-gemini.d.mts').GeminiMock>} */
export async function startGeminiMock() {
  /** @type {import('./mock-gemini.d.mts').RecordedRequest[]} */
  const requests = [];
  /** @type {readonly import('./mock-gemini.d.mts').Step[]} */
  let steps = [];
  let next = 0;

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function handle(req, res) {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://mock');
    const path = url.pathname;
    const main = req.method === 'POST' && isMainCall(path, body);
    const step = main && next < steps.length ? next++ : null;
    requests.push({ method: req.method ?? '', path, headers: req.headers, body, main, step });

    if (path.endsWith(':countTokens')) return sendJson(res, 200, { totalTokens: 10 });
    if (!/:(stream)?[gG]enerateContent$/.test(path) || req.method !== 'POST') return sendJson(res, 404, { error: { code: 404, message: `mock-gemini: no ${req.method} ${path}`, status: 'NOT_FOUND' } });
    const scripted = step === null ? undefined : steps[step];
    /** @type {Array<Record<string, unknown>>} */
    const parts = [];
    if (scripted?.text !== undefined) parts.push({ text: scripted.text });
    for (const call of scripted?.toolCalls ?? []) parts.push({ functionCall: { name: call.name, args: call.arguments } });
    if (parts.length === 0) parts.push({ text: main ? DEFAULT_TEXT : sideText(body) });
    const model = decodeURIComponent(path.split('/').at(-1)?.split(':')[0] ?? 'gemini-mock');
    const answer = {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: model,
    };
    if (path.endsWith(':generateContent')) return sendJson(res, 200, answer);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`data: ${JSON.stringify(answer)}\n\n`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) sendJson(res, 500, { error: { code: 500, message: String(error), status: 'INTERNAL' } });
      else res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('mock-gemini: server has no TCP address');
  const { port } = address;

  return {
    url: `http://127.0.0.1:${port}`,
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
