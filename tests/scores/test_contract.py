# SPDX-License-Identifier: BSD-3-Clause
"""The declared contract between bound scores / tests and the learners.

Learners reach a score only through ``family_score``, ``family_score_uncached``,
``local_scores``, ``toggle_scores``, ``addition_scores``, ``pairwise_scores``,
``effect_pairs``, ``family_score_args`` and ``gaussian_kernel_args``, and a test through
``test_positions``, ``log_pvalue(s)``, ``correlation_matrix`` and ``rows_per_cell``. Every
registered family answers each of them consistently, and the learners take a fast route
where one is declared.
"""

import math

import numpy as np
import pandas as pd
import pytest

from skbn.ci_tests import get_ci_test
from skbn.ci_tests._registry import CI_TESTS
from skbn.learners import BOSS, FGES, PCStable
from skbn.scores import get_score
from skbn.scores._registry import SCORES


def _data(kind):
    rng = np.random.default_rng(0)
    n = 300
    a = rng.normal(size=n)
    b = a + rng.normal(size=n)
    c = b - a + rng.normal(size=n)
    d = rng.normal(size=n)
    frame = pd.DataFrame({"a": a, "b": b, "c": c, "d": d})
    if kind == "discrete":
        return frame.apply(lambda s: pd.qcut(s, 3, labels=["lo", "mid", "hi"]).astype(str))
    if kind == "mixed":
        return frame.assign(a=np.where(a > 0, "up", "down"), d=np.where(d > 0, "u", "v"))
    return frame


def _cases(registry):
    """Every (family, data kind) a registry resolves."""
    return [
        pytest.param(name, kind, id=f"{name}-{kind}")
        for name, family in registry.families.items()
        for kind in family.classes
    ]


@pytest.mark.parametrize("name, kind", _cases(SCORES))
def test_every_score_answers_the_contract(name, kind):
    bound = get_score(name, kind).bind(_data(kind))
    p = bound.n_features
    # the cached and uncached family scores, and the public one by names, agree
    for child, parents in [(1, ()), (2, (0, 1)), (3, (0,))]:
        cached = bound.family_score(child, parents)
        assert cached == bound.family_score_uncached(child, np.array(parents, dtype=np.int64))
        assert cached == bound.local_score(bound.names[child], [bound.names[u] for u in parents])
    # a batch is the families one by one
    children = np.array([1, 2, 3, 0], dtype=np.int32)
    pool = np.array([0, 0, 1, 1, 2], dtype=np.int32)
    offsets = np.array([0, 1, 3, 3], dtype=np.int64)
    lengths = np.array([1, 2, 0, 2], dtype=np.int32)
    batch = bound.local_scores(children, offsets, lengths, pool)
    expected = [
        bound.family_score(int(y), tuple(int(u) for u in pool[o : o + k]))
        for y, o, k in zip(children, offsets, lengths)
    ]
    np.testing.assert_allclose(batch, expected, rtol=1e-12, atol=1e-9)
    # toggles and additions are family scores
    toggles = bound.toggle_scores(2, [0])
    assert toggles[2] == pytest.approx(bound.family_score(2, (0,)), rel=1e-12, abs=1e-9)
    assert toggles[1] == pytest.approx(bound.family_score(2, (0, 1)), rel=1e-12, abs=1e-9)
    assert toggles[0] == pytest.approx(bound.family_score(2, ()), rel=1e-12, abs=1e-9)
    # the screen, where declared, is the pairs of positive one-edge gain
    pairs = bound.effect_pairs()
    if pairs is not None:
        S = bound.pairwise_scores()
        gain = S - np.diag(S)[None, :]
        positive = {
            (min(i, j), max(i, j))
            for i in range(p)
            for j in range(p)
            if i != j and (gain[i, j] > 0 or gain[j, i] > 0)
        }
        assert {(min(i, j), max(i, j)) for i, j in zip(*pairs)} == positive
    for method in ("family_score_args", "gaussian_kernel_args"):
        args = getattr(bound, method)()
        assert args is None or isinstance(args, tuple)
    if kind != "gaussian":
        assert bound.family_score_args() is None and bound.gaussian_kernel_args() is None


@pytest.mark.parametrize("name, kind", _cases(CI_TESTS))
def test_every_test_answers_the_contract(name, kind):
    test = get_ci_test(name, kind)
    bound = test.bind(_data(kind))
    corr = bound.correlation_matrix()
    assert (corr is None) == (name != "fisher_z")
    cells = bound.rows_per_cell(1, 2, [3])
    if kind == "gaussian":
        assert cells == math.inf
    else:
        expected = 300 / math.prod(int(bound.data.arities[v]) for v in (1, 2, 3))
        assert cells == pytest.approx(expected)
    assert isinstance(test.threaded_kernels, bool)


def _never(*args, **kwargs):
    raise AssertionError("the slow route was taken")


def _counted(monkeypatch, cls, name):
    """Count the calls of ``cls.name`` (still doing its work)."""
    calls = []
    original = getattr(cls, name)

    def wrapper(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, wrapper)
    return calls


def test_fges_scores_gaussian_families_in_its_kernel(monkeypatch):
    from skbn.scores._gaussian import _BoundGaussianLL

    X = _data("gaussian")
    expected = FGES().fit(X).graph_
    # with the declared kernel route, no batch is asked of the score
    monkeypatch.setattr(_BoundGaussianLL, "local_scores", _never)
    assert set(FGES().fit(X).graph_.edges) == set(expected.edges)
    # without it, the batches give the same graph
    monkeypatch.undo()
    monkeypatch.setattr(_BoundGaussianLL, "family_score_args", lambda self: None)
    calls = _counted(monkeypatch, _BoundGaussianLL, "local_scores")
    assert set(FGES().fit(X).graph_.edges) == set(expected.edges)
    assert calls


def test_boss_expands_gaussian_trees_in_its_kernel(monkeypatch):
    from skbn.scores._gaussian import _BoundGaussianLL

    X = _data("gaussian")
    expected = BOSS(random_state=0).fit(X).graph_
    monkeypatch.setattr(_BoundGaussianLL, "_toggle", _never)
    monkeypatch.setattr(_BoundGaussianLL, "_additions", _never)
    assert set(BOSS(random_state=0).fit(X).graph_.edges) == set(expected.edges)
    monkeypatch.undo()
    monkeypatch.setattr(_BoundGaussianLL, "gaussian_kernel_args", lambda self: None)
    calls = _counted(monkeypatch, _BoundGaussianLL, "_additions")
    assert set(BOSS(random_state=0).fit(X).graph_.edges) == set(expected.edges)
    assert calls


def test_pc_runs_fisher_z_levels_in_its_kernel(monkeypatch):
    from skbn.ci_tests._gaussian import _BoundFisherZ

    X = _data("gaussian")
    expected = PCStable().fit(X).graph_
    monkeypatch.setattr(_BoundFisherZ, "_log_pvalue", _never)
    monkeypatch.setattr(_BoundFisherZ, "_test", _never)
    assert set(PCStable().fit(X).graph_.edges) == set(expected.edges)
    monkeypatch.undo()
    monkeypatch.setattr(_BoundFisherZ, "correlation_matrix", lambda self: None)
    calls = _counted(monkeypatch, _BoundFisherZ, "_test")
    assert set(PCStable().fit(X).graph_.edges) == set(expected.edges)
    assert calls
