# SPDX-License-Identifier: BSD-3-Clause
import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2_contingency

from skbn.datasets import load_network
from skbn.ensemble import BootstrapPosetLearner, bootstrap_edge_frequencies
from skbn.ensemble._bootstrap import holm, proportion_test_greater
from skbn.ensemble._poset import agony, agony_ranks, confidence_poset
from skbn.graph import from_adjacency, is_dag, to_adjacency
from skbn.learners import FGES


@pytest.fixture(scope="module")
def asia():
    bn = load_network("asia")
    return bn, bn.sample(3000, random_state=0)


@pytest.mark.slow
@pytest.mark.parametrize("loop_removal", ["confidence", "agony"])
def test_final_graph_is_an_acyclic_subgraph_of_an_acyclic_poset(asia, loop_removal):
    _, X = asia
    est = BootstrapPosetLearner(
        n_poset_resamples=15, n_test_resamples=15, loop_removal=loop_removal, random_state=0
    ).fit(X)
    assert is_dag(est.poset_) and is_dag(est.graph_)
    assert set(est.graph_.edges()) <= set(est.poset_.edges())
    assert len(est.edge_pvalues_) == est.poset_.number_of_edges()
    assert {"u", "v", "count"} <= set(est.consensus_.columns)
    assert est.plot_edge_frequencies() is not None


def test_true_dag_is_recovered_from_its_transitive_closure():
    bn = load_network("cancer")
    X = bn.sample(20000, random_state=0)
    closure = nx.transitive_closure_dag(bn.graph)
    est = BootstrapPosetLearner(poset=closure, n_test_resamples=20, random_state=0).fit(X)
    assert set(est.graph_.edges()) == set(bn.graph.edges())


def test_the_default_start_is_the_empty_graph_and_the_chain_is_accepted(asia):
    _, X = asia
    fits = {
        start: BootstrapPosetLearner(
            n_poset_resamples=5, n_test_resamples=5, random_state=0, **kwargs
        ).fit(X)
        for start, kwargs in [
            ("default", {}),
            ("empty", {"start": "empty"}),
            ("random_chain", {"start": "random_chain"}),
        ]
    }
    default, empty = fits["default"], fits["empty"]
    assert default.consensus_.equals(empty.consensus_)
    assert set(default.graph_.edges()) == set(empty.graph_.edges())
    assert is_dag(fits["random_chain"].graph_)
    with pytest.raises(ValueError, match="start"):
        BootstrapPosetLearner(start="chain").fit(X)


def test_results_do_not_depend_on_n_jobs(asia):
    _, X = asia
    a = BootstrapPosetLearner(n_poset_resamples=8, n_test_resamples=8, random_state=3).fit(X)
    b = BootstrapPosetLearner(
        n_poset_resamples=8, n_test_resamples=8, random_state=3, n_jobs=2
    ).fit(X)
    assert set(a.graph_.edges()) == set(b.graph_.edges())
    np.testing.assert_allclose(a.edge_pvalues_["p"], b.edge_pvalues_["p"])


def test_agony_lp_is_optimal_against_brute_force():
    rng = np.random.RandomState(0)
    for _ in range(25):
        counts = rng.randint(0, 4, size=(5, 5)) * (rng.random_sample((5, 5)) < 0.5)
        np.fill_diagonal(counts, 0)
        if not counts.any():
            continue
        best = min(agony(counts, np.array(r)) for r in itertools.product(range(5), repeat=5))
        assert agony(counts, agony_ranks(counts)) == best


def test_confidence_poset_drops_the_weakest_arc_of_a_cycle():
    counts = np.array([[0, 5, 0], [0, 0, 4], [1, 0, 0]])  # 0 -> 1 -> 2 -> 0, weakest 2 -> 0
    poset = confidence_poset(counts, np.random.RandomState(0))
    assert poset.tolist() == [[False, True, False], [False, False, True], [False, False, False]]


def test_proportion_test_equals_yates_chi_square():
    for m, z in [(30, 10), (55, 40), (12, 3)]:
        chi2 = chi2_contingency([[m, 100 - m], [z, 100 - z]], correction=True)[0]
        from scipy import stats

        assert proportion_test_greater(np.array([m]), np.array([z]), 100)[0] == pytest.approx(
            stats.norm.sf(np.sqrt(chi2))
        )
    assert proportion_test_greater(np.array([0, 100]), np.array([0, 100]), 100).tolist() == [
        1.0,
        1.0,
    ]
    assert proportion_test_greater(np.array([10]), np.array([30]), 100)[0] > 0.5


def test_holm_matches_hand_computation():
    np.testing.assert_allclose(holm(np.array([0.01, 0.04, 0.03])), [0.03, 0.06, 0.06])


def test_edge_frequencies_and_averaged_graph(asia):
    _, X = asia
    freq = bootstrap_edge_frequencies(FGES(), X, n_resamples=10, random_state=0)
    again = bootstrap_edge_frequencies(FGES(), X, n_resamples=10, random_state=0, n_jobs=2)
    assert freq.table.equals(again.table)
    assert freq.table["strength"].between(0, 1).all()
    assert freq.table["direction"].between(0, 1).all()
    graph = freq.averaged_graph(0.5)
    A = to_adjacency(graph, freq.nodes)
    # FGES returns CPDAGs: pairs undirected in every fit stay undirected, the rest is acyclic
    assert is_dag(from_adjacency(A & ~A.T, freq.nodes, kind="dag"))
    assert (A | A.T).sum() // 2 <= len(freq.table) // 2


def test_estimator_without_constraints_is_refused(asia):
    from skbn.learners import PCStable

    _, X = asia
    with pytest.raises(ValueError, match="start_graph"):
        BootstrapPosetLearner(PCStable(), n_poset_resamples=2, n_test_resamples=2).fit(X)


def test_a_pag_learner_bootstrap_counts_each_edge_type():
    # Tetrad's edge-type probabilities: the same resamples fitted here by hand give the
    # same counts, the types sum to the pair's strength, and n_jobs changes nothing
    from skbn.datasets import make_latent_problem
    from skbn.ensemble import EDGE_TYPES, PAGEdgeFrequencies
    from skbn.graph import endpoint_matrix, marked_edges
    from skbn.learners import FCI

    problem = make_latent_problem(
        "asia", latents=["lung"], kind="discrete", n_samples=800, random_state=0
    )
    X = problem.X
    freq = bootstrap_edge_frequencies(FCI(alpha=0.01), X, n_resamples=8, random_state=3)
    assert isinstance(freq, PAGEdgeFrequencies)
    rng = np.random.RandomState(3)
    counts: dict = {}
    names = list(X.columns)
    for _ in range(8):
        rows = rng.randint(0, len(X), size=len(X))
        g = FCI(alpha=0.01).fit(X.iloc[rows].reset_index(drop=True)).graph_
        for edge in marked_edges(g, names):
            u, mark, v = edge.split()
            if names.index(u) > names.index(v):  # the table writes the pair in column order
                flip = {"<": ">", ">": "<", "-": "-", "o": "o"}
                u, v, mark = v, u, flip[mark[2]] + "-" + flip[mark[0]]
            counts[(u, v, mark)] = counts.get((u, v, mark), 0) + 1
    table = freq.table.set_index(["u", "v"])
    for (u, v, mark), c in counts.items():
        assert table.loc[(u, v), mark] == pytest.approx(c / 8)
    assert len(table) == len({(u, v) for u, v, _ in counts})
    np.testing.assert_allclose(table[list(EDGE_TYPES)].sum(axis=1), table["strength"])
    again = bootstrap_edge_frequencies(FCI(alpha=0.01), X, n_resamples=8, random_state=3, n_jobs=2)
    pd.testing.assert_frame_equal(again.table, freq.table)
    # the averaged PAG keeps each strong pair's most frequent type
    averaged = freq.averaged_graph(0.5)
    assert averaged.graph["kind"] == "pag"
    for edge in marked_edges(averaged, names):
        u, mark, v = edge.split()
        key = (u, v) if (u, v) in table.index else (v, u)
        row = table.loc[key]
        assert row["strength"] >= 0.5
        best = max(EDGE_TYPES, key=lambda t: row[t])
        shown = endpoint_matrix(averaged, names)[0]
        i, j = names.index(key[0]), names.index(key[1])
        symbol = {1: "o", 2: ">", 3: "-"}
        assert best[2] == symbol[shown[i, j]]
        assert best[0] == {1: "o", 2: "<", 3: "-"}[shown[j, i]]
