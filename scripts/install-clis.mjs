// Installs every pinned agent CLI the end-to-end tests drive (scripts/install-<cli>.mjs, each
// idempotent, each into .cache/<cli>/<version>/). Run by `npm test` before the tests.
// install-tools.mjs (mypy, ruff, pytest, go) is not an agent CLI: pretest runs it on its own.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const scripts = readdirSync(dir).filter((name) => /^install-(?!clis\b|tools\b).+\.mjs$/.test(name)).sort();
for (const script of scripts) {
  const result = spawnSync(process.execPath, [`${dir}${script}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`${script} failed (exit ${result.status}); the end-to-end tests need it.`);
    process.exit(result.status ?? 1);
  }
}
