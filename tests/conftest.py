# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures and hypothesis strategies for skbn's tests."""

import matplotlib
import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st

matplotlib.use("Agg")

settings.register_profile("skbn", deadline=None, max_examples=60)
settings.load_profile("skbn")


@st.composite
def random_dags(draw, min_nodes=1, max_nodes=9):
    """Adjacency arrays of random DAGs: a strictly upper-triangular mask under a permutation."""
    p = draw(st.integers(min_nodes, max_nodes))
    bits = draw(st.lists(st.booleans(), min_size=p * p, max_size=p * p))
    upper = np.triu(np.array(bits, dtype=np.int8).reshape(p, p), 1)
    perm = np.array(draw(st.permutations(range(p))), dtype=np.int64)
    A = np.zeros((p, p), dtype=np.int8)
    A[np.ix_(perm, perm)] = upper
    return A


@pytest.fixture
def chain():
    import networkx as nx

    return nx.DiGraph([("a", "b"), ("b", "c")], kind="dag")


@pytest.fixture
def collider():
    import networkx as nx

    return nx.DiGraph([("a", "c"), ("b", "c")], kind="dag")


#: A test that runs this long (its call, in seconds) belongs under the ``slow`` marker, so
#: the quick loop (``pytest -m "not slow"``) stays quick.
SLOW_SECONDS = 1.5
_unmarked_slow: list[tuple[str, float]] = []


def pytest_runtest_logreport(report):
    # with pytest-xdist the controller sees every worker's reports here
    if report.when == "call" and report.duration > SLOW_SECONDS:
        if "slow" not in report.keywords:
            _unmarked_slow.append((report.nodeid, report.duration))


def pytest_terminal_summary(terminalreporter):
    """List the tests over ``SLOW_SECONDS`` without the ``slow`` marker (never a failure:
    durations on a shared machine are noise, so this only says where to look)."""
    if not _unmarked_slow:
        return
    terminalreporter.section(f"tests over {SLOW_SECONDS} s not marked slow")
    for nodeid, seconds in sorted(_unmarked_slow, key=lambda t: -t[1]):
        terminalreporter.write_line(f"{seconds:6.2f} s  {nodeid}")
