# SPDX-License-Identifier: BSD-3-Clause
"""Every constraint-based and hybrid learner takes the kernel and random-feature CI tests."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from skbn import learners
from skbn.ci_tests import RCIT, RCoT

#: the tests, by name or seeded: a random-feature test left unseeded draws new features at
#: every fit (over seeds 0-9 these learners find the fork's skeleton 9 or 10 times in 10)
TESTS = {"kci": "kci", "rcot": RCoT(random_state=0), "rcit": RCIT(random_state=0)}

#: learners whose edges come from CI tests alone: KCI changes what they find
CONSTRAINT = ["PCStable", "FCI", "RFCI", "GrowShrink", "IAMB", "HITONPC", "HITONMB"]
#: learners that test and score: they take KCI, their scores stay linear
HYBRID = ["MMHC", "OrderMCMC", "BOSSFCI", "GRaSPFCI", "GFCI"]


@pytest.fixture(scope="module")
def fork():
    """z -> y = z^2 + e and z -> x = sin(2z) + e, beside an independent u.

    z is a symmetric sample, so corr(z, z^2) is exactly 0: a linear test cannot see z - y.
    """
    rng = np.random.default_rng(0)
    half = rng.normal(size=150)
    z = np.concatenate([half, -half])
    return pd.DataFrame(
        {
            "z": z,
            "y": z**2 + 0.3 * rng.normal(size=300),
            "x": np.sin(2 * z) + 0.3 * rng.normal(size=300),
            "u": rng.normal(size=300),
        }
    )


def _skeleton(graph):
    return {frozenset(e) for e in graph.edges()}


@pytest.mark.parametrize("test", list(TESTS))
@pytest.mark.parametrize("name", CONSTRAINT)
def test_kernel_tests_find_the_nonlinear_adjacency(fork, name, test):
    kernel = getattr(learners, name)(ci_test=TESTS[test]).fit(fork).graph_
    linear = getattr(learners, name)(ci_test="fisher_z").fit(fork).graph_
    assert _skeleton(kernel) == {frozenset("zy"), frozenset("zx")}
    assert frozenset("zy") not in _skeleton(linear)


@pytest.mark.parametrize("test", ["kci", "rcot"])
@pytest.mark.parametrize("name", HYBRID)
def test_hybrid_learners_take_kernel_tests(fork, name, test):
    graph = getattr(learners, name)(ci_test=TESTS[test]).fit(fork).graph_
    assert list(graph.nodes) == list(fork.columns)
    assert frozenset("zx") in _skeleton(graph)
    assert not any("u" in edge for edge in _skeleton(graph))
