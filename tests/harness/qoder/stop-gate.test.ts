// gate under Qoder CLI. qodercli 1.1.52 runs no turn without a Qoder account (its model traffic goes
// only to Qoder's own service), so no mock model can drive it here (docs/harness-qoder.md). What is
// tested: that this is still so on the pinned CLI, and gate's hook run the way qodercli 1.1.52's hook
// runner runs it (read in its bundle): `bash -c COMMAND` in the project, QODER_PROJECT_DIR and
// CLAUDE_PROJECT_DIR set, the payload on stdin, and the answer read by Qoder's rules (`qoderReads`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliVersion } from '../../../scripts/cli-versions.mjs';
import { SUM_BROKEN, SUM_STILL_BROKEN, vitestProject } from '../../helpers/fixtures.js';
import { runBin } from '../../helpers/run-bin.js';
import { makeRepo, type TempRepo } from '../../helpers/temp-repo.js';

const QODER_VERSION = cliVersion('qoder');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function qoderEntryPath(): string {
  const entry = join(ROOT, '.cache', 'qodercli', QODER_VERSION, 'node_modules', '@qoder-ai', 'qodercli', 'bundle', 'qodercli.js');
  if (!existsSync(entry)) throw new Error(`Qoder CLI ${QODER_VERSION} is not installed: run node scripts/install-qoder.mjs`);
  return entry;
}

/**
 * What qodercli 1.1.52 makes of a Stop hook's exit (HookRunner.executeCommandHook and the after-turn
 * handler): exit 0 parses stdout as JSON (a `decision` of block/deny blocks with `reason`, a
 * `systemMessage` goes to the human); exit 2 blocks with `stderr.trim()` as the reason and stdout
 * unread; any other exit is a warning in the log, no block.
 */
function qoderReads(code: number | null, stdout: string, stderr: string): { blocked: boolean; model?: string; human?: string } {
  if (code === 2) return { blocked: true, model: stderr.trim() || 'Hook blocked with exit code 2' };
  if (code !== 0 || stdout.trim() === '') return { blocked: false };
  const answer = JSON.parse(stdout.trim()) as { decision?: string; reason?: string; systemMessage?: string };
  const blocked = answer.decision === 'block' || answer.decision === 'deny';
  return { blocked, ...(blocked ? { model: answer.reason ?? 'No reason provided' } : {}), ...(answer.systemMessage === undefined ? {} : { human: answer.systemMessage }) };
}

let repo: TempRepo | undefined;
afterEach(() => {
  repo?.cleanup();
  repo = undefined;
});

function project(): TempRepo {
  repo = makeRepo(vitestProject(), { nodeModules: 'with-gate' });
  const init = runBin(['init', '--harness', 'qoder', '--yes'], { cwd: repo.dir, env: repo.env });
  expect(init.code, init.stderr).toBe(0);
  repo.commit('gate for qoder');
  return repo;
}

/** One hook call as Qoder makes it, with the command init wrote for the event. */
function fire(r: TempRepo, event: 'Stop' | 'UserPromptSubmit', extra: Record<string, unknown> = {}): ReturnType<typeof qoderReads> & { code: number | null } {
  const settings = JSON.parse(readFileSync(join(r.dir, '.qoder', 'settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  const command = settings.hooks[event]?.[0]?.hooks[0]?.command ?? '';
  const payload = { session_id: 'qoder-session-1', transcript_path: join(r.home, '.qoder', 'projects', 'x', 'qoder-session-1.jsonl'), cwd: r.dir, hook_event_name: event, ...extra };
  const run = spawnSync('bash', ['-c', command], {
    cwd: r.dir,
    env: { ...r.env, QODER_PROJECT_DIR: r.dir, CLAUDE_PROJECT_DIR: r.dir },
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: run.status, ...qoderReads(run.status, run.stdout, run.stderr) };
}

const stopEvent = (active: boolean) => ({ stop_hook_active: active, last_assistant_message: 'Done.' });

describe(`Qoder CLI ${QODER_VERSION} offline`, () => {
  it('runs no turn without a Qoder account, so no hook runs: the reason gate under Qoder is not driven end to end here', () => {
    const r = project();
    const log = join(r.home, 'hook-ran');
    const settings = JSON.parse(readFileSync(join(r.dir, '.qoder', 'settings.json'), 'utf8')) as { hooks: Record<string, unknown[]> };
    settings.hooks['SessionStart'] = [{ hooks: [{ type: 'command', command: `touch ${log}` }] }];
    writeFileSync(join(r.dir, '.qoder', 'settings.json'), JSON.stringify(settings));
    const run = spawnSync(process.execPath, [qoderEntryPath(), '-p', 'Say hi.'], { cwd: r.dir, env: r.env, encoding: 'utf8', timeout: 90_000 });
    // When this fails, the pinned Qoder runs offline: drive it against a mock model and update docs/harness-qoder.md.
    expect(`${run.stdout}${run.stderr}`).toContain('Not logged in');
    expect(run.status).toBe(1);
    expect(existsSync(log)).toBe(false);
  });
});

describe(`gate as the Stop hook of Qoder CLI ${QODER_VERSION}, run as its hook runner runs it`, () => {
  it('init writes Stop and UserPromptSubmit into .qoder/settings.json; a breaking edit is refused once with the whole report, then an unchanged stop goes through', () => {
    const r = project();
    const settings = JSON.parse(readFileSync(join(r.dir, '.qoder', 'settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>> };
    expect(settings.hooks['Stop']?.[0]?.hooks[0]).toEqual({ type: 'command', command: '"$QODER_PROJECT_DIR"/node_modules/.bin/gate run --harness qoder', timeout: expect.any(Number) });
    expect(settings.hooks['UserPromptSubmit']?.[0]?.hooks[0]?.timeout).toBe(30);

    expect(fire(r, 'UserPromptSubmit', { prompt: 'Refactor sum.' })).toMatchObject({ code: 0, blocked: false });
    r.write('src/sum.ts', SUM_BROKEN);
    const first = fire(r, 'Stop', stopEvent(false));
    expect(first).toMatchObject({ code: 2, blocked: true });
    // What the model is sent: the report, once, starting with gate's header line.
    expect(first.model).toMatch(/^gate: 1 of \d+ checks? failed \(test\)/);
    expect(first.model?.match(/adds two numbers/g)).toHaveLength(1);
    expect(first.model).toContain('src/sum.test.ts');

    const again = fire(r, 'Stop', stopEvent(true));
    expect(again).toMatchObject({ code: 0, blocked: false });
    expect(again.human).toContain('without changing anything since it was blocked');
  });

  it('lets the stop through after maxBlocks blocks in a row and tells the human', () => {
    const r = project();
    fire(r, 'UserPromptSubmit', { prompt: 'Refactor sum.' });
    const blocked: boolean[] = [];
    for (const [k, body] of [SUM_BROKEN, SUM_STILL_BROKEN, SUM_BROKEN.replace('a - b', 'b - a'), SUM_STILL_BROKEN.replace('a * b', 'a * b * 1')].entries()) {
      r.write('src/sum.ts', body);
      const stop = fire(r, 'Stop', stopEvent(k > 0));
      blocked.push(stop.blocked);
      if (k === 3) expect(stop.human).toContain('gate: let the turn end after 3 blocked stops in a row; still failing: test.');
    }
    expect(blocked).toEqual([true, true, true, false]);
  });

  it("passes doctor's delivery probe: exit 2 with the report on stderr", () => {
    const r = project();
    const doctor = runBin(['doctor', '--harness', 'qoder'], { cwd: r.dir, env: r.env });
    expect(doctor.stdout).toMatch(/✔ delivery probe: .* refused the way qoder needs \(exit 2, the report on stderr\)/);
  });
});
