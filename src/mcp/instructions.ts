/**
 * What the server tells the model when it connects. It is the only lever gate has here: no hook
 * stops the turn, so the model has to be asked, plainly, to check before it claims to be done.
 */
export const INSTRUCTIONS = [
  "gate runs this project's own checks (tests, typecheck, lint) on what changed in the working tree.",
  'Call gate_check before you say the work is done, and after every fix until it reports that every check passed.',
  'When it reports failures, fix the code so that they pass; do not skip, delete or weaken tests or checks to get a pass unless the user asked for it.',
  'gate_status says which checks would run and why, without running them; gate_receipt whether every check passed on exactly this tree (gate_check with all: true records it).',
].join('\n');

export const CHECK_DESCRIPTION =
  'Run the project\'s checks (tests, typecheck, lint as configured in gate.config.json) on the files changed in the working tree, or on everything with all: true. Returns the failures to fix, with file:line, exactly as gate\'s stop hook reports them. Call it before claiming the work is done.';

export const STATUS_DESCRIPTION =
  'What gate would check now and why, without running anything: the changed files, the baseline they are measured against, which checks would run (and which passed on this exact tree before).';

export const DIRECTORY_DESCRIPTION = 'A project directory inside the one the server was started for (absolute, or relative to it), e.g. a package of a monorepo; by default that directory itself.';

export const RECEIPT_DESCRIPTION =
  'Whether the last full run of every check (gate_check with all: true) was on exactly this working tree and config, and its outcome: PASS, FAIL, STALE (the tree or config changed since) or NONE. Runs nothing.';
