import { describe, expect, it } from 'vitest';
import { filterOutput } from '../../src/filters/filter-output.js';
import { renderReport, type FailedGate } from '../../src/report/render-report.js';

// solid-urql (issue 38): the root's tsc and the package's own report the same type error, each from its folder.
const ERROR = "error TS2322: Type 'string' is not assignable to type 'number'.";
const OTHER = "error TS2304: Cannot find name 'createClient'.";
const rootTsc = `packages/solid-urql/src/use-query.ts(12,7): ${ERROR}\nsrc/index.ts(3,1): ${OTHER}\n`;
const packageTsc = `src/use-query.ts(12,7): ${ERROR}\n`;

function tsc(name: string, cwd: string | undefined, output: string): FailedGate {
  return { name, command: 'tsc --noEmit', outcome: 'exit 2', filtered: filterOutput('tsc', output), log: `.git/gate/logs/${name}.log`, ...(cwd === undefined ? {} : { cwd }) };
}

const render = (failed: FailedGate[]) => renderReport({ failed, gateCount: 2, block: 1, maxBlocks: 3, budget: 6000 });
const count = (text: string, part: string) => text.split(part).length - 1;

describe('one report per finding across gates', () => {
  it('a type error the root tsc and the package\'s tsc both report is shown once, and the later gate names the first', () => {
    const report = render([tsc('typecheck', '/repo', rootTsc), tsc('packages/solid-urql:typecheck', '/repo/packages/solid-urql', packageTsc)]);
    expect(count(report, "Type 'string' is not assignable to type 'number'")).toBe(1);
    expect(report).toContain("Cannot find name 'createClient'");
    expect(report).toContain('1 finding of packages/solid-urql:typecheck left out here: the same as typecheck reported above.');
  });

  it('the same message at another line, or in another package\'s file of that name, is its own finding', () => {
    const elsewhere = `src/use-query.ts(13,7): ${ERROR}\n`;
    expect(count(render([tsc('typecheck', '/repo', rootTsc), tsc('packages/solid-urql:typecheck', '/repo/packages/solid-urql', elsewhere)]), ERROR.slice(14))).toBe(2);
    expect(count(render([tsc('typecheck', '/repo', rootTsc), tsc('packages/core:typecheck', '/repo/packages/core', packageTsc)]), ERROR.slice(14))).toBe(2);
  });

  it('a gate whose folder is not known is never taken for a repeat', () => {
    expect(count(render([tsc('typecheck', '/repo', rootTsc), tsc('other', undefined, packageTsc)]), ERROR.slice(14))).toBe(2);
  });
});
