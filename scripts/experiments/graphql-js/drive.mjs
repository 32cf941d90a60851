// node drive.mjs <workdir> <step>...: step = prompt | stop | edit@@<file>@@<from>@@<to>. Each hook runs `gate run` with its payload on stdin, as a harness does; a stop prints its exit, time and gates (gate log --json).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const [W, ...steps] = process.argv.slice(2);
const repo = join(W, 'repo');
const env = { ...process.env, HOME: join(W, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(W, 'home/.gitconfig'), TMPDIR: join(W, 'tmp'), PATH: `${join(repo, 'node_modules/.bin')}:${join(W, 'bin')}:${process.env.PATH}`, CLAUDE_PROJECT_DIR: repo };
const hook = (event) => spawnSync('gate', ['run'], { cwd: repo, env, input: JSON.stringify({ session_id: 'bench-gql', transcript_path: '/nonexistent', cwd: repo, hook_event_name: event, stop_hook_active: false }), encoding: 'utf8', maxBuffer: 1 << 26 });
for (const step of steps) {
  const [kind, file, a, b] = step.split('@@');
  if (kind === 'prompt') { const r = hook('UserPromptSubmit'); console.log(`prompt exit ${r.status}`); }
  else if (kind === 'edit') { const p = join(repo, file); const t = readFileSync(p, 'utf8'); if (!t.includes(a)) throw new Error(`no ${a} in ${file}`); writeFileSync(p, t.replace(a, b)); console.log(`edit ${file}`); }
  else if (kind === 'stop') {
    const t0 = Date.now(); const r = hook('Stop'); const ms = Date.now() - t0;
    const log = spawnSync('gate', ['log', '--json'], { cwd: repo, env, encoding: 'utf8', maxBuffer: 1 << 26 });
    let gates = '';
    try { const last = JSON.parse(log.stdout).at(-1); gates = JSON.stringify((last.gates ?? []).map((g) => [g.name, g.status, g.durationMs ?? g.ms, g.tier ?? ''])); } catch { gates = log.stdout.slice(-600); }
    console.log(`stop exit ${r.status} in ${(ms / 1000).toFixed(1)} s ${gates}`);
    if (r.status === 2) console.log(r.stderr.split('\n').slice(0, 25).join('\n'));
  }
}
