/** What a filter keeps of a tool's output for the agent, and how many lines it left out. */
export interface Filtered {
  lines: string[];
  dropped: number;
}

export type Filter = (raw: string) => Filtered;
