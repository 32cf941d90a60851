import { accessSync, constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Keep in sync with VERSION in scripts/install-claude.mjs (a mismatch shows as "not installed").
export const CLAUDE_CODE_VERSION = '2.1.328';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

function platformKey(): string {
  const { platform, arch } = process;
  if (platform !== 'linux') return `${platform}-${arch}`;
  const report: unknown = process.report.getReport();
  const header = typeof report === 'object' && report !== null && 'header' in report ? report.header : null;
  const glibc = typeof header === 'object' && header !== null && 'glibcVersionRuntime' in header;
  return `linux-${arch}${glibc ? '' : '-musl'}`;
}

export function claudeBinPath(): string {
  const binName = process.platform === 'win32' ? 'claude.exe' : 'claude';
  const path = join(
    root, '.cache', 'claude-code', CLAUDE_CODE_VERSION,
    'node_modules', `@anthropic-ai/claude-code-${platformKey()}`, binName,
  );
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `Claude Code ${CLAUDE_CODE_VERSION} is not installed (no executable at ${path}): ` +
        'run node scripts/install-claude.mjs',
    );
  }
  return path;
}
