import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * A `sitecustomize` put first on PYTHONPATH for a baseline run: every Python the run starts
 * installs an audit hook that writes down each file it opens in the live work tree (an import
 * reads its .py or .pyc through `open`). Any line in the log means the run did not run the
 * starting commit's code alone. It then hands over to the project's own sitecustomize, if any.
 */
const PROBE = String.raw`# Written by gate for a baseline run (src/verdict/python-probe.ts); deleted with the copy.
import os
import sys


def _gate_probe():
    roots = [root.rstrip(os.sep) + os.sep for root in os.environ.get("GATE_PROBE_ROOTS", "").split(os.pathsep) if root]
    watch = set(os.environ.get("GATE_PROBE_WATCH", "").split(os.pathsep))
    log = os.environ.get("GATE_PROBE_LOG")
    if not roots or not log:
        return
    seen = set()
    busy = []

    def note(path):
        busy.append(True)
        try:
            fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, (path + "\n").encode("utf-8", "surrogateescape"))
            finally:
                os.close(fd)
        finally:
            busy.pop()

    def hook(event, args):
        if event != "open" or busy or not args or isinstance(args[0], int):
            return
        try:
            path = os.path.abspath(os.fsdecode(args[0]))
        except Exception:
            return
        for root in roots:
            if path.startswith(root):
                if path[len(root):].split(os.sep, 1)[0] not in watch or path in seen:
                    return
                seen.add(path)
                note(path)
                return

    note("started " + str(os.getpid()))
    sys.addaudithook(hook)

    here = os.path.dirname(os.path.abspath(__file__))
    rest = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != here]
    import importlib.machinery
    import importlib.util

    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = module
        spec.loader.exec_module(module)


try:
    _gate_probe()
except Exception:
    pass
`;

export interface PythonProbe {
  /** Environment for the run: the probe first on PYTHONPATH, then `pythonPath`, then what was there. */
  env: Record<string, string>;
  /** The work tree's files the run's Pythons opened, and whether any Python started at all. */
  read(): { opened: string[]; started: boolean };
}

/**
 * `dir` holds the probe and its log. `roots`: the live work tree (and its real path); `watch`:
 * the top-level names of the project's own files there (not node_modules, the venv, .git).
 */
export function preparePythonProbe(dir: string, roots: string[], watch: string[], pythonPath: string[], existing: string | undefined): PythonProbe {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'sitecustomize.py'), PROBE);
  const log = join(dir, 'opened.log');
  const env = {
    PYTHONPATH: [dir, ...pythonPath, ...(existing ? [existing] : [])].join(delimiter),
    GATE_PROBE_ROOTS: roots.join(delimiter),
    GATE_PROBE_WATCH: watch.join(delimiter),
    GATE_PROBE_LOG: log,
  };
  return {
    env,
    read() {
      const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
      return { opened: lines.filter((line) => !line.startsWith('started ')), started: lines.some((line) => line.startsWith('started ')) };
    },
  };
}
