// Fetching the benchmark projects into .cache/bench-projects/, each pinned, each once: an npm
// tarball, a Debian package's files (apt-get download + dpkg -x, nothing installed), a wheel from
// the pip index, a commit of a public git repository. Every helper returns the extracted folder and
// does nothing when it is there.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Runs a command to its end; an exit code outside `ok` is an error carrying the output's tail. */
function run(command, args, options = {}, ok = [0]) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28, ...options });
  if (result.error) throw new Error(`${command} could not start: ${result.error.message}`);
  if (!ok.includes(result.status ?? -1)) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}): ${(result.stderr || result.stdout).trim().slice(-2000)}`);
  return result.stdout;
}

/** Extracts into `dir` through a staging folder renamed into place: a half-done extraction never counts. */
function extractOnce(dir, extract) {
  if (existsSync(dir)) return dir;
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  extract(staging);
  renameSync(staging, dir);
  return dir;
}

/** `npm pack name@version`, unpacked: the folder holding the package's files. */
export function npmPackage(cache, name, version) {
  const dir = join(cache, `${name}-${version}`);
  extractOnce(dir, (staging) => {
    const tarball = join(cache, `${name}-${version}.tgz`);
    if (!existsSync(tarball)) run('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', cache], { cwd: cache });
    run('tar', ['xzf', tarball, '-C', staging]);
  });
  return join(dir, 'package');
}

/** A Debian package's files, extracted (not installed): `apt-get download pkg=version`, `dpkg -x`. */
export function debianPackage(cache, name, version) {
  const debs = join(cache, 'debs');
  const dir = join(cache, `${name}_${version}`);
  return extractOnce(dir, (staging) => {
    mkdirSync(debs, { recursive: true });
    const wanted = (file) => file.startsWith(`${name}_${version.replace(/^\d+:/, '')}_`) && file.endsWith('.deb');
    if (!readdirSync(debs).some(wanted)) run('apt-get', ['download', '-q', `${name}=${version}`], { cwd: debs });
    const deb = readdirSync(debs).find(wanted);
    if (!deb) throw new Error(`apt-get download ${name}=${version} left no .deb in ${debs}`);
    run('dpkg', ['-x', join(debs, deb), staging]);
  });
}

/** A wheel from the pip index (`pip download --no-deps`), unpacked: it holds the sources, and here the tests. */
export function wheel(cache, python, name, version) {
  const wheels = join(cache, 'wheels');
  const dir = join(cache, `${name}-${version}`);
  return extractOnce(dir, (staging) => {
    mkdirSync(wheels, { recursive: true });
    const prefix = `${name.replaceAll('-', '_')}-${version}-`;
    if (!readdirSync(wheels).some((file) => file.startsWith(prefix))) {
      run(python, ['-m', 'pip', 'download', '--quiet', '--no-deps', '--only-binary=:all:', '-d', wheels, `${name}==${version}`], { env: pipEnv() });
    }
    const file = readdirSync(wheels).find((entry) => entry.startsWith(prefix) && entry.endsWith('.whl'));
    if (!file) throw new Error(`pip download ${name}==${version} left no wheel in ${wheels}`);
    run(python, ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', join(wheels, file), staging]);
  });
}

/**
 * A pinned commit of a public GitHub repository, checked out: `git fetch --depth 1` of that commit
 * alone. When GATE_BENCH_MIRRORS names a folder of `<owner>+<name>/repo` git dirs (a machine without
 * GitHub access), the commit comes from there instead; either way it must be the pinned one.
 */
export function gitSnapshot(cache, { repo, commit }) {
  const dir = join(cache, `${repo.split('/')[1]}-${commit}`);
  return extractOnce(dir, (staging) => {
    const mirrors = process.env.GATE_BENCH_MIRRORS;
    const source = mirrors ? `file://${resolve(mirrors, repo.replace('/', '+'), 'repo')}` : `https://github.com/${repo}`;
    const git = (...args) => run('git', ['-c', 'advice.detachedHead=false', ...args], { cwd: staging });
    git('init', '-q');
    git('fetch', '-q', '--depth', '1', source, commit);
    const fetched = git('rev-parse', 'FETCH_HEAD^{commit}').trim();
    if (fetched !== commit) throw new Error(`${source} gave ${fetched} for ${repo}@${commit}`);
    git('checkout', '-q', '--detach', 'FETCH_HEAD');
  });
}

/**
 * A folder made once by `make(dir)` in place (installs write absolute paths, so no staging folder):
 * it counts only once `stamp` is written last; a half-made one is removed and made again.
 */
export function makeOnce(dir, make) {
  const stamp = join(dir, '.gate-bench-made');
  if (existsSync(stamp)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  make(dir);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return dir;
}

/** The files of `commit` in the git work tree `repo`, written into `dir` (no .git). */
export function exportTree(repo, dir) {
  run('sh', ['-c', 'git -C "$1" archive HEAD | tar -x -C "$2"', 'sh', repo, dir]);
}

/**
 * Copies a pnpm-installed tree cheaply: everything is copied (symlinks as they are, so workspace
 * links point into the copy) except the packages in node_modules/.pnpm, which are linked to the
 * installed tree's (third-party files nobody edits; a full copy of urql's is 1.1 GB).
 */
export function linkedCopy(from, to) {
  const store = join(from, 'node_modules', '.pnpm');
  const keep = new Set(['node_modules', 'lock.yaml']);
  cpSync(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (path) => !path.endsWith('.gate-bench-made') && !(path.startsWith(`${store}/`) && !keep.has(path.slice(store.length + 1).split('/')[0])),
  });
  if (!existsSync(store)) return;
  for (const entry of readdirSync(store)) if (!keep.has(entry)) symlinkSync(join(store, entry), join(to, 'node_modules', '.pnpm', entry));
}

function pipEnv() {
  return { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_RETRIES: process.env.PIP_RETRIES ?? '1' };
}

/** A venv with `requirements` (pinned), made from `python`; redone when the list changes. Returns its bin folder. */
export function venv(dir, python, requirements) {
  const stamp = join(dir, 'bench-requirements.json');
  const bin = join(dir, process.platform === 'win32' ? 'Scripts' : 'bin');
  const wanted = JSON.stringify(requirements);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted && existsSync(join(bin, 'python'))) return bin;
  rmSync(dir, { recursive: true, force: true });
  run(python, ['-m', 'venv', dir]);
  run(join(bin, 'python'), ['-m', 'pip', 'install', '--quiet', ...requirements], { env: pipEnv() });
  writeFileSync(stamp, wanted);
  return bin;
}

export { pipEnv, run };

/** The first line of `command --version`, or null. */
export function versionOf(command, args = ['--version'], env = process.env) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n')[0] ?? null;
  } catch {
    return null;
  }
}
