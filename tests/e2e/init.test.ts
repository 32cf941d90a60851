import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SUM_BROKEN, vitestProject } from '../helpers/fixtures.js';
import { hookPayload, runBin } from '../helpers/run-bin.js';
import { copyRepo, makeRepo, type TempRepo } from '../helpers/temp-repo.js';

// --no-check: these tests are about what init writes; running the gates once is tests/e2e/init-red-gates.test.ts's.
let repo: TempRepo;
afterEach(() => repo?.cleanup());

/** A repo as `npm i -D stopgate` leaves it, with no gate config yet. */
function freshProject(extra: Record<string, string> = {}, name?: string): TempRepo {
  const files = vitestProject();
  delete files['gate.config.json'];
  const manifest = JSON.parse(files['package.json'] ?? '{}');
  manifest.devDependencies.stopgate = '0.1.0';
  files['package.json'] = JSON.stringify(manifest, null, 2);
  return makeRepo({ ...files, ...extra }, { nodeModules: 'with-gate', name });
}

// A fresh project after `gate init --yes --no-check` (init ends with doctor's delivery probe, a real
// stop): made once, at the first test that needs it, and copied for each.
let initialized: TempRepo | undefined;
afterAll(() => initialized?.cleanup());
function initializedProject(): TempRepo {
  if (!initialized) {
    initialized = freshProject();
    runBin(['init', '--yes', '--no-check'], { cwd: initialized.dir, env: initialized.env });
  }
  return copyRepo(initialized);
}

const read = (path: string) => readFileSync(join(repo.dir, path), 'utf8');
const gate = (args: string[], cwd = repo.dir) => runBin(args, { cwd, env: repo.env });

/** Runs a hook entry's command the way Claude Code does: /bin/sh, CLAUDE_PROJECT_DIR, agent's cwd. */
function runHookCommand(command: string, event: 'Stop' | 'UserPromptSubmit', cwd: string) {
  return spawnSync('/bin/sh', ['-c', command], {
    cwd,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir },
    input: hookPayload(event, 'session-1', cwd),
    encoding: 'utf8',
  });
}

describe('gate init (team)', () => {
  it('detects the tools, writes the config and both hooks, and a stop through that exact command blocks — from a path with spaces, after the agent cd-ed away', () => {
    repo = freshProject({}, 'my project');
    const result = gate(['init', '--yes', '--no-check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/test +preset vitest: package\.json devDependencies has vitest/);
    expect(result.stdout).toMatch(/typecheck +preset tsc: tsconfig\.json is present/);
    expect(JSON.parse(read('gate.config.json'))).toEqual({
      $schema: './node_modules/stopgate/schema.json',
      maxBlocks: 3,
      gates: [
        { name: 'test', preset: 'vitest' },
        { name: 'typecheck', preset: 'tsc' },
      ],
    });
    const settings = JSON.parse(read('.claude/settings.json'));
    const command = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate run';
    expect(settings.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command, timeout: 510, statusMessage: 'gate: checking test, typecheck' }] }]);
    expect(settings.hooks.UserPromptSubmit).toEqual([{ hooks: [{ type: 'command', command, timeout: 30 }] }]);
    expect(settings.hooks.PostToolUse).toEqual([{ matcher: 'Edit|Write|MultiEdit', hooks: [{ type: 'command', command, timeout: 10 }] }]);

    expect(runHookCommand(command, 'UserPromptSubmit', repo.dir).status).toBe(0);
    repo.write('src/sum.ts', SUM_BROKEN);
    const blocked = runHookCommand(command, 'Stop', join(repo.dir, 'src'));
    expect(blocked.status).toBe(2);
    expect(blocked.stderr).toContain('expected -1 to be 3');
  });

  it('is idempotent: a second run changes no byte', () => {
    repo = initializedProject();
    const first = [read('gate.config.json'), read('.claude/settings.json')];
    const again = gate(['init', '--yes', '--no-check']);
    expect(again.stdout).toMatch(/Nothing to change: gate is already installed here/);
    expect([read('gate.config.json'), read('.claude/settings.json')]).toEqual(first);
  });

  it('without a terminal and without --yes, and with --dry-run, shows the plan as a diff and writes nothing', () => {
    repo = freshProject();
    const plain = gate(['init']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/\+\+\+ b\/\.claude\/settings\.json/);
    expect(plain.stdout).toMatch(/To apply this plan: gate init --yes/);
    const dry = gate(['init', '--dry-run']);
    expect(dry.stdout).toMatch(/--dry-run: nothing was written/);
    expect(existsSync(join(repo.dir, 'gate.config.json'))).toBe(false);
    expect(existsSync(join(repo.dir, '.claude'))).toBe(false);
  });

  it('keeps an existing config as it is and says which gates it has', () => {
    repo = freshProject({ 'gate.config.json': '{"gates":[{"name":"unit","run":"vitest run"}]}' });
    const result = gate(['init', '--yes', '--no-check']);
    expect(result.stdout).toMatch(/gate\.config\.json exists and is kept as it is; its gates: unit/);
    expect(read('gate.config.json')).toBe('{"gates":[{"name":"unit","run":"vitest run"}]}');
    expect(JSON.parse(read('.claude/settings.json')).hooks.Stop[0].hooks[0].timeout).toBe(330);
  });

  it('merges into an existing settings file, keeping its keys, its hooks and its 4-space indentation', () => {
    const existing = '{\n    "permissions": {\n        "allow": ["Bash(npm test)"]\n    },\n    "hooks": {\n        "Stop": [\n            {\n                "hooks": [\n                    {\n                        "type": "command",\n                        "command": "./scripts/notify.sh"\n                    }\n                ]\n            }\n        ]\n    }\n}\n';
    repo = freshProject({ '.claude/settings.json': existing });
    gate(['init', '--yes', '--no-check']);
    const text = read('.claude/settings.json');
    expect(text.startsWith('{\n    "permissions": {\n        "allow": ["Bash(npm test)"]\n    },')).toBe(true);
    const stop = JSON.parse(text).hooks.Stop;
    expect(stop).toHaveLength(2);
    expect(stop[0]).toEqual({ hooks: [{ type: 'command', command: './scripts/notify.sh' }] });
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('refuses an invalid settings file, naming it and the position, and leaves it untouched', () => {
    const broken = '{\n  "hooks": {},\n}\n';
    repo = freshProject({ '.claude/settings.json': broken });
    const result = gate(['init', '--yes', '--no-check']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/\.claude\/settings\.json, line 2, column \d+: .*trailing comma.*left untouched/);
    expect(read('.claude/settings.json')).toBe(broken);
    expect(existsSync(join(repo.dir, 'gate.config.json'))).toBe(false);
  });
});

describe('gate init --personal', () => {
  it('installs into settings.local.json and gate.local.json, gitignores them, and leaves the team files alone', () => {
    repo = freshProject({ '.gitignore': 'node_modules\n' });
    const result = gate(['init', '--personal', '--yes', '--no-check']);
    expect(result.code).toBe(0);
    expect(existsSync(join(repo.dir, '.claude', 'settings.json'))).toBe(false);
    expect(existsSync(join(repo.dir, 'gate.config.json'))).toBe(false);
    expect(JSON.parse(read('.claude/settings.local.json')).hooks.Stop).toHaveLength(1);
    expect(JSON.parse(read('gate.local.json')).gates.map((g: { name: string }) => g.name)).toEqual(['test', 'typecheck']);
    expect(read('.gitignore')).toBe('node_modules\ngate.local.json\n.claude/settings.local.json\n');
    // Only the documented .gitignore change shows; the personal files are ignored.
    expect(repo.git('status', '--porcelain')).toBe(' M .gitignore\n');
    // A second run adds no line twice.
    gate(['init', '--personal', '--yes', '--no-check']);
    expect(read('.gitignore')).toBe('node_modules\ngate.local.json\n.claude/settings.local.json\n');
  });

  it('on top of a team install, adds only the personal hook file and no second config', () => {
    repo = initializedProject();
    repo.commit('team gate');
    const teamFiles = [read('gate.config.json'), read('.claude/settings.json')];
    const result = gate(['init', '--personal', '--yes', '--no-check']);
    expect(result.stdout).toMatch(/The team's gate\.config\.json applies/);
    expect(existsSync(join(repo.dir, 'gate.local.json'))).toBe(false);
    expect([read('gate.config.json'), read('.claude/settings.json')]).toEqual(teamFiles);
  });
});

describe('gate uninstall', () => {
  it('gives a settings file back byte for byte and removes what init created', () => {
    const existing = '{\n\t"permissions": { "allow": [ "Bash(ls)" ] }\n}\n';
    repo = freshProject({ '.claude/settings.json': existing });
    gate(['init', '--yes', '--no-check']);
    const result = gate(['uninstall', '--yes']);
    expect(result.code).toBe(0);
    expect(read('.claude/settings.json')).toBe(existing);
    expect(existsSync(join(repo.dir, 'gate.config.json'))).toBe(false);
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('removes only gate\'s entries from a settings file edited since init, and keeps an edited config', () => {
    repo = initializedProject();
    const settings = JSON.parse(read('.claude/settings.json'));
    settings.permissions = { allow: ['Bash(ls)'] };
    repo.write('.claude/settings.json', `${JSON.stringify(settings, null, 2)}\n`);
    repo.write('gate.config.json', read('gate.config.json').replace('"maxBlocks": 3', '"maxBlocks": 5'));
    const result = gate(['uninstall', '--yes']);
    expect(result.stdout).toMatch(/gate\.config\.json was edited since gate init wrote it, so it is kept/);
    expect(JSON.parse(read('.claude/settings.json'))).toEqual({ permissions: { allow: ['Bash(ls)'] } });
    expect(existsSync(join(repo.dir, 'gate.config.json'))).toBe(true);
  });

  it('undoes a personal install, .gitignore included', () => {
    repo = freshProject();
    gate(['init', '--personal', '--yes', '--no-check']);
    gate(['uninstall', '--personal', '--yes']);
    expect(repo.git('status', '--porcelain', '--ignored')).toBe('!! node_modules/\n');
  });

  it('says so when there is nothing to remove, and asks before changing anything without a terminal', () => {
    repo = freshProject();
    expect(gate(['uninstall', '--yes']).stdout).toMatch(/not installed in \.claude\/settings\.json here; nothing to remove/);
    gate(['init', '--yes', '--no-check']);
    const asked = gate(['uninstall']);
    expect(asked.stdout).toMatch(/To apply: gate uninstall --yes/);
    expect(existsSync(join(repo.dir, 'gate.config.json'))).toBe(true);
  });
});

describe('gate doctor', () => {
  it('finds all well after init', () => {
    repo = initializedProject();
    const result = gate(['doctor']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/✔ \.claude\/settings\.json: gate hooks on Stop, UserPromptSubmit/);
    expect(result.stdout).toMatch(/✔ hook command runs from .*\(gate \d+\.\d+\.\d+\)/);
    expect(result.stdout).toMatch(/✔ gate "test": vitest found/);
    expect(result.stdout).toMatch(/Stop hook timeout 510 s exceeds the longest a stop may take, 480 s/);
    expect(result.stdout).toMatch(/All is well/);
  });

  it('says "not installed"', () => {
    repo = freshProject();
    const result = gate(['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✖ not installed: .*run "gate init"/);
  });

  it('names each problem: a duplicate install, a short timeout, a missing program, hooks disabled', () => {
    repo = initializedProject();
    const settings = JSON.parse(read('.claude/settings.json'));
    settings.hooks.Stop[0].hooks[0].timeout = 60;
    settings.disableAllHooks = true;
    repo.write('.claude/settings.json', JSON.stringify(settings));
    repo.write('.claude/settings.local.json', JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx --yes stopgate@0.1.0 run' }] }] } }));
    repo.write('gate.config.json', JSON.stringify({ gates: [{ name: 'test', preset: 'vitest' }, { name: 'lint', run: 'no-such-linter .' }] }));
    const result = gate(['doctor', '--json']);
    expect(result.code).toBe(1);
    const messages = JSON.parse(result.stdout).findings.filter((f: { level: string }) => f.level === 'problem').map((f: { message: string }) => f.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/disableAllHooks/),
        expect.stringMatching(/installed in \.claude\/settings\.json and \.claude\/settings\.local\.json with different commands: every stop would run the gates twice/),
        expect.stringMatching(/Stop hook timeout 60 s is not above the longest a stop may take, 600 s/),
        expect.stringMatching(/gate "lint": program "no-such-linter" not found/),
      ]),
    );
  });

  it('reports a broken hook command and an invalid config', () => {
    repo = initializedProject();
    repo.write('.claude/settings.json', read('.claude/settings.json').replaceAll('/node_modules/.bin/gate', '/../elsewhere/node_modules/.bin/gate'));
    repo.write('gate.config.json', '{"gates": [{"name": "t", "timeout": "60s", "run": "x"}]}');
    const result = gate(['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✖ hook command does not run from .*not found \(exit 127\)/);
    expect(result.stdout).toMatch(/✖ gate\.config\.json: gates\[0\]\.timeout: expected a number, got "60s"/);
  });

  it('tells a monorepo user that Claude Code reads settings only where it starts', () => {
    repo = freshProject({ 'packages/app/package.json': '{"name":"app"}' });
    gate(['init', '--yes', '--no-check']);
    const result = gate(['doctor'], join(repo.dir, 'packages', 'app'));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\.claude\/settings\.json has gate hooks, but Claude Code started in .*packages\/app does not read them/);
  });
});

describe('gate doctor and the Claude Code plugin', () => {
  it('notices the plugin beside a settings install, which would run gate twice', () => {
    repo = initializedProject();
    const settings = JSON.parse(read('.claude/settings.json'));
    repo.write('.claude/settings.local.json', JSON.stringify({ enabledPlugins: { 'stopgate@stopgate': true } }));
    const result = gate(['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/the stopgate Claude Code plugin is enabled \(local settings\)/);
    expect(result.stdout).toMatch(/gate runs twice at every stop: from the plugin and from \.claude\/settings\.json/);
    expect(settings.hooks.Stop).toHaveLength(1);
  });
});

describe('gate doctor proves that a failing stop reaches the agent', () => {
  it('runs the installed command on a synthetic failing stop, and leaves the project\'s state alone', () => {
    repo = initializedProject();
    const result = gate(['doctor']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/✔ delivery probe: a failing stop whose report says "no such file" and "can't open" is refused the way claude needs \(exit 2, the report on stderr\)/);
    expect(existsSync(join(repo.dir, '.git', 'gate', 'stops.jsonl'))).toBe(false);
    expect(existsSync(join(repo.dir, '.git', 'gate', 'sessions'))).toBe(false);
  });

  it('reports a hook whose blocks Claude Code would drop: exit 2, empty stdout, "no such file" on stderr', () => {
    // gate as it was before issue 12: the same block, with nothing on stdout.
    repo = freshProject({ 'vendor/node_modules/.bin/gate': '#!/bin/sh\nexec "$CLAUDE_PROJECT_DIR"/node_modules/.bin/gate "$@" >/dev/null\n' });
    chmodSync(join(repo.dir, 'vendor/node_modules/.bin/gate'), 0o755);
    gate(['init', '--yes', '--no-check']);
    repo.write('.claude/settings.json', read('.claude/settings.json').replaceAll('/node_modules/.bin/gate', '/vendor/node_modules/.bin/gate'));
    const result = gate(['doctor']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✖ a failing stop does not reach the agent: .* — exit 2 with empty stdout and a report that says "no such file": Claude Code takes that for a missing hook script and drops the block/);
  });

  it.each([
    ['codex', /exit 2, the report on stderr/],
    ['gemini', /one JSON object on stdout with the report as "reason"/],
    ['copilot', /one JSON object on stdout with the report as "reason"/],
    ['cursor', /one JSON object on stdout with the report as "followup_message"/],
  ])('probes the %s install with that harness\'s protocol', (harness, how) => {
    repo = freshProject();
    expect(gate(['init', '--harness', harness, '--yes', '--no-check']).code).toBe(0);
    const result = gate(['doctor', '--harness', harness]);
    expect(result.stdout).toMatch(new RegExp(`✔ delivery probe: .* refused the way ${harness} needs \\(${how.source}\\)`));
  });

  it('reports a stop command that is not found (exit 127), which every harness takes for "allow"', () => {
    repo = freshProject();
    gate(['init', '--harness', 'qwen', '--yes', '--no-check']);
    repo.write('.qwen/settings.json', read('.qwen/settings.json').replaceAll('/node_modules/.bin/gate', '/missing/node_modules/.bin/gate'));
    const result = gate(['doctor', '--harness', 'qwen']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✖ hook command does not run from .*not found \(exit 127\)/);
  });
});
