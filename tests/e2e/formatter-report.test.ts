import { afterEach, describe, expect, it } from 'vitest';
import { vitestProject } from '../helpers/fixtures.js';
import { promptStart, stop } from '../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// Issue 26, point 7: a formatting failure the agent can act on — the file, the change, the command.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

describe('a biome formatting failure', () => {
  it('reaches the agent with the file, the changed lines and the command that formats it', () => {
    const project = vitestProject({ gates: [{ name: 'lint', preset: 'biome' }] });
    repo = makeRepo({ ...project, 'biome.json': '{ "files": { "includes": ["src/**"] } }\n' }, { nodeModules: true });
    promptStart(repo);
    repo.write('src/extra.ts', 'export const  extra = {a:1,\n  b:2}\n');
    const result = stop(repo);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('src/extra.ts format\n  × Formatter would have printed the following content:\n  i Run `npx biome format --write src/extra.ts` to format it.\n');
    expect(result.stderr).toContain('│ - export·const··extra·=·{a:1,');
    expect(result.stderr).toContain('│ + export·const·extra·=·{·a:·1,·b:·2·};');
  });
});
