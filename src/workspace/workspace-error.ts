import { SetupError } from '../errors.js';

/** A workspace gate can't read. `file` is relative to the workspace root; the message also says what is wrong and the fix. */
export class WorkspaceError extends SetupError {
  constructor(
    readonly file: string,
    problemAndFix: string,
  ) {
    super(`${file}: ${problemAndFix}`);
  }
}
