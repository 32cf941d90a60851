import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';

/**
 * The cores this process may use: the CPUs it may run on, and no more than a cgroup's CPU quota
 * (a container given 2 CPUs on a 64-core host reports 64 to os.availableParallelism() on Node 20).
 */
export function machineCores(readQuota: () => number | undefined = cgroupQuota): number {
  const cpus = Math.max(1, availableParallelism());
  const quota = readQuota();
  return quota === undefined ? cpus : Math.max(1, Math.min(cpus, Math.ceil(quota)));
}

/** Test-runner gates at once when the config sets no `concurrency`: each brings its own workers, so half the cores. */
export function testRunnersAtOnce(cores: number): number {
  return Math.max(1, Math.floor(cores / 2));
}

/** CPUs' worth of a cgroup's quota (v2 `cpu.max`, v1 `cpu.cfs_quota_us`), undefined when none is set or it cannot be read. */
function cgroupQuota(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  const v2 = readText('/sys/fs/cgroup/cpu.max');
  if (v2 !== undefined) return quotaOf(v2.split(/\s+/));
  const quota = readText('/sys/fs/cgroup/cpu/cpu.cfs_quota_us');
  const period = readText('/sys/fs/cgroup/cpu/cpu.cfs_period_us');
  return quota === undefined || period === undefined ? undefined : quotaOf([quota, period]);
}

function quotaOf([quota, period]: Array<string | undefined>): number | undefined {
  const q = Number(quota);
  const p = Number(period);
  return Number.isFinite(q) && Number.isFinite(p) && q > 0 && p > 0 ? q / p : undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}
