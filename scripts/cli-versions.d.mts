// Types of cli-versions.mjs (plain JavaScript: the install scripts run without a build).
export const CLIS: Readonly<Record<string, { label: string; package: string; pinned: string }>>;
export function cliVersion(name: 'auggie' | 'claude' | 'codex' | 'copilot' | 'factory' | 'gemini' | 'opencode' | 'qoder' | 'qwen'): string;
