# SPDX-License-Identifier: BSD-3-Clause
"""MultipleImputation, and the arc pooling it shares with the bootstrap."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.impute import SimpleImputer

from skbn.datasets import load_network, make_linear_gaussian
from skbn.ensemble import EdgeFrequencies, MultipleImputation, edge_frequencies
from skbn.graph import is_dag
from skbn.graph._convert import to_adjacency
from skbn.learners import FGES
from skbn.metrics import f1_adjacency


@pytest.fixture(scope="module")
def gaussian():
    graph = load_network("asia").graph
    X = make_linear_gaussian(graph, random_state=0).sample(1000, random_state=0)
    return graph, X.mask(np.random.default_rng(1).random(X.shape) < 0.2)


def test_edge_frequencies_match_hand_counts():
    # four fits over a, b, c: a->b, a->b, b->a, a-b (undirected); b->c in the first only
    A = np.zeros((4, 3, 3), dtype=int)
    A[0, 0, 1] = A[1, 0, 1] = A[2, 1, 0] = 1
    A[3, 0, 1] = A[3, 1, 0] = 1
    A[0, 1, 2] = 1
    table = edge_frequencies(list(A), ["a", "b", "c"]).table.set_index(["u", "v"])
    assert table.loc[("a", "b"), "strength"] == 1.0
    assert table.loc[("a", "b"), "direction"] == pytest.approx(2.5 / 4)  # 2 + half of 1
    assert table.loc[("b", "a"), "direction"] == pytest.approx(1.5 / 4)
    assert table.loc[("b", "c"), "strength"] == pytest.approx(0.25)
    assert ("a", "c") not in table.index


def test_averaged_graph_keeps_tied_pairs_undirected_and_the_rest_acyclic():
    rows = [
        ("a", "b", 1.0, 0.5),
        ("b", "a", 1.0, 0.5),  # undirected in every fit
        ("b", "c", 0.9, 1.0),
        ("c", "b", 0.9, 0.0),
        ("c", "d", 0.8, 1.0),
        ("d", "c", 0.8, 0.0),
        ("d", "b", 0.6, 1.0),
        ("b", "d", 0.6, 0.0),  # closes b -> c -> d -> b: dropped
        ("a", "d", 0.3, 1.0),
        ("d", "a", 0.3, 0.0),  # below the threshold
    ]
    table = pd.DataFrame(rows, columns=["u", "v", "strength", "direction"])
    graph = EdgeFrequencies(table, list("abcd")).averaged_graph(0.5)
    assert graph.graph["kind"] == "pdag"
    assert sorted(graph.edges) == [("a", "b"), ("b", "a"), ("b", "c"), ("c", "d")]


def test_bootstrap_of_a_cpdag_learner_keeps_its_undirected_edges():
    from skbn.ensemble import bootstrap_edge_frequencies

    X = load_network("asia").sample(1500, random_state=0)
    freq = bootstrap_edge_frequencies(FGES(), X, n_resamples=6, random_state=0)
    graph = freq.averaged_graph(0.5)
    A = to_adjacency(graph, freq.nodes)
    directed = A & ~A.T
    assert is_dag(nx_from(directed, freq.nodes))
    ties = freq.table[(freq.table["strength"] >= 0.5) & np.isclose(freq.table["direction"], 0.5)]
    index = {n: k for k, n in enumerate(freq.nodes)}
    for row in ties.itertuples():
        assert A[index[row.u], index[row.v]] and A[index[row.v], index[row.u]]


def nx_from(A, nodes):
    from skbn.graph._convert import from_adjacency

    return from_adjacency(A, nodes, kind="dag")


def test_pooled_strengths_are_the_vote_over_the_copies(gaussian):
    _, X = gaussian
    mi = MultipleImputation(n_imputations=4, random_state=0).fit(X)
    names = list(mi.feature_names_in_)
    fits = [to_adjacency(est.graph_, names) for est in mi.estimators_]
    joined = np.mean([(A | A.T) for A in fits], axis=0)
    table = mi.edge_frequencies_.table
    for row in table.itertuples():
        assert row.strength == pytest.approx(joined[names.index(row.u), names.index(row.v)])


def test_imputed_copies_differ_and_are_complete(gaussian):
    _, X = gaussian
    mi = MultipleImputation(n_imputations=3, random_state=0)
    from skbn.data import check_data

    data = check_data(X, kind="gaussian", missing="allow")
    frame = data.to_frame()
    a, b = mi._impute(data, frame, 1), mi._impute(data, frame, 2)
    observed = ~X.isna().to_numpy()
    assert not a.isna().any().any()
    np.testing.assert_array_equal(a.to_numpy()[observed], X.to_numpy()[observed])
    assert not np.allclose(a.to_numpy()[~observed], b.to_numpy()[~observed])


@pytest.mark.slow
def test_recovers_the_skeleton_and_is_deterministic_whatever_n_jobs(gaussian):
    graph, X = gaussian
    mi = MultipleImputation(n_imputations=5, random_state=0).fit(X)
    again = MultipleImputation(n_imputations=5, random_state=0, n_jobs=2).fit(X)
    assert mi.edge_frequencies_.table.equals(again.edge_frequencies_.table)
    assert sorted(mi.graph_.edges) == sorted(again.graph_.edges)
    assert f1_adjacency(graph, mi.graph_) >= 0.8
    assert np.isfinite(mi.score(X.dropna()))


def test_complete_data_needs_no_imputer():
    X = load_network("asia").sample(800, random_state=0)
    mi = MultipleImputation(n_imputations=2, random_state=0).fit(X)
    assert set(mi.edge_frequencies_.table["strength"]) <= {0.5, 1.0}


def test_default_imputer_refuses_discrete_data_naming_the_columns():
    X = load_network("asia").sample(500, random_state=0)
    X.iloc[0, 2] = np.nan
    with pytest.raises(ValueError, match=r"columns \['asia'.*StructuralEM"):
        MultipleImputation(n_imputations=2).fit(X)


def test_deterministic_imputer_warns_and_discrete_states_come_back():
    X = load_network("asia").sample(800, random_state=0)
    X = X.mask(np.random.default_rng(0).random(X.shape) < 0.1)
    mi = MultipleImputation(imputer=SimpleImputer(strategy="most_frequent"), n_imputations=2)
    with pytest.warns(UserWarning, match="single imputation"):
        mi.fit(X)
    fits = [to_adjacency(e.graph_, list(mi.feature_names_in_)) for e in mi.estimators_]
    np.testing.assert_array_equal(fits[0], fits[1])
    assert mi.estimators_[0].parameters_ is not None


def test_imputer_output_is_checked_naming_the_column():
    X = load_network("asia").sample(500, random_state=0)
    X = X.mask(np.random.default_rng(0).random(X.shape) < 0.1)
    unknown = SimpleImputer(strategy="constant", fill_value="maybe")
    with pytest.raises(ValueError, match="column 'asia'.*'maybe'"), pytest.warns(UserWarning):
        MultipleImputation(imputer=unknown, n_imputations=1).fit(X)

    class DropsFirst(TransformerMixin, BaseEstimator):
        def fit(self, X, y=None):
            return self

        def transform(self, X):
            return SimpleImputer(strategy="most_frequent").fit_transform(X)[:, 1:]

    with pytest.raises(ValueError, match="shape"), pytest.warns(UserWarning):
        MultipleImputation(imputer=DropsFirst(), n_imputations=1).fit(X)


def test_a_cpdag_learner_pools_to_a_pdag_with_an_acyclic_directed_part(gaussian):
    graph, X = gaussian
    mi = MultipleImputation(FGES("bic-g"), n_imputations=3, random_state=0).fit(X)
    A = to_adjacency(mi.graph_, list(mi.feature_names_in_))
    assert is_dag(nx_from(A & ~A.T, list(mi.feature_names_in_)))
    assert f1_adjacency(graph, mi.graph_) >= 0.8


def test_bootstraps_of_learners_that_take_missing_values_take_them_too():
    from skbn.ensemble import BootstrapPosetLearner, bootstrap_edge_frequencies
    from skbn.learners import HillClimb

    X = load_network("asia").sample(1500, random_state=0)
    X = X.mask(np.random.default_rng(0).random(X.shape) < 0.1)
    freq = bootstrap_edge_frequencies(HillClimb(), X, n_resamples=4, random_state=0)
    again = bootstrap_edge_frequencies(HillClimb(), X, n_resamples=4, random_state=0, n_jobs=2)
    assert freq.table.equals(again.table)
    assert freq.table.set_index(["u", "v"]).loc[("either", "xray"), "strength"] == 1.0
    learner = BootstrapPosetLearner(
        HillClimb(), n_poset_resamples=4, n_test_resamples=4, random_state=0
    ).fit(X)
    assert learner.poset_.number_of_edges() > 0
    # the inner score must have an available-case form, checked before any fit
    with pytest.raises(ValueError, match="BDeu.*available-case"):
        BootstrapPosetLearner(HillClimb("bdeu")).fit(X)
    # a learner that cannot use missing values is refused, naming the columns
    from skbn.learners import ExactSearch

    with pytest.raises(ValueError, match="Columns 'asia'"):
        bootstrap_edge_frequencies(ExactSearch(), X, n_resamples=2)
