"""What each test file executes, for gate's coverage record (docs/fast-tiers.md).

gate loads this with ``-p stopgate_record`` (PYTEST_ADDOPTS) and its folder on PYTHONPATH, on a
full run. It writes one JSON file, STOPGATE_RECORD_OUT: per test file the functions (file,
qualified name) it executed under ROOT, and per test (node id) those its own run executed. What
runs where no single test file owns it goes to ``shared``, which counts for every test: collection
and imports (code a ``<module>`` frame runs), fixtures wider than a function, the teardown that
may end them. A test that failed or started a process gets no record of its own (null), nor does
its file when that happened outside a test (what runs in another process is seen by no tracer here).
"""

import functools
import hashlib
import json
import os
import subprocess
import sys
import threading

import pytest
import stopgate_units

_started = False


def pytest_configure(config):
    global _started
    out, root = os.environ.get("STOPGATE_RECORD_OUT"), os.environ.get("STOPGATE_RECORD_ROOT")
    # One recorder per process: a test that runs pytest in-process (pytester) must not take it over.
    if _started or not out or not root:
        return
    # xdist: tests spread over worker processes this recorder doesn't see. No record, no narrowing.
    if hasattr(config, "workerinput") or _option(config, "numprocesses") or _option(config, "dist") not in (None, "no"):
        return
    _started = True
    # A pytest this run starts in another process (pytester) loads the plugin too: it must not write here.
    os.environ.pop("STOPGATE_RECORD_OUT", None)
    config.pluginmanager.register(_Recorder(out, os.path.realpath(root)), "stopgate-recorder")


def _option(config, name):
    try:
        return config.getoption(name)
    except ValueError:
        return None


class _Recorder:
    def __init__(self, out, root):
        self.out = out
        self.root = root + os.sep
        self.shared = set()
        self.tests = {}
        self.items = {}
        self.started = set()
        self.targets = [self.shared]
        self.owner = None
        self.key = (id(self.shared),)
        self.seen = set()
        self.seen_by = {self.key: self.seen}
        self.state = [self.seen, self.targets]
        self.lost = False
        self.collect_failed = False
        self.exitstatus = None
        self.trace = self._start()
        _watch_processes(self)

    # sys.monitoring (3.12+): each function's first start in a bucket, and the ends of module code
    # (each other function's return events are disabled at its first). Older: a trace function that
    # asks for no line events (called once per Python call: C calls cost nothing), unless one is set
    # already (coverage.py's: it would take its place, or lose it); then a profile function (every
    # Python and C call and return: starlette's suite took 4.6x as long).
    def _start(self):
        self.importing = 0
        monitoring = getattr(sys, "monitoring", None)
        if monitoring is not None:
            events = monitoring.events
            for tool in range(5, 0, -1):
                try:
                    monitoring.use_tool_id(tool, "stopgate")
                except ValueError:
                    continue
                monitoring.register_callback(tool, events.PY_START, self._on_start)
                monitoring.register_callback(tool, events.PY_RETURN, self._on_return)
                monitoring.register_callback(tool, events.PY_UNWIND, self._on_unwind)
                monitoring.set_events(tool, events.PY_START | events.PY_RETURN | events.PY_UNWIND)
                self.tool = tool
                return "monitoring"
        self.tool = None
        if sys.gettrace() is None:
            self._on_event = self._tracer()
            sys.settrace(self._on_event)
            threading.settrace(self._on_event)
            return "trace"
        self._on_event = self._profiler()
        sys.setprofile(self._on_event)
        threading.setprofile(self._on_event)
        return "profile"

    def _tracer(self):
        shared, depth, state = self.shared, [0], self.state

        def on_module_event(_frame, event, _arg):
            # Module code's own events (its lines too, run once at import): only its end counts.
            if event == "return":
                depth[0] -= 1
            return on_module_event

        def on_call(frame, _event, _arg):
            code = frame.f_code
            if code.co_name == "<module>":
                depth[0] += 1
                shared.add(code)
                return on_module_event
            if depth[0]:
                shared.add(code)
            elif code not in state[0]:
                state[0].add(code)
                for target in state[1]:
                    target.add(code)
            return None

        return on_call

    def _taken(self):
        return (sys.gettrace() if self.trace == "trace" else sys.getprofile()) != self._on_event

    def _profiler(self):
        # Called for every call and return, C functions' too: the fewest lookups that do. The same
        # lines as _tracer's, inlined in each: a function call more per event is what recording costs.
        shared, depth, state = self.shared, [0], self.state

        def on_event(frame, event, _arg):
            if event == "call":
                code = frame.f_code
                if code.co_name == "<module>":
                    depth[0] += 1
                if depth[0]:
                    shared.add(code)
                elif code not in state[0]:
                    state[0].add(code)
                    for target in state[1]:
                        target.add(code)
            elif event == "return" and depth[0] and frame.f_code.co_name == "<module>":
                depth[0] -= 1

        return on_event

    def _on_start(self, code, _offset):
        # Each function's start is reported once, until the bucket changes (restart_events).
        if code.co_name == "<module>":
            # Code run while a module is imported serves whoever imports it later: what was
            # reported in this bucket before must be seen again.
            if not self.importing and self.targets[0] is not self.shared:
                sys.monitoring.restart_events()
            self.importing += 1
            self.shared.add(code)
            return None
        if self.importing:
            self.shared.add(code)
        else:
            for target in self.targets:
                target.add(code)
        return sys.monitoring.DISABLE

    def _on_return(self, code, _offset, _value):
        if code.co_name != "<module>":
            return sys.monitoring.DISABLE
        self.importing -= 1

    def _on_unwind(self, code, _offset, _exception):
        if code.co_name == "<module>":
            self.importing -= 1

    def _switch(self, targets, owner):
        key = tuple(id(target) for target in targets)
        if key == self.key:
            return
        self.key = key
        self.targets = targets
        self.owner = owner
        self.seen = self.seen_by.setdefault(key, set())
        self.state[:] = [self.seen, targets]
        if self.trace == "monitoring":
            sys.monitoring.restart_events()
        elif self._taken():
            # Something else took the trace or profile function (a debugger, a profiler): what ran since is unknown.
            self.lost = True

    def pytest_runtest_protocol(self, item, nextitem):
        path = os.path.realpath(str(item.path))
        found = self.items.setdefault(path, {}).setdefault(item.nodeid, set())
        self._switch([self.tests.setdefault(path, set()), found], (path, item.nodeid))

    def pytest_runtest_logreport(self, report):
        # A failed test gets no record: one left out later must pass as it did here.
        if report.failed:
            self.started.add(self.owner)

    def pytest_collectreport(self, report):
        if report.failed:
            self.collect_failed = True

    def pytest_sessionfinish(self, session, exitstatus):
        self.exitstatus = int(exitstatus)

    def pytest_runtest_logfinish(self, nodeid, location):
        self._switch([self.shared], None)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef, request):
        if fixturedef.scope == "function":
            yield
            return
        # What a wider fixture runs serves every test after it: the file's, and the shared part.
        targets, owner = self.targets, self.owner
        self._switch(targets + [self.shared], _file_of(owner))
        yield
        self._switch(targets, owner)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item, nextitem):
        # Past the last test of a folder, fixtures of wider scope end here too.
        ending = nextitem is None or nextitem.path.parent != item.path.parent
        targets, owner = self.targets, self.owner
        if ending:
            self._switch(targets + [self.shared], _file_of(owner))
        yield
        if ending:
            self._switch(targets, owner)

    def pytest_unconfigure(self, config):
        if self.trace == "monitoring":
            sys.monitoring.set_events(self.tool, 0)
            sys.monitoring.free_tool_id(self.tool)
        else:
            if self._taken():
                self.lost = True
            if self.trace == "trace":
                sys.settrace(None)
                threading.settrace(None)
            else:
                sys.setprofile(None)
                threading.setprofile(None)
        # Only a run that ran every test it collected (0: all passed, 1: some failed) is read.
        if self.lost or None in self.started or self.collect_failed or self.exitstatus not in (0, 1):
            return
        kept = [test for test in self.tests if test.startswith(self.root) and (test, None) not in self.started]
        codes = {test: _project(self.tests[test], self.root) for test in kept}
        items = {test: {nodeid: None if (test, nodeid) in self.started else _project(found, self.root) for nodeid, found in self.items.get(test, {}).items()} for test in kept}
        shared = _project(self.shared, self.root)
        files = {}
        for path in set(shared).union(*codes.values(), codes):
            files[path] = _read_units(path)
        record = {
            "shared": _named(shared, files),
            "tests": {test: _named(found, files) for test, found in codes.items()},
            "items": {test: {nodeid: found if found is None else _named(found, files) for nodeid, found in by_id.items()} for test, by_id in items.items()},
            "others": sorted(test for test in self.tests if test not in kept),
            "files": {path: cut and {"hash": cut["hash"], "skeleton": cut["skeleton"], "units": [{"name": u["name"], "body": u["body"]} for u in cut["units"]]} for path, cut in files.items()},
        }
        with open(self.out, "w", encoding="utf-8") as handle:
            json.dump(record, handle)


_STARTS = ("system", "fork", "forkpty", "posix_spawn", "posix_spawnp", "execv", "execve", "spawnv", "spawnve")


def _file_of(owner):
    """A test's file, as the owner of what runs for all its tests (None stays None: the shared part)."""
    return owner and (owner[0], None)


def _watch_processes(recorder):
    """Marks the test file (or the shared part) that starts a process. (An audit hook costs every event.)"""

    def watched(fn):
        def start(*args, **kwargs):
            recorder.started.add(recorder.owner)
            return fn(*args, **kwargs)

        return start

    for name in _STARTS:
        if hasattr(os, name):
            setattr(os, name, watched(getattr(os, name)))
    subprocess.Popen._execute_child = watched(subprocess.Popen._execute_child)
_PACKAGES = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)


def _project(codes, root):
    """The code objects in the project's own .py files, by real path: {path: [first lines of its functions]}."""
    by_file = {}
    for code in codes:
        path = _own_path(code.co_filename, root)
        if path is None:
            continue
        lines = by_file.setdefault(path, set())
        if code.co_name != "<module>":
            lines.add(code.co_firstlineno)
    return by_file


@functools.lru_cache(maxsize=None)
def _own_path(path, root):
    """A code object's file by its real path, when it is one of the project's own .py files (each file looked up once: a run has many tests)."""
    if not os.path.isabs(path):
        return None
    path = os.path.realpath(path)
    if not path.startswith(root) or not path.endswith(".py") or any(part in path for part in _PACKAGES):
        return None
    return path


def _read_units(path):
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        cut = stopgate_units.units(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
        return None
    cut["hash"] = hashlib.sha1(data).hexdigest()
    return cut


def _named(by_file, files):
    """Each file's units that ran (a function nested in one counts for it; class bodies and module code are the skeleton)."""
    named = {}
    for path, lines in by_file.items():
        cut = files.get(path)
        if cut is None:
            named[path] = "all"
            continue
        at = cut.setdefault("at", {})
        names = set()
        for line in lines:
            if line not in at:
                at[line] = stopgate_units.unit_at(cut["units"], line)
            names.add(at[line])
        named[path] = sorted(name for name in names if name is not None)
    return named
