// Codex runs a project's hooks only when the project is trusted and each hook approved, by a hash
// of its definition kept in config.toml. `gate doctor --harness codex` asks the pinned Codex itself
// (its app-server's hooks/list) and says which of gate's hooks it would skip.
import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { vitestProject } from '../../helpers/fixtures.js';
import { runBin } from '../../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../../helpers/temp-repo.js';
import { listCodexHooks } from '../../../src/doctor/list-codex-hooks.js';
import { codexBinPath } from './codex-cli.js';

let repo: TempRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

/** A project with gate installed for Codex, and the pinned codex first on PATH with its own CODEX_HOME. */
function installed(): { project: TempRepo; env: Record<string, string>; config: string } {
  const files = vitestProject();
  delete files['gate.config.json'];
  const project = makeRepo(files, { nodeModules: 'with-gate' });
  repo = project;
  const bin = join(project.home, 'bin');
  mkdirSync(bin);
  symlinkSync(codexBinPath(), join(bin, 'codex'));
  const codexHome = join(project.home, '.codex');
  mkdirSync(codexHome);
  const config = join(codexHome, 'config.toml');
  writeFileSync(config, '');
  const env = { ...project.env, PATH: `${bin}:${project.env['PATH']}`, CODEX_HOME: codexHome };
  const init = runBin(['init', '--harness', 'codex', '--yes', '--no-check'], { cwd: project.dir, env });
  expect(init.code, init.stderr).toBe(0);
  return { project, env, config };
}

function doctor(project: TempRepo, env: Record<string, string>): string {
  return runBin(['doctor', '--harness', 'codex'], { cwd: project.dir, env, timeoutMs: 60_000 }).stdout;
}

describe('gate doctor asks Codex whether it would run gate\'s hooks', () => {
  it('says when the project is not trusted, when the hooks are not approved, when one changed since, and when all is well', async () => {
    const { project, env, config } = installed();
    expect(doctor(project, env)).toMatch(/✖ \.codex\/hooks\.json: Codex does not load it in .*: the project is not trusted/);

    appendFileSync(config, `[projects."${project.dir}"]\ntrust_level = "trusted"\n`);
    expect(doctor(project, env)).toMatch(/✖ \.codex\/hooks\.json: Codex has not approved gate's userPromptSubmit and stop hooks yet/);

    // What Codex's /hooks "trust" writes: the hash of each definition, which its hooks/list reports.
    const hashes = await listedHashes(project, env);
    for (const [key, hash] of hashes) appendFileSync(config, `\n[hooks.state."${key}"]\ntrusted_hash = "${hash}"\n`);
    expect(doctor(project, env)).toMatch(/✔ \.codex\/hooks\.json: Codex has approved gate's userPromptSubmit and stop hooks/);

    // gate init rewrites the Stop timeout when the gates change: Codex then skips it until approved again.
    const hooksFile = join(project.dir, '.codex', 'hooks.json');
    writeFileSync(hooksFile, readFileSync(hooksFile, 'utf8').replace(/"timeout": (\d+)/, (_, seconds: string) => `"timeout": ${Number(seconds) + 1}`));
    expect(doctor(project, env)).toMatch(/✖ \.codex\/hooks\.json: gate's stop hook changed since Codex approved it/);
  });
});

/** The key and current hash of each gate hook Codex lists for the project: what approving it under /hooks records. */
async function listedHashes(project: TempRepo, env: Record<string, string>): Promise<Array<[string, string]>> {
  const listing = await listCodexHooks(codexBinPath(), project.dir, env);
  if ('error' in listing) throw new Error(listing.error);
  return listing.hooks.map((hook) => [hook.key, hook.currentHash]);
}
