"""A pytest plugin for tests/mapper/select: after collection prints every
item's node id, marks and whether -m (or --testmap-select) kept it, as one
JSON line each."""

import json

_deselected = []


def pytest_deselected(items):
    _deselected.extend(items)


def pytest_collection_finish(session):
    for kept, items in ((True, session.items), (False, _deselected)):
        for item in items:
            marks = sorted({m.name for m in item.iter_markers()})
            print("TESTMAP_MARKS " + json.dumps({"nodeid": item.nodeid, "marks": marks,
                                                 "kept": kept}))
