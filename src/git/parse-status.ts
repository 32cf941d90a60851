/**
 * Parses `git status --porcelain=v2 -z --branch` (https://git-scm.com/docs/git-status#_porcelain_format_version_2).
 * Records are NUL-terminated; a rename record ("2 …") is followed by one more record, the original path.
 */
export interface StatusEntry {
  path: string;
  /** `XY` for tracked changes, `??` for untracked, `UU`-style for conflicts. */
  code: string;
  /** Present for the origin of a rename or copy, which also counts as changed. */
  from?: string;
  /** A submodule: the commit the superproject's HEAD records for it (`hH`), "0…0" when new. */
  submodule?: { recorded: string };
}

export interface Status {
  head: string | null;
  entries: StatusEntry[];
}

export function parseStatus(output: string): Status {
  const records = output.split('\0');
  const entries: StatusEntry[] = [];
  let head: string | null = null;
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    if (!record) continue;
    const kind = record[0];
    if (kind === '#') {
      const match = /^# branch\.oid (\S+)$/.exec(record);
      if (match?.[1] && match[1] !== '(initial)') head = match[1];
    } else if (kind === '1') {
      entries.push({ code: record.slice(2, 4), path: field(record, 8), ...submodule(record) });
    } else if (kind === '2') {
      entries.push({ code: record.slice(2, 4), path: field(record, 9), from: records[++i] ?? '', ...submodule(record) });
    } else if (kind === 'u') {
      entries.push({ code: record.slice(2, 4), path: field(record, 10) });
    } else if (kind === '?') {
      entries.push({ code: '??', path: record.slice(2) });
    }
  }
  return { head, entries };
}

// "1 XY S<c><m><u> mH mI mW hH hI path": an "S" in the third field marks a submodule.
function submodule(record: string): { submodule?: { recorded: string } } {
  const words = record.split(' ', 7);
  return words[2]?.startsWith('S') ? { submodule: { recorded: words[6] ?? '' } } : {};
}

/** The path is everything after the n-th space: paths themselves may contain spaces. */
function field(record: string, spacesBefore: number): string {
  let index = 0;
  for (let n = 0; n < spacesBefore; n++) {
    index = record.indexOf(' ', index) + 1;
    if (index === 0) return '';
  }
  return record.slice(index);
}
