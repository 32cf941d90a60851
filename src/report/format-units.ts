/** 85ms · 12.4s · 2m05s */
export function formatMs(ms: number): string {
  if (Math.round(ms) < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** An ISO time to the second, as recorded (UTC): 2025-05-01T10:00:00Z. */
export function formatTime(iso: string): string {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.\d+)?Z$/.exec(iso);
  return match ? `${match[1]}Z` : iso;
}

/** Session file names are often UUIDs: their first 8 characters tell them apart. */
export function shortSession(session: string): string {
  return session.length <= 12 ? session : session.slice(0, 8);
}

export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
