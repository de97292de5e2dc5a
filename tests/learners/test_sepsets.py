# SPDX-License-Identifier: BSD-3-Clause
"""``sepsets_`` reads as the dict of named sets it stands for."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from skbn.datasets import make_erdos_renyi_dag, make_linear_gaussian
from skbn.learners import FCI, RFCI, PCStable
from skbn.learners._pc import _record_removals
from skbn.learners._sepsets import RemovalLog, SeparatingSets


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


def _old_record(sepsets: dict, rank, xs, ys, conds) -> None:
    """The recording the removal log replaces: one dict entry per removal."""
    order = np.lexsort((rank[ys], rank[xs]))
    xs, ys, conds = xs[order], ys[order], conds[order]
    if conds.shape[1] > 1:
        conds = np.take_along_axis(conds, np.argsort(rank[conds], axis=1, kind="stable"), 1)
    for x, y, cond in zip(xs.tolist(), ys.tolist(), map(tuple, conds.tolist())):
        sets = sepsets.setdefault(frozenset((x, y)), [])
        if cond not in sets:
            sets.append(cond)


def _levels(p=9, seed=0):
    """Random PC-style levels: disjoint pairs per level, both directions for some."""
    rng = np.random.default_rng(seed)
    pairs = [(i, j) for i in range(p) for j in range(i + 1, p)]
    rng.shuffle(pairs)
    levels, at = [], 0
    for level in range(4):
        chunk = pairs[at : at + 6]
        at += 6
        xs, ys, conds = [], [], []
        for i, j in chunk:
            others = [v for v in range(p) if v not in (i, j)]
            for x, y in ((i, j), (j, i)) if rng.random() < 0.5 else ((i, j),):
                xs.append(x)
                ys.append(y)
                conds.append(rng.choice(others, size=level, replace=False))
        conds = np.array(conds, dtype=np.int64).reshape(len(xs), level)
        levels.append((np.array(xs), np.array(ys), conds))
    return levels


def test_removal_log_reads_as_the_dict_recorded_one_removal_at_a_time():
    p = 9
    rank = np.random.default_rng(1).permutation(p)
    old, log = {}, RemovalLog(p)
    adj = np.ones((p, p), dtype=bool)
    for xs, ys, conds in _levels(p):
        _old_record(old, rank, xs, ys, conds)
        _record_removals(log, adj, rank, xs, ys, conds)
    assert dict(log) == old and len(log) == len(old)
    assert set(log) == set(old)
    for key in old:
        a, c = sorted(key)
        for b in range(p):
            assert log.in_some_set(a, c, b) == any(b in s for s in old[key])
    assert not log.in_some_set(0, 0, 1) or frozenset((0,)) in old
    triples = np.array([(a, b, c) for a in range(p) for c in range(a + 1, p) for b in range(p)])
    np.testing.assert_array_equal(
        log.in_some_set_many(triples[:, 0], triples[:, 2], triples[:, 1]),
        [log.in_some_set(a, c, b) for a, b, c in triples.tolist()],
    )
    # the first and last set of each pair, as RFCI reads them
    assert dict(log.one_each(0)) == {k: v[0] for k, v in old.items()}
    assert dict(log.one_each(-1)) == {k: v[-1] for k, v in old.items()}
    # later stages append to, replace and delete pairs as in a dict
    key = next(iter(old))
    log.setdefault(key, []).append((8, 7))
    old[key].append((8, 7))
    new = frozenset((100, 101))
    log[new] = [(1,)]
    old[new] = [(1,)]
    gone = list(old)[-1]
    del log[gone], old[gone]
    assert dict(log) == old
    for view, which in ((log, None), (log.one_each(0), 0), (log.one_each(-1), -1)):
        many = view.in_some_set_many(triples[:, 0], triples[:, 2], triples[:, 1])
        sets = {k: (v if which is None else [v[which]]) for k, v in old.items()}
        expected = [
            any(b in s for s in sets.get(frozenset((a, c)), ())) for a, b, c in triples.tolist()
        ]
        np.testing.assert_array_equal(many, expected)
    with pytest.raises(KeyError):
        log[gone]


def test_fci_possible_dsep_kernel_equals_the_test_by_test_search(monkeypatch):
    # the batched Fisher-z search of the Possible-D-Sep stage against the one-test-at-a-time
    # search it replaces (the route other tests take), on problems where the stage removes
    from skbn.ci_tests._gaussian import _BoundFisherZ
    from skbn.graph import endpoint_matrix

    removed = 0
    for seed in (1, 2):
        dag = make_erdos_renyi_dag(60, 120, random_state=seed)
        hidden = [v for v in dag if dag.out_degree(v) >= 2][:6]  # latent common causes
        X = make_linear_gaussian(dag, random_state=seed).sample(1000, random_state=seed)
        X = X.drop(columns=hidden)
        fast = FCI(alpha=0.05).fit(X)
        with monkeypatch.context() as m:
            m.setattr(_BoundFisherZ, "correlation_matrix", lambda self: None)
            slow = FCI(alpha=0.05).fit(X)
        removed += fast.n_removed_possible_dsep_
        assert fast.n_removed_possible_dsep_ == slow.n_removed_possible_dsep_
        assert dict(fast.sepsets_) == dict(slow.sepsets_)
        names = list(X.columns)
        np.testing.assert_array_equal(
            endpoint_matrix(fast.graph_, names)[0], endpoint_matrix(slow.graph_, names)[0]
        )
    assert removed > 0
