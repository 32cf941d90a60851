// Fetching the benchmark projects into .cache/bench-projects/, each pinned, each once: an npm
// tarball, a Debian package's files (apt-get download + dpkg -x, nothing installed), a wheel from
// the pip index. Every helper returns the extracted folder and does nothing when it is there.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

export { run };

/** The first line of `command --version`, or null. */
export function versionOf(command, args = ['--version'], env = process.env) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n')[0] ?? null;
  } catch {
    return null;
  }
}
