import { SetupError, UsageError } from '../errors.js';
import { execGit, isGitError } from '../git/exec-git.js';

/** Where HEAD left `ref`: the commit a pull request's diff starts from. */
export async function findMergeBase(root: string, ref: string): Promise<string> {
  // A ref that starts with "-" would be read as an option.
  if (ref === '' || ref.startsWith('-')) throw new UsageError(`--base takes a branch, tag or commit, got "${ref}"`);
  try {
    return (await execGit(root, ['merge-base', 'HEAD', ref])).trim();
  } catch (error) {
    if (!isGitError(error)) throw error;
    throw new SetupError(
      `cannot find where HEAD and "${ref}" meet (${error.message}). Is the base fetched? With actions/checkout, set fetch-depth: 0.`,
    );
  }
}
