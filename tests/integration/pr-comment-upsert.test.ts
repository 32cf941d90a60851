import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMMENT_MARKER, nextPage } from '../../src/ci/upsert-comment.js';
import { prCommentCommand } from '../../src/commands/pr-comment.js';

// Issue 41: the Action keeps one comment on the pull request. GitHub cannot be reached from here, so
// the REST endpoints the upsert uses (list an issue's comments, page by page; create; edit) are
// played by a server on 127.0.0.1, and the test asserts what it received.
interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  apiVersion: string | undefined;
  body: unknown;
}

interface Comment {
  id: number;
  body: string;
  html_url: string;
}

let server: Server;
let api: string;
let received: Received[] = [];
let comments: Comment[] = [];
let refuse: number | undefined;
const dir = mkdtempSync(join(tmpdir(), 'gate-pr-comment-'));

async function readBody(request: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text === '' ? undefined : JSON.parse(text);
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', api);
    const body = await readBody(request);
    received.push({ method: request.method ?? '', url: `${url.pathname}${url.search}`, authorization: request.headers.authorization, apiVersion: request.headers['x-github-api-version'] as string | undefined, body });
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(payload));
    };
    if (refuse !== undefined) return send(refuse, { message: 'Resource not accessible by integration' });
    const list = /^\/repos\/acme\/shop\/issues\/7\/comments$/.exec(url.pathname);
    if (list && request.method === 'GET') {
      // 2 a page here, as GitHub pages 100: the comment to find is past the first page.
      const page = Number(url.searchParams.get('page') ?? '1');
      const last = Math.max(1, Math.ceil(comments.length / 2));
      const link: Record<string, string> = page < last ? { link: `<${api}/repos/acme/shop/issues/7/comments?per_page=100&page=${page + 1}>; rel="next", <${api}/repos/acme/shop/issues/7/comments?per_page=100&page=${last}>; rel="last"` } : {};
      return send(200, comments.slice((page - 1) * 2, page * 2), link);
    }
    if (list && request.method === 'POST') {
      const made = { id: 900 + comments.length, body: (body as { body: string }).body, html_url: `https://github.test/acme/shop/pull/7#issuecomment-${900 + comments.length}` };
      comments.push(made);
      return send(201, made);
    }
    const edit = /^\/repos\/acme\/shop\/issues\/comments\/(\d+)$/.exec(url.pathname);
    const target = comments.find((comment) => comment.id === Number(edit?.[1]));
    if (edit && target && request.method === 'PATCH') {
      target.body = (body as { body: string }).body;
      return send(200, target);
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  received = [];
  refuse = undefined;
  comments = [
    { id: 1, body: 'LGTM', html_url: '' },
    { id: 2, body: `quoting the bot:\n> ${COMMENT_MARKER}`, html_url: '' },
    { id: 3, body: 'one more thing', html_url: '' },
  ];
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const event = join(dir, 'event.json');
  writeFileSync(event, JSON.stringify({ action: 'synchronize', pull_request: { number: 7 } }));
  return { GITHUB_TOKEN: 'ghs_test', GITHUB_REPOSITORY: 'acme/shop', GITHUB_API_URL: api, GITHUB_EVENT_PATH: event, ...extra };
}

function bodyFile(text: string): string {
  const path = join(dir, 'comment.md');
  writeFileSync(path, text);
  return path;
}

describe('gate pr-comment against a mock of GitHub', () => {
  it('creates the comment on the first run, after reading every page, and edits that one comment on the next', async () => {
    expect(await prCommentCommand([bodyFile(`${COMMENT_MARKER}\n### gate ci: ❌ FAIL\n`)], env())).toBe(0);
    expect(received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /repos/acme/shop/issues/7/comments?per_page=100',
      'GET /repos/acme/shop/issues/7/comments?per_page=100&page=2',
      'POST /repos/acme/shop/issues/7/comments',
    ]);
    expect(received.every((request) => request.authorization === 'Bearer ghs_test' && request.apiVersion === '2022-11-28')).toBe(true);
    expect(received[2]?.body).toEqual({ body: `${COMMENT_MARKER}\n### gate ci: ❌ FAIL\n` });

    received = [];
    expect(await prCommentCommand([bodyFile(`${COMMENT_MARKER}\n### gate ci: ✅ PASS\n`)], env())).toBe(0);
    expect(received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /repos/acme/shop/issues/7/comments?per_page=100',
      'GET /repos/acme/shop/issues/7/comments?per_page=100&page=2',
      'PATCH /repos/acme/shop/issues/comments/903',
    ]);
    expect(received[2]?.body).toEqual({ body: `${COMMENT_MARKER}\n### gate ci: ✅ PASS\n` });
    // One comment of gate's, edited; a comment quoting the marker is not taken for it.
    expect(comments.filter((comment) => comment.body.startsWith(COMMENT_MARKER))).toHaveLength(1);
    expect(comments.map((comment) => comment.id)).toEqual([1, 2, 3, 903]);
  });

  it('--pr names the pull request; the marker is added to a body that lacks it', async () => {
    expect(await prCommentCommand([bodyFile('plain'), '--pr', '7'], env({ GITHUB_EVENT_PATH: '' }))).toBe(0);
    expect(received.at(-1)).toMatchObject({ method: 'POST', body: { body: `${COMMENT_MARKER}\nplain` } });
  });

  it('does nothing outside a pull request, and says why GitHub refused', async () => {
    const push = join(dir, 'push.json');
    writeFileSync(push, JSON.stringify({ ref: 'refs/heads/main' }));
    expect(await prCommentCommand([bodyFile('x')], env({ GITHUB_EVENT_PATH: push }))).toBe(0);
    expect(received).toEqual([]);

    refuse = 403;
    await expect(prCommentCommand([bodyFile('x')], env())).rejects.toThrow(/GitHub answered GET .* with 403 \(the token needs "pull-requests: write"/);
    await expect(prCommentCommand([bodyFile('x')], env({ GITHUB_TOKEN: '' }))).rejects.toThrow(/needs a token in GITHUB_TOKEN/);
    await expect(prCommentCommand([], env())).rejects.toThrow(/takes one file/);
  });

  it('reads the next page from the Link header', () => {
    expect(nextPage('<https://x/c?page=3>; rel="next", <https://x/c?page=9>; rel="last"')).toBe('https://x/c?page=3');
    expect(nextPage('<https://x/c?page=1>; rel="prev"')).toBeUndefined();
    expect(nextPage(null)).toBeUndefined();
  });
});
