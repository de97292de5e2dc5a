# SPDX-License-Identifier: BSD-3-Clause
import functools
import itertools
import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, special, stats

from skbn._kernels import discrete as kd
from skbn.data import check_data
from skbn.graph import from_adjacency
from skbn.scores import (
    AIC,
    BIC,
    EBIC,
    K2,
    BDeu,
    BGe,
    GaussianBIC,
    GaussianEBIC,
    GaussianLogLikelihood,
    LogLikelihood,
)
from tests.conftest import random_dags


def _textbook(child, parents, X, kind, iss=1.0):
    """Family score by explicit loops over every configuration (no skbn code)."""
    levels = {c: sorted(X[c].unique()) for c in X.columns}
    r = len(levels[child])
    configs = list(itertools.product(*(levels[u] for u in parents)))
    q = len(configs)
    total = 0.0
    for config in configs:
        mask = np.ones(len(X), dtype=bool)
        for u, value in zip(parents, config):
            mask &= (X[u] == value).to_numpy()
        n_jk = np.array([(X.loc[mask, child] == s).sum() for s in levels[child]], dtype=float)
        n_j = n_jk.sum()
        if kind == "ll":
            total += sum(c * math.log(c / n_j) for c in n_jk if c > 0)
        else:
            a_jk = iss / (q * r) if kind == "bdeu" else 1.0
            a_j = a_jk * r
            total += special.gammaln(a_j) - special.gammaln(a_j + n_j)
            total += sum(special.gammaln(a_jk + c) - special.gammaln(a_jk) for c in n_jk)
    return total, (r - 1) * q


@pytest.fixture(scope="module")
def tiny():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 3, 60)
    b = (a + rng.integers(0, 2, 60)) % 3
    c = rng.integers(0, 2, 60) | (b == 2)
    return pd.DataFrame({"a": a, "b": b, "c": c.astype(int)})


def test_hand_computed_two_by_two():
    # a: 0 0 1 1 ; b: 0 1 1 1  ->  N(b|a=0) = (1, 1), N(b|a=1) = (0, 2)
    X = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
    ll = 2 * math.log(0.5)
    assert LogLikelihood().bind(X).local_score("b", ["a"]) == pytest.approx(ll)
    assert BIC().bind(X).local_score("b", ["a"]) == pytest.approx(ll - math.log(4) / 2 * 2)
    assert AIC().bind(X).local_score("b", ["a"]) == pytest.approx(ll - 2)
    assert EBIC(gamma=1).bind(X).local_score("b", ["a"]) == pytest.approx(
        ll - math.log(4) / 2 * 2 - 2 * math.log(2)
    )
    # BDeu(iss=4): a_jk = 1, a_j = 2 ->  per config lgamma(2) - lgamma(4) + sum lgamma(1 + c)
    g = math.lgamma
    expected = (g(2) - g(4) + g(2) + g(2)) + (g(2) - g(4) + g(1) + g(3))
    assert BDeu(iss=4).bind(X).local_score("b", ["a"]) == pytest.approx(expected)
    assert K2().bind(X).local_score("b", ["a"]) == pytest.approx(expected)
    # marginal of b: counts (1, 3)
    assert LogLikelihood().bind(X).local_score("b") == pytest.approx(
        math.log(1 / 4) + 3 * math.log(3 / 4)
    )


@pytest.mark.parametrize("parents", [[], ["a"], ["a", "c"], ["c", "a"]])
def test_scores_equal_the_textbook_formulas(tiny, parents):
    n = len(tiny)
    ll, k = _textbook("b", parents, tiny, "ll")
    assert LogLikelihood().bind(tiny).local_score("b", parents) == pytest.approx(ll)
    assert BIC(penalty_discount=2).bind(tiny).local_score("b", parents) == pytest.approx(
        ll - 2 * math.log(n) / 2 * k
    )
    assert EBIC(gamma=0.3, base="aic").bind(tiny).local_score("b", parents) == pytest.approx(
        ll - k - 0.3 * k * math.log(3)
    )
    bdeu, _ = _textbook("b", parents, tiny, "bdeu", iss=7.0)
    assert BDeu(iss=7.0).bind(tiny).local_score("b", parents) == pytest.approx(bdeu)
    k2, _ = _textbook("b", parents, tiny, "k2")
    assert K2().bind(tiny).local_score("b", parents) == pytest.approx(k2)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::skbn.data.DataKindWarning")  # many-state codes, on purpose
def test_dense_and_sorted_counting_agree_and_match_python():
    rng = np.random.default_rng(1)
    data = check_data(pd.DataFrame(rng.integers(0, 40, size=(300, 4))))
    parents = np.array([0, 1, 2], dtype=np.int64)
    index, q = kd.config_index(data.codes, parents, data.arities)
    y = data.codes[:, 3]
    for kind, param in [(kd.LOGLIK, 0.0), (kd.BDEU, 3.0), (kd.K2, 0.0)]:
        dense = kd._score_dense(index, q, y, data.arities[3], kind, param)
        sparse = kd._score_sorted(index, q, y, data.arities[3], kind, param)
        python = kd._score_sorted.py_func(index, q, y, data.arities[3], kind, param)
        assert dense == pytest.approx(sparse) and sparse == pytest.approx(python)
    # 40**3 * 40 cells for 300 rows: the public entry point must take the sorted path
    assert kd.family_score(data.codes, data.arities, 3, parents, kd.LOGLIK, 0.0) == (
        pytest.approx(kd._score_sorted(index, q, y, data.arities[3], kd.LOGLIK, 0.0))
    )


@pytest.mark.parametrize("score", [BIC(), BDeu(iss=5), K2(), AIC(), GaussianBIC(), BGe()])
def test_toggle_column_equals_local_scores(score, tiny):
    X = (
        tiny
        if score.data_kind == "discrete"
        else tiny.astype(float) + np.random.default_rng(0).normal(size=tiny.shape)
    )
    bound = score.bind(X)
    column = bound.toggle_scores(1, [0])
    assert column[1] == pytest.approx(bound.local_score(1, [0]))
    assert column[0] == pytest.approx(bound.local_score(1, []))
    assert column[2] == pytest.approx(bound.local_score(1, [0, 2]))


def _equivalent_dag(A, rng):
    """Reverse covered arcs a few times: the result is Markov equivalent (Chickering 1995)."""
    B = A.copy()
    for _ in range(6):
        covered = [
            (x, y)
            for x, y in zip(*np.nonzero(B))
            if set(np.flatnonzero(B[:, y])) == set(np.flatnonzero(B[:, x])) | {x}
        ]
        if not covered:
            break
        x, y = covered[rng.randint(len(covered))]
        B[x, y], B[y, x] = 0, 1
    return B


@functools.cache
def _asia_sample():
    from skbn.datasets import load_network

    X = load_network("asia").sample(3000, random_state=0)
    return X.set_axis([f"x{j}" for j in range(8)], axis=1)


@functools.cache
def _gaussian_sample():
    rng = np.random.default_rng(3)
    Z = rng.normal(size=(400, 6))
    Z[:, 1] += Z[:, 0]
    Z[:, 2] += 0.5 * Z[:, 1] - Z[:, 3]
    Z[:, 5] += Z[:, 4] * 0.8
    return pd.DataFrame(Z, columns=[f"x{j}" for j in range(6)])


@pytest.fixture
def discrete_data():
    return _asia_sample()


@pytest.fixture
def gaussian_data():
    return _gaussian_sample()


EQUIVALENT_SCORES = [
    BIC(),
    BDeu(iss=10),
    AIC(),
    EBIC(gamma=1),
    LogLikelihood(),
    GaussianBIC(),
    GaussianEBIC(),
    GaussianLogLikelihood(),
    BGe(),
]


@pytest.mark.slow
@given(random_dags(min_nodes=6, max_nodes=6), st.integers(0, 2**31 - 1))
def test_score_equivalence_on_markov_equivalent_dags(A, seed):
    B = _equivalent_dag(A, np.random.RandomState(seed))
    ga, gb = from_adjacency(A), from_adjacency(B)
    for score in EQUIVALENT_SCORES:
        data = _asia_sample().iloc[:, :6] if score.data_kind == "discrete" else _gaussian_sample()
        assert score.score_graph(ga, data) == pytest.approx(
            score.score_graph(gb, data), rel=1e-9, abs=1e-7
        ), score


def test_k2_is_not_score_equivalent(discrete_data):
    X = discrete_data.iloc[:, :2]
    a_to_b = K2().score_graph(nx.DiGraph([("x0", "x1")]), X)
    b_to_a = K2().score_graph(nx.DiGraph([("x1", "x0")]), X)
    assert a_to_b != pytest.approx(b_to_a)


def test_gaussian_loglik_matches_least_squares(gaussian_data):
    X = gaussian_data.to_numpy()
    n = len(X)
    design = np.column_stack([np.ones(n), X[:, [0, 1, 3]]])
    resid = X[:, 2] - design @ np.linalg.lstsq(design, X[:, 2], rcond=None)[0]
    s2 = resid @ resid / n
    expected = stats.norm.logpdf(resid, scale=math.sqrt(s2)).sum()
    got = GaussianLogLikelihood().bind(X).local_score(2, [0, 1, 3])
    assert got == pytest.approx(expected, rel=1e-10)
    bic = GaussianBIC(penalty_discount=3).bind(X).local_score(2, [0, 1, 3])
    assert bic == pytest.approx(expected - 3 * math.log(n) / 2 * 5)


def test_gaussian_score_survives_collinear_and_constant_columns():
    rng = np.random.default_rng(0)
    a = rng.normal(size=100)
    X = np.column_stack([a, 2 * a, np.ones(100), a + rng.normal(size=100)])
    bound = GaussianBIC().bind(X)
    assert np.isfinite(bound.local_score(3, [0, 1]))
    assert np.isfinite(bound.local_score(2, [0]))
    assert np.isfinite(bound.local_score(3, [2]))


@pytest.mark.slow
def test_bge_single_variable_equals_numerical_marginal_likelihood():
    """Normal-gamma marginal likelihood, integrated numerically, for p = 1."""
    x = np.array([0.3, -1.2, 0.8, 1.9])
    am = 1.0
    aw = 1 + am + 1  # default alpha_w for p = 1
    t = am * (aw - 2) / (am + 1)
    nu = x.mean()

    def integrand(mu, tau):
        prior_tau = stats.gamma.pdf(tau, a=aw / 2, scale=2 / t)
        prior_mu = stats.norm.pdf(mu, loc=nu, scale=1 / math.sqrt(am * tau))
        lik = np.prod(stats.norm.pdf(x, loc=mu, scale=1 / math.sqrt(tau)))
        return lik * prior_mu * prior_tau

    value, _ = integrate.dblquad(integrand, 0, 60, lambda tau: -8, lambda tau: 8)
    got = BGe().bind(x.reshape(-1, 1)).local_score(0)
    assert got == pytest.approx(math.log(value), abs=1e-5)


def test_bge_rejects_too_small_alpha_w(gaussian_data):
    with pytest.raises(ValueError, match="alpha_w > p \\+ 1"):
        BGe(alpha_w=3).bind(gaussian_data)


def test_kind_mismatch_and_bad_parameters_are_clear(gaussian_data, discrete_data):
    with pytest.raises(ValueError, match="BDeu needs discrete data.*KBinsDiscretizer"):
        BDeu().bind(gaussian_data)
    with pytest.raises(ValueError, match="GaussianBIC needs gaussian data"):
        GaussianBIC().bind(discrete_data)
    with pytest.raises(ValueError, match="iss"):
        BDeu(iss=-1).bind(discrete_data)
    with pytest.raises(ValueError, match="'nope' is not a variable"):
        BIC().bind(discrete_data).local_score("nope")
    with pytest.raises(ValueError, match="own parent"):
        BIC().bind(discrete_data).local_score("x0", ["x0"])


def test_score_graph_checks_nodes_and_uses_extension_for_cpdags(discrete_data):
    X = discrete_data.iloc[:, :3]
    cpdag = nx.DiGraph([("x0", "x1"), ("x1", "x0"), ("x1", "x2"), ("x2", "x1")])
    dag = nx.DiGraph([("x0", "x1"), ("x1", "x2")])
    assert BIC().score_graph(cpdag, X) == pytest.approx(BIC().score_graph(dag, X))
    with pytest.raises(ValueError, match="not in the data"):
        BIC().score_graph(nx.DiGraph([("x0", "zz"), ("x1", "x2")]), X)


def test_scores_clone_and_nest():
    from sklearn.base import clone

    s = EBIC(gamma=0.2, base="aic")
    assert clone(s).get_params() == {
        "gamma": 0.2,
        "penalty_discount": 1.0,
        "base": "aic",
        "chance_share": 0.05,
    }
    assert repr(BDeu(iss=3)) == "BDeu(iss=3)"
