# SPDX-License-Identifier: BSD-3-Clause
"""A column observed in a few rows must not take over the score-based learners.

Its families fit those few rows perfectly; scaled to all rows, that likelihood beat every
family scored on thousands of rows, so the column became the parent of every node (HillClimb
kept 2 of ASIA's 8 arcs). The available-case noise penalty now grows like ``n / sqrt(m)``.
"""

import math

import numpy as np
import pytest

from skbn.data import SparselyObservedWarning, check_data
from skbn.datasets import load_network, make_conditional_gaussian, make_linear_gaussian
from skbn.learners import BOSS, FGES, HillClimb, TabuSearch
from skbn.metrics import f1_adjacency
from skbn.scores import BIC
from skbn.scores._available import NOISE_PENALTY


@pytest.fixture(scope="module")
def asia():
    return load_network("asia")


def _with_sparse_column(X, n_observed, values):
    X = X.copy()
    X["noise"] = None if values[0].__class__ is str else np.nan
    X.loc[X.index[:n_observed], "noise"] = [values[i % len(values)] for i in range(n_observed)]
    return X


def _learners():
    return [HillClimb(), TabuSearch(), FGES(), BOSS(random_state=0)]


@pytest.mark.parametrize("n_observed", [3, 50])
@pytest.mark.parametrize("learner", _learners(), ids=lambda e: type(e).__name__)
def test_a_nearly_empty_discrete_column_does_not_take_over(asia, learner, n_observed):
    X = asia.sample(2000, random_state=0)
    without = learner.fit(X).graph_
    with pytest.warns(SparselyObservedWarning, match="'noise'"):
        graph = learner.fit(_with_sparse_column(X, n_observed, ["p", "q", "p"])).graph_
    assert graph.degree("noise") <= 1
    rest = graph.subgraph(X.columns)
    assert f1_adjacency(asia.graph, rest) >= f1_adjacency(asia.graph, without) - 0.15


@pytest.mark.parametrize("learner", _learners(), ids=lambda e: type(e).__name__)
def test_a_nearly_empty_gaussian_column_does_not_take_over(asia, learner):
    X = make_linear_gaussian(asia.graph, random_state=0).sample(2000, random_state=0)
    with pytest.warns(SparselyObservedWarning):
        graph = learner.fit(_with_sparse_column(X, 5, [0.3, -1.2, 2.0])).graph_
    assert graph.degree("noise") <= 1
    assert f1_adjacency(asia.graph, graph.subgraph(X.columns)) >= 0.8


def test_a_nearly_empty_column_in_mixed_data_does_not_take_over(asia):
    X = make_conditional_gaussian(asia, 0.3, random_state=0).sample(2000, random_state=0)
    with pytest.warns(SparselyObservedWarning):
        graph = HillClimb().fit(_with_sparse_column(X, 4, [0.5, 1.5])).graph_
    assert graph.degree("noise") <= 1


def test_the_noise_penalty_grows_as_the_observed_rows_shrink():
    # hand computation of the per-parameter penalty: a sqrt(n (n - m) / m)
    rng = np.random.default_rng(0)
    n = 400
    import pandas as pd

    X = pd.DataFrame({"a": rng.integers(0, 2, n), "b": rng.integers(0, 2, n)}).astype("Int64")
    X.loc[X.index[40:], "b"] = pd.NA  # b observed in 40 rows (10%)
    bound = BIC().bind(check_data(X, missing="allow"))
    rows = X.dropna()
    m = len(rows)
    counts = rows.groupby(["b", "a"]).size().to_numpy(dtype=float)
    margins = rows.groupby("b").size().to_numpy(dtype=float)
    loglik = (counts * np.log(counts)).sum() - (margins * np.log(margins)).sum()
    per = max(math.log(n) / 2, NOISE_PENALTY * math.sqrt(n * (n - m) / m))
    assert bound.local_score("a", ["b"]) == pytest.approx(n / m * loglik - per * 2, rel=1e-10)
    assert per == pytest.approx(NOISE_PENALTY * math.sqrt(400 * 360 / 40))
