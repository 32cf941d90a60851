import { createHash } from 'node:crypto';
import type { GateFailures } from './gate-failures.js';
import type { TamperReport } from './sarif.js';

/**
 * GitLab's Code Quality report (a subset of Code Climate's issue format): one issue per failure
 * that names a file, so that the merge request shows it on the diff. GitLab needs a path for every
 * issue: a failure without one, or a gate that failed naming none, is in the job's log and summary
 * only. GitLab itself compares with the target branch's report to say which are new.
 */
export function toCodeQuality(gates: readonly GateFailures[], tamper: TamperReport | undefined): object[] {
  const issues: object[] = [];
  for (const gate of gates) {
    for (const failure of gate.failures) {
      if (failure.path === undefined) continue;
      const text = failure.rule !== undefined || failure.message === '' ? failure.message || failure.id : `${failure.id}: ${failure.message}`;
      issues.push({
        type: 'issue',
        check_name: `${gate.gate}/${failure.rule ?? 'failing-test'}`,
        description: text,
        categories: [failure.rule === undefined ? 'Bug Risk' : 'Style'],
        // One fingerprint per failure, stable while it moves: the gate and the failure's identity, never its line.
        fingerprint: md5(`${gate.gate}\0${failure.id}`),
        severity: failure.rule === undefined ? 'critical' : 'major',
        location: { path: failure.path, lines: { begin: failure.line ?? 1 } },
      });
    }
  }
  for (const finding of tamper?.findings ?? []) {
    issues.push({
      type: 'issue',
      check_name: `tamper/${finding.kind}`,
      description: finding.detail,
      categories: ['Bug Risk'],
      fingerprint: md5(`tamper\0${finding.path}\0${finding.detail}`),
      severity: tamper?.blocking ? 'critical' : 'minor',
      location: { path: finding.path, lines: { begin: finding.line ?? 1 } },
    });
  }
  return issues;
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}
