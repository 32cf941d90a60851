import { isAbsolute, relative, resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { z } from 'zod';
import { checkGates } from '../commands/check-gates.js';
import { UsageError } from '../errors.js';
import { openProject } from '../commands/open-project.js';
import { statusView } from '../commands/status-view.js';
import { recordCheckReceipt } from '../receipt/record-check-receipt.js';
import { currentReceipt } from './current-receipt.js';
import { checkSummaryShape } from './check-summary.js';
import { describeCheck } from './describe-check.js';
import { sendProgress } from './send-progress.js';
import { CHECK_DESCRIPTION, DIRECTORY_DESCRIPTION, INSTRUCTIONS, RECEIPT_DESCRIPTION, STATUS_DESCRIPTION } from './instructions.js';

export interface GateServerOptions {
  /** Where the tools look for the project when a call names no directory. */
  projectDir: string;
  env: NodeJS.ProcessEnv;
  version: string;
}

// The server validates JSON Schemas only for elicitation (asking the user for input), which gate
// never does: this stands in for the SDK's Ajv, which the build leaves out (scripts/build.mjs).
const noSchemas: jsonSchemaValidator = { getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'gate mcp validates no JSON Schema' }) };

/** `gate mcp`'s server: gate_check, gate_status and gate_receipt over the same code as `gate check`, `gate status --json` and `gate receipt`. */
export function createGateServer(options: GateServerOptions): McpServer {
  const server = new McpServer({ name: 'gate', version: options.version }, { instructions: INSTRUCTIONS, jsonSchemaValidator: noSchemas });
  const directory = z.string().optional().describe(DIRECTORY_DESCRIPTION);
  const projectAt = (dir: string | undefined) => openProject(within(options.projectDir, dir));
  // One check at a time: two runs of the same gates would write the same logs and caches.
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  server.registerTool(
    'gate_check',
    {
      title: 'Run the checks',
      description: CHECK_DESCRIPTION,
      inputSchema: { all: z.boolean().optional().describe('Run every check, not only those the changed files trigger.'), directory },
      outputSchema: checkSummaryShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    // A fault (no config, an invalid one) is thrown: the SDK hands its message back as the tool's error.
    ({ all, directory: dir }, extra) =>
      oneAtATime(async (): Promise<CallToolResult> => {
        const project = projectAt(dir);
        const progress = sendProgress(extra);
        const run = await checkGates(project, { all: all === true, names: [], env: options.env, onStart: progress.onStart, onDone: progress.onDone }).finally(progress.stop);
        const { text, summary } = describeCheck(run, project.projectDir, project.config.budget, project.config.onTimeout);
        // Every gate in full, as `gate check --all`: the receipt of this tree (docs/receipts-and-ci.md).
        const note = all === true ? await recordCheckReceipt(project, run.results) : undefined;
        return { content: [{ type: 'text', text: note ? `${text}(${note}.)\n` : text }], structuredContent: { ...summary } };
      }),
  );

  server.registerTool(
    'gate_status',
    {
      title: 'What would be checked',
      description: STATUS_DESCRIPTION,
      inputSchema: { directory },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ directory: dir }): Promise<CallToolResult> => {
      const view = await statusView(projectAt(dir), options.env);
      return { content: [{ type: 'text', text: `${JSON.stringify(view, null, 2)}\n` }], structuredContent: { ...view } };
    },
  );

  server.registerTool(
    'gate_receipt',
    {
      title: 'The receipt of this tree',
      description: RECEIPT_DESCRIPTION,
      inputSchema: { directory },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ directory: dir }): Promise<CallToolResult> => {
      const { text, json } = await currentReceipt(projectAt(dir));
      return { content: [{ type: 'text', text }], structuredContent: { ...json } };
    },
  );
  return server;
}

/**
 * The directory a call names, kept inside the one the server was started for: the tools run the
 * commands of whatever gate config they find, so the model must not point them at any folder on disk.
 */
function within(projectDir: string, dir: string | undefined): string {
  const target = resolve(projectDir, dir ?? '.');
  const path = relative(projectDir, target);
  if (path.startsWith('..') || isAbsolute(path)) throw new UsageError(`${target} is outside ${projectDir}, the directory this server was started for (gate mcp --dir DIR)`);
  return target;
}
