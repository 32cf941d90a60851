"""Leaves out the tests gate's coverage record says a change cannot reach (docs/fast-tiers.md).

gate loads this with ``-p stopgate_select`` (PYTEST_ADDOPTS) and its folder on PYTHONPATH when a
stop narrows a pytest run below whole test files. STOPGATE_LEAVE_OUT names a JSON list of node ids:
those tests are deselected, every other collected test runs (one the record does not know, too).
"""

import json
import os


def pytest_configure(config):
    path = os.environ.pop("STOPGATE_LEAVE_OUT", None)
    # A pytest a test starts in process (pytester) sees no list: its node ids are another project's.
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as handle:
            ids = json.load(handle)
    except (OSError, ValueError):
        return
    if isinstance(ids, list):
        config.pluginmanager.register(_LeaveOut(set(ids)), "stopgate-leave-out")


class _LeaveOut:
    def __init__(self, ids):
        self.ids = ids

    def pytest_collection_modifyitems(self, config, items):
        left = [item for item in items if item.nodeid in self.ids]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [item for item in items if item.nodeid not in self.ids]
