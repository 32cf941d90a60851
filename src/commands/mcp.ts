import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { UsageError } from '../errors.js';
import { createGateServer } from '../mcp/gate-server.js';
import { packageRoot } from '../package/package-root.js';

/** `gate mcp`: the gates as MCP tools over stdio, for agents with no hook that can refuse a stop. */
export async function mcpCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let dir: string | undefined;
  try {
    dir = parseArgs({ args, options: { dir: { type: 'string' } } }).values.dir;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: gate mcp [--dir DIR]`);
  }
  const server = createGateServer({ projectDir: resolve(dir ?? '.'), env, version: version() });
  // stdout now carries the protocol alone; the process lives until the client closes stdin.
  await server.connect(new StdioServerTransport());
  return 0;
}

function version(): string {
  const manifest: unknown = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest ? String(manifest.version) : 'unknown';
}
