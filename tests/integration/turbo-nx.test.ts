import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { build, run } from '../helpers/fast-tier.js';
import { useTurboNxWorkspace } from '../helpers/turbo-nx-workspace.js';

// A library change that breaks a dependent, through turbo and through Nx (tests/helpers/turbo-nx-workspace.ts).
// The tasks are node:test runs whose failure gate reads through the tools' prefixes, and that output
// changes with Node's major (TAP up to Node 22, the spec reporter from 23): this file is in the Node
// matrix. Which packages each tool runs, and their remote caches: turbo-nx-scope.test.ts.
const workspace = useTurboNxWorkspace();

describe('turbo-test: the packages holding the change and their dependents, through turbo', () => {
  it('runs the library and its dependents for a change in the library, and names the dependent it broke', async () => {
    const { repo, gate, env } = workspace.setUp('turbo-test');
    workspace.breakLib();
    const command = await build(repo.dir, gate, ['packages/lib/index.js']);
    expect(command.argv.at(-1)).toBe('--filter=...@acme/lib');
    const result = await run(repo.dir, gate, ['packages/lib/index.js'], env);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/Packages in scope: @acme\/api, @acme\/lib, @acme\/web\n/);
    workspace.expectWebBroken(filterOutput(gate.filter, result.output));
    expect(filterOutput(gate.filter, result.output).summary).toContain('Failed: @acme/web#test');
    expect(workspace.gitQueries()).toEqual([]);
  });
});

describe("nx-test: the projects holding the change and their dependents, from Nx's project graph", () => {
  it('runs the library and the projects that depend on it, and names the dependent it broke', async () => {
    const { repo, gate, env } = workspace.setUp('nx-test');
    workspace.breakLib();
    const command = await build(repo.dir, gate, ['packages/lib/index.js']);
    expect(command.argv.at(-1)).toBe('--projects=@acme/api,@acme/lib,@acme/web');
    const result = await run(repo.dir, gate, ['packages/lib/index.js'], env);
    expect(result.status).toBe('failed');
    expect(result.output.match(/> nx run \S+/g)?.sort()).toEqual(['> nx run @acme/api:test', '> nx run @acme/lib:test', '> nx run @acme/web:test']);
    workspace.expectWebBroken(filterOutput(gate.filter, result.output));
    expect(filterOutput(gate.filter, result.output).summary).toContain('Failed tasks: @acme/web:test');
    expect(readFileSync(workspace.gitLog, 'utf8')).toBe('');
  });
});
