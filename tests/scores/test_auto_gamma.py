# SPDX-License-Identifier: BSD-3-Clause
"""EBIC(gamma="auto"): the pair counts, the chance tail, and the gamma it chooses."""

import math

import numpy as np
import pandas as pd
import pytest

from skbn.data import check_data
from skbn.datasets import load_network
from skbn.learners import FGES
from skbn.scores import BIC, EBIC
from skbn.scores import _auto_gamma as auto


def _coins(n, p, seed):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(rng.integers(0, 2, (n, p)).astype(str)).add_prefix("c")


def _gamma_stars(frame, base="bic", discount=1.0):
    """Every pair's gamma* by numpy contingency tables (the definition, no kernel)."""
    p = frame.shape[1]
    out = []
    for i in range(p):
        for j in range(i + 1, p):
            both = frame.iloc[:, [i, j]].dropna()
            table = pd.crosstab(both.iloc[:, 0], both.iloc[:, 1]).to_numpy(float)
            total = table.sum()
            ri = frame.iloc[:, i].nunique()
            rj = frame.iloc[:, j].nunique()
            df = (ri - 1) * (rj - 1)
            if df == 0:
                continue
            expected = table.sum(1, keepdims=True) * table.sum(0, keepdims=True) / total
            nz = table > 0
            gain = float((table[nz] * np.log(table[nz] / expected[nz])).sum())
            unit = discount * math.log(total) / 2 if base == "bic" else discount
            out.append((gain / df - unit) / math.log(p))
    return np.array(out)


@pytest.mark.parametrize("base", ["bic", "aic"])
def test_pair_counts_match_contingency_tables(base):
    # arities 2 to 4 and missing cells: each pair on the rows where both are observed
    rng = np.random.default_rng(3)
    n = 120
    z = rng.integers(0, 3, n)
    frame = pd.DataFrame(
        {
            "a": z,
            "b": (z + (rng.random(n) < 0.3)) % 3,
            "c": rng.integers(0, 2, n),
            "d": rng.integers(0, 4, n),
            "e": (z > 0).astype(int) ^ (rng.random(n) < 0.1),
        }
    ).astype(str)
    frame = frame.mask(rng.random(frame.shape) < 0.1)
    data = check_data(frame, missing="allow")
    gammas, _, passing = auto.chance_and_passing(data, base, 1.5)
    stars = _gamma_stars(frame, base, 1.5)
    expected = np.array([(stars > g).sum() for g in gammas], dtype=float)
    # a pair on a bin's edge may fall either side of it: compare away from the edges
    edges = np.abs(stars[:, None] - gammas[None, :]).min(axis=0) > 1e-9
    assert passing[0] == (stars > 0).sum()
    np.testing.assert_array_equal(passing[edges], expected[edges])


def test_chance_tail_counts_independent_pairs():
    # on unrelated coins, the chance count at each gamma is what passes (a chi-square fact
    # checked against the data, not against the code's own formula)
    data = check_data(_coins(400, 120, seed=0))
    gammas, chance, passing = auto.chance_and_passing(data, "bic", 1.0)
    for g in (0.0, 0.1, 0.2):
        k = int(round(g / auto.GAMMA_STEP))
        assert chance[k] > 20
        assert abs(passing[k] - chance[k]) < 4 * math.sqrt(chance[k]), (g, passing[k], chance[k])


def test_bic_exactly_where_chance_pairs_are_few():
    X = load_network("asia").sample(5000, random_state=0)
    bound = EBIC(gamma="auto").bind(X)
    assert bound.score.gamma == 0.0
    bic = BIC().bind(X)
    for child, parents in [("dysp", ["bronc", "either"]), ("xray", ["either"]), ("smoke", [])]:
        assert bound.local_score(child, parents) == bic.local_score(child, parents)


def test_many_unrelated_columns_get_a_large_gamma_and_few_edges():
    X = _coins(100, 400, seed=1)
    assert EBIC(gamma="auto").bind(X).score.gamma > 0.8
    auto_edges = FGES().fit(X).graph_.number_of_edges()
    bic_edges = FGES(BIC()).fit(X).graph_.number_of_edges()
    assert bic_edges > 200
    assert auto_edges <= 5


def test_gamma_does_not_depend_on_column_order(monkeypatch):
    X = _coins(60, 150, seed=2)
    X["r"] = X["c0"]  # one real pair
    order = np.random.default_rng(0).permutation(X.shape[1])
    full = EBIC(gamma="auto").bind(X).score.gamma
    assert EBIC(gamma="auto").bind(X.iloc[:, order]).score.gamma == full
    # the subset of columns taken beyond the budget is chosen by name too
    monkeypatch.setattr(auto, "PAIR_BUDGET", 60 * 40 * 39 // 2)
    monkeypatch.setattr(auto, "MIN_COLUMNS", 40)
    part = EBIC(gamma="auto").bind(X).score.gamma
    assert EBIC(gamma="auto").bind(X.iloc[:, order]).score.gamma == part
    assert len(auto._columns(list(X.columns), 60)) == 40


def test_missing_values_keep_the_available_case_route():
    X = _coins(200, 60, seed=4).mask(np.random.default_rng(0).random((200, 60)) < 0.05)
    bound = EBIC(gamma="auto").bind(X)
    assert bound.score.gamma > 0
    assert bound.score.gamma != "auto"
    assert np.isfinite(bound.local_score("c1", ["c0"]))


@pytest.mark.parametrize(
    "params, match",
    [({"gamma": "automatic"}, "gamma"), ({"chance_share": 2.0}, "chance_share")],
)
def test_bad_parameters_are_named(params, match):
    with pytest.raises(ValueError, match=match):
        EBIC(**params).bind(_coins(20, 3, seed=0))
