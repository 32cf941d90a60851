import type { Filter } from './filter.js';
import { nxFilter } from './nx.js';
import { turboFilter } from './turbo.js';

/** The filters for task runners that hand each package's task to its own tool (Turborepo, Nx). */
export const TASK_RUNNER_FILTERS: Record<string, Filter> = {
  turbo: turboFilter,
  nx: nxFilter,
};
