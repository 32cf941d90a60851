/** What a post-edit payload says about the file an agent just edited. */
export interface EditedFile {
  /** As the payload names it (absolute for Claude Code). */
  path: string;
  /** The whole file before the edit, when the harness sends it (Claude Code's `originalFile`). */
  before?: string;
  /** Replaced text and its replacement, one pair per edit (Edit, MultiEdit). */
  pairs: { old: string; new: string }[];
  /** The whole new content, for a tool that writes the file (Write). */
  written?: string;
}

/** Claude Code's `tool_input`/`tool_response` for Edit, MultiEdit and Write; `undefined` for anything else. */
export function editedFile(data: Record<string, unknown>): EditedFile | undefined {
  const input = record(data['tool_input']);
  const response = record(data['tool_response']);
  const path = text(input['file_path']) ?? text(response['filePath']);
  if (path === undefined || path === '') return undefined;
  const before = text(response['originalFile']);
  const pair = (value: Record<string, unknown>) => {
    const old = text(value['old_string']);
    const now = text(value['new_string']);
    return old !== undefined && now !== undefined ? [{ old, new: now }] : [];
  };
  const edits = Array.isArray(input['edits']) ? input['edits'].flatMap((edit) => pair(record(edit))) : [];
  const written = text(input['content']);
  return { path, ...(before === undefined ? {} : { before }), pairs: [...pair(input), ...edits], ...(written === undefined ? {} : { written }) };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
