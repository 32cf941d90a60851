import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { COMMENT_MARKER, upsertComment } from '../ci/upsert-comment.js';
import { SetupError, UsageError } from '../errors.js';

export const PR_COMMENT_USAGE = 'usage: gate pr-comment FILE [--pr N]';

/**
 * `gate pr-comment FILE`: the body `gate ci --comment FILE` wrote, as the pull request's one gate
 * comment, edited in place (the GitHub Action runs it). Reads GITHUB_TOKEN (or GH_TOKEN),
 * GITHUB_REPOSITORY, GITHUB_API_URL, and the pull request's number from --pr or the event
 * (GITHUB_EVENT_PATH). Not a pull request: nothing to do, exit 0.
 */
export async function prCommentCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { file, pr } = parsePrCommentArgs(args);
  const pullRequest = pr ?? pullRequestOfEvent(env['GITHUB_EVENT_PATH']);
  if (pullRequest === undefined) {
    process.stdout.write('gate pr-comment: not a pull request (no --pr, and the event names none): no comment\n');
    return 0;
  }
  const token = env['GITHUB_TOKEN'] || env['GH_TOKEN'];
  if (!token) throw new SetupError('gate pr-comment needs a token in GITHUB_TOKEN (the Action passes its github-token input)');
  const repository = env['GITHUB_REPOSITORY'];
  if (!repository || !/^[\w.-]+\/[\w.-]+$/.test(repository)) throw new SetupError(`gate pr-comment needs GITHUB_REPOSITORY as owner/name, got "${repository ?? ''}"`);
  let body: string;
  try {
    body = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SetupError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const target = { apiUrl: env['GITHUB_API_URL'] || 'https://api.github.com', repository, pullRequest, token };
  const done = await upsertComment(target, body, COMMENT_MARKER);
  process.stdout.write(`gate pr-comment: ${done.action} comment ${done.id}${done.url ? ` (${done.url})` : ''}\n`);
  return 0;
}

function pullRequestOfEvent(path: string | undefined): number | undefined {
  if (!path) return undefined;
  let event: unknown;
  try {
    event = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null) return undefined;
  const record = event as Record<string, unknown>;
  // pull_request and pull_request_target carry the pull request; an issue_comment on one carries it as the issue.
  const issue = record['issue'] as Record<string, unknown> | undefined;
  const source = (record['pull_request'] ?? (issue?.['pull_request'] ? issue : undefined)) as Record<string, unknown> | undefined;
  const number = source?.['number'];
  return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}

function parsePrCommentArgs(args: string[]): { file: string; pr: number | undefined } {
  let parsed: { values: { pr?: string }; positionals: string[] };
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { pr: { type: 'string' } } });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${PR_COMMENT_USAGE}`);
  }
  const [file, ...rest] = parsed.positionals;
  if (file === undefined || rest.length > 0) throw new UsageError(`gate pr-comment takes one file; ${PR_COMMENT_USAGE}`);
  const { pr } = parsed.values;
  if (pr !== undefined && !/^[1-9]\d*$/.test(pr)) throw new UsageError(`--pr is a pull request's number, got "${pr}"; ${PR_COMMENT_USAGE}`);
  return { file, pr: pr === undefined ? undefined : Number(pr) };
}
