import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goVetFilter } from '../../src/filters/go-vet.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/outputs/go-vet/${name}`, import.meta.url), 'utf8');

describe('goVetFilter', () => {
  it('makes each finding one item and drops the package headers', () => {
    const filtered = goVetFilter(fixture('findings.txt'));
    expect(filtered.noun).toBe('problems');
    expect(filtered.items).toEqual([
      ['report/report.go:13:17: Snapshot passes lock by value: example.com/vetdemo/report.Counter contains sync.Mutex'],
      ['report/report.go:18:2: fmt.Printf format %s reads arg #3, but call has 2 args'],
      ['report/report.go:19:2: fmt.Println arg list ends with redundant newline'],
      ['server/server.go:10:8: using resp before checking for errors'],
      ['server/server.go:21:2: unreachable code'],
    ]);
    expect(filtered.dropped).toBe(2);
  });

  it('describes each finding by file and message', () => {
    expect(goVetFilter(fixture('findings.txt')).failures[1]).toEqual({ id: 'report/report.go go: fmt.Printf format %s reads arg #3, but call has 2 args', rule: 'go', file: 'report/report.go', line: 18, message: 'fmt.Printf format %s reads arg #3, but call has 2 args' });
  });

  it('keeps a type error that stopped vet', () => {
    const filtered = goVetFilter(fixture('typecheck-error.txt'));
    expect(filtered.items.at(-1)).toEqual(['vet: server/server.go:16:1: missing return']);
    expect(filtered.failures.at(-1)).toEqual({ id: 'server/server.go go: missing return', rule: 'go', file: 'server/server.go', line: 16, message: 'missing return' });
  });
});
