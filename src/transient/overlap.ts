/**
 * Which gates ran while another gate of the same stop ran: only their failures may be load's
 * (src/transient/load-sensitive.ts). Fed by runGates' onStart and onDone; costs a stop nothing more.
 */
export function trackOverlap(): { start: (name: string) => void; done: (name: string) => void; beside: ReadonlySet<string> } {
  const running = new Set<string>();
  const beside = new Set<string>();
  return {
    start(name) {
      if (running.size > 0) for (const other of [...running, name]) beside.add(other);
      running.add(name);
    },
    done(name) {
      running.delete(name);
    },
    beside,
  };
}
