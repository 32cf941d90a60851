import { cargoClippyFilter } from './cargo-clippy.js';
import { cargoTestFilter } from './cargo-test.js';
import type { Filter } from './filter.js';
import { goTestFilter } from './go-test.js';
import { goVetFilter } from './go-vet.js';
import { golangciLintFilter } from './golangci-lint.js';
import { mypyFilter } from './mypy.js';
import { pyrightFilter } from './pyright.js';
import { pytestFilter } from './pytest.js';
import { ruffFilter } from './ruff.js';

/** The filters for Python, Go and Rust tools, by filter id. */
export const NATIVE_FILTERS: Record<string, Filter> = {
  pytest: pytestFilter,
  mypy: mypyFilter,
  pyright: pyrightFilter,
  ruff: ruffFilter,
  'go-test': goTestFilter,
  'go-vet': goVetFilter,
  'golangci-lint': golangciLintFilter,
  'cargo-test': cargoTestFilter,
  'cargo-clippy': cargoClippyFilter,
};
