import { fastHash } from '../hash/fast-hash.js';

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** A session id becomes a file name only when it is plainly safe; anything else is hashed. */
export function sessionFileName(sessionId: string | undefined): string {
  if (sessionId === undefined) return 'no-session';
  if (SAFE_ID.test(sessionId) && sessionId !== '.' && sessionId !== '..') return sessionId;
  return `h-${fastHash(sessionId)}${fastHash(`${sessionId}\0${sessionId.length}`)}`;
}
