import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive as processAlive } from './process-alive.js';
import { removeFile, writeState } from './state-files.js';

/** A stop that is running its gates now, as `gate status` shows it. */
export interface RunningStop {
  pid: number;
  session: string;
  /** Epoch ms. */
  startedAt: number;
  gates: RunningGate[];
}

export interface RunningGate {
  name: string;
  startedAt: number;
  endedAt?: number;
  status?: string;
  /** What the run is for when it is not the stop's own check (the baseline's failures). */
  purpose?: 'baseline';
}

export interface RunningStopRecord {
  start(name: string, purpose?: RunningGate['purpose']): void;
  done(name: string, status: string): void;
  end(): void;
  /** The gates so far, as `gate status` shows them. */
  gates(): readonly RunningGate[];
}

/** `.git/gate/running/<pid>.json`, one file per running stop. */
export function runningDir(stateDir: string): string {
  return join(stateDir, 'running');
}

/**
 * Keeps this stop's record up to date while its gates run. Best effort: a record that cannot be
 * written costs the human a line in `gate status`, never the stop.
 */
export function recordRunningStop(stateDir: string, session: string, now: () => number = Date.now): RunningStopRecord {
  const path = join(runningDir(stateDir), `${process.pid}.json`);
  const stop: RunningStop = { pid: process.pid, session, startedAt: now(), gates: [] };
  const save = () => {
    try {
      writeState(path, stop);
    } catch {
      // Read-only state folder: the stop goes on.
    }
  };
  save();
  return {
    start(name, purpose) {
      stop.gates.push({ name, startedAt: now(), ...(purpose ? { purpose } : {}) });
      save();
    },
    done(name, status) {
      const gate = [...stop.gates].reverse().find((candidate) => candidate.name === name && candidate.endedAt === undefined);
      if (gate) Object.assign(gate, { endedAt: now(), status });
      save();
    },
    end() {
      try {
        removeFile(path);
      } catch {
        // Left behind: readers skip records of processes that are gone.
      }
    },
    gates: () => stop.gates,
  };
}

/** The stops running now: records whose process is alive (a killed stop leaves its file behind). */
export function readRunningStops(stateDir: string, isAlive: (pid: number) => boolean = processAlive): RunningStop[] {
  let names: string[];
  try {
    names = readdirSync(runningDir(stateDir)).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const value: unknown = JSON.parse(readFileSync(join(runningDir(stateDir), name), 'utf8'));
      return isRunningStop(value) && isAlive(value.pid) ? [value] : [];
    } catch {
      return [];
    }
  });
}

/** "test (running 1m 12s), lint (passed in 4s)" for a running stop, as of `now`. */
export function describeRunningStop(stop: RunningStop, now: number): string {
  const gates = stop.gates.map((gate) => {
    const label = gate.purpose === 'baseline' ? `${gate.name} on the turn's baseline` : gate.name;
    return gate.endedAt === undefined ? `${label} (running ${duration(now - gate.startedAt)})` : `${label} (${gate.status ?? 'done'} in ${duration(gate.endedAt - gate.startedAt)})`;
  });
  return `session ${stop.session}, for ${duration(now - stop.startedAt)}: ${gates.length === 0 ? 'preparing' : gates.join(', ')}`;
}

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

function isRunningStop(value: unknown): value is RunningStop {
  if (typeof value !== 'object' || value === null) return false;
  const { pid, session, startedAt, gates } = value as Record<string, unknown>;
  return Number.isInteger(pid) && typeof session === 'string' && typeof startedAt === 'number' && Array.isArray(gates) && gates.every(isRunningGate);
}

function isRunningGate(value: unknown): value is RunningGate {
  if (typeof value !== 'object' || value === null) return false;
  const { name, startedAt, endedAt, status } = value as Record<string, unknown>;
  return typeof name === 'string' && typeof startedAt === 'number' && (endedAt === undefined || typeof endedAt === 'number') && (status === undefined || typeof status === 'string');
}
