/** The values a config gets where no layer sets them; a leaf, so the stop's bundle can read them without zod. */
export const DEFAULTS = { maxBlocks: 3, budget: 6000, timeoutSeconds: 300, onTimeout: 'once', outsideGit: 'skip' } as const;

/** What a gate that timed out means (docs/configuration.md): never a verdict, always a failure, or a failure once in a row. */
export type OnTimeout = 'allow' | 'block' | 'once';
