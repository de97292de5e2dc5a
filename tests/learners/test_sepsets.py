# SPDX-License-Identifier: BSD-3-Clause
"""``sepsets_`` reads as the dict of named sets it stands for."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from skbn.datasets import make_erdos_renyi_dag, make_linear_gaussian
from skbn.learners import FCI, RFCI, PCStable
from skbn.learners._sepsets import SeparatingSets


def test_names_the_positions_when_read():
    sets = SeparatingSets({frozenset((0, 2)): [(1,), (1, 3)], frozenset((1, 3)): [()]}, "abcd")
    expected = {frozenset("ac"): [("b",), ("b", "d")], frozenset("bd"): [()]}
    assert sets == expected and dict(sets) == expected
    assert len(sets) == 2 and frozenset("ca") in sets and frozenset("ab") not in sets
    assert sets[frozenset("ac")] == [("b",), ("b", "d")]
    with pytest.raises(KeyError):
        sets[frozenset("ab")]
    with pytest.raises(KeyError):
        sets[frozenset(("a", "zz"))]
    assert pickle.loads(pickle.dumps(sets)) == expected
    assert eval(repr(sets)) == expected


def test_single_sets_are_lists_of_one():
    sets = SeparatingSets({frozenset((0, 1)): (2,)}, ["x", "y", "z"], single=True)
    assert sets == {frozenset("xy"): [("z",)]}


@pytest.mark.parametrize("make", [PCStable, FCI, RFCI])
def test_learners_sets_separate_the_pairs_they_removed(make):
    dag = make_erdos_renyi_dag(12, 18, random_state=0)
    X = make_linear_gaussian(dag, random_state=0).sample(500, random_state=0)
    est = make(alpha=0.01).fit(X)
    assert len(est.sepsets_) > 0
    adjacent = {frozenset(e) for e in est.graph_.to_undirected().edges}
    for pair, sets in est.sepsets_.items():
        assert pair not in adjacent and len(pair) == 2 and sets
        assert all(set(s) <= set(X.columns) - pair for s in sets)
    # every non-adjacent pair was removed with a set
    n = X.shape[1]
    assert len(est.sepsets_) == n * (n - 1) // 2 - len(adjacent)
    assert np.all([isinstance(k, frozenset) for k in est.sepsets_])
