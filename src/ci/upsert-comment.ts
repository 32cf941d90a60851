import { SetupError } from '../errors.js';

/** The hidden first line of gate's comment: how a later run finds it to edit it. */
export const COMMENT_MARKER = '<!-- stopgate -->';

/** Where the comment goes: GitHub's REST API (GITHUB_API_URL), a repository and its pull request. */
export interface CommentTarget {
  apiUrl: string;
  /** `owner/name`. */
  repository: string;
  pullRequest: number;
  token: string;
}

export interface Upserted {
  action: 'created' | 'updated';
  id: number;
  url: string;
}

interface IssueComment {
  id: number;
  body?: string;
  html_url?: string;
}

/**
 * One comment per pull request, edited in place on every run: the first comment whose body starts
 * with `marker` is updated, else one is created. A pull request is an issue to this API
 * (docs.github.com/rest/issues/comments); its comments come 100 a page, in the order they were made.
 */
export async function upsertComment(target: CommentTarget, body: string, marker: string): Promise<Upserted> {
  const marked = body.startsWith(marker) ? body : `${marker}\n${body}`;
  const base = `${target.apiUrl.replace(/\/+$/, '')}/repos/${target.repository}`;
  const existing = await findComment(target, `${base}/issues/${target.pullRequest}/comments?per_page=100`, marker);
  if (existing) {
    const updated = await call<IssueComment>(target, 'PATCH', `${base}/issues/comments/${existing.id}`, { body: marked });
    return { action: 'updated', id: updated.id, url: updated.html_url ?? '' };
  }
  const created = await call<IssueComment>(target, 'POST', `${base}/issues/${target.pullRequest}/comments`, { body: marked });
  return { action: 'created', id: created.id, url: created.html_url ?? '' };
}

async function findComment(target: CommentTarget, first: string, marker: string): Promise<IssueComment | undefined> {
  let url: string | undefined = first;
  // A bound, not a limit anyone meets: 100 pages are 10,000 comments.
  for (let page = 0; url !== undefined && page < 100; page++) {
    const response = await send(target, 'GET', url);
    const comments: unknown = await response.json();
    if (!Array.isArray(comments)) throw new SetupError(`GitHub answered GET ${url} with something other than a list of comments`);
    const found = comments.find((comment: IssueComment) => typeof comment.body === 'string' && comment.body.startsWith(marker));
    if (found) return found;
    url = nextPage(response.headers.get('link'));
  }
  return undefined;
}

async function call<T>(target: CommentTarget, method: string, url: string, payload: object): Promise<T> {
  const response = await send(target, method, url, payload);
  return (await response.json()) as T;
}

async function send(target: CommentTarget, method: string, url: string, payload?: object): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${target.token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'stopgate',
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });
  } catch (error) {
    throw new SetupError(`cannot reach GitHub's API (${method} ${url}): ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    const detail = (await response.text()).slice(0, 300);
    const hint = response.status === 403 || response.status === 404 ? ' (the token needs "pull-requests: write"; a pull request from a fork gets a read-only token)' : '';
    throw new SetupError(`GitHub answered ${method} ${url} with ${response.status}${hint}: ${detail}`);
  }
  return response;
}

// The Link header (RFC 8288) names the next page: `<https://…&page=2>; rel="next", <…>; rel="last"`.
export function nextPage(link: string | null): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}
