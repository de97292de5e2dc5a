# SPDX-License-Identifier: BSD-3-Clause
"""FCI: with a d-separation oracle it must return the true PAG; on data, known behaviour."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.datasets import make_erdos_renyi_dag, make_linear_gaussian
from skbn.graph import dag_to_pag, endpoint_matrix, marked_edges
from skbn.learners import FCI
from skbn.utils.testing import d_separation_oracle
from tests.data import pag_oracle_cases


def _columns_of(observed, seed=0):
    # the oracle reads only the column names
    rng = np.random.default_rng(seed)
    return pd.DataFrame(rng.integers(0, 2, size=(20, len(observed))), columns=observed)


@pytest.mark.slow
def test_fci_with_a_d_separation_oracle_returns_the_true_pag():
    # with perfect tests FCI is sound and complete: its PAG is the PAG of the true MAG
    compared = 0
    # every third stored case with at most 12 measured nodes (the Possible-D-Sep stage tries
    # every subset of a set, so an exact oracle's cost grows fast with the graph)
    for seed, dag, latents in pag_oracle_cases(max_measured=12, every=3):
        observed = [n for n in dag if n not in latents]
        fci = FCI(ci_test=d_separation_oracle(dag), alpha=0.5).fit(_columns_of(observed))
        truth = dag_to_pag(dag, latents)
        assert marked_edges(fci.graph_) == marked_edges(truth), f"case {seed}"
        compared += 1
    assert compared >= 40


def test_fci_on_data_with_a_hidden_confounder():
    dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c")])
    X = make_linear_gaussian(dag, random_state=0).sample(3000, random_state=1)
    fci = FCI(alpha=0.01).fit(X.drop(columns="L"))
    assert fci.graph_.graph["kind"] == "pag"
    assert marked_edges(fci.graph_) == marked_edges(dag_to_pag(dag, "L"))
    assert fci.sepsets_[frozenset({"a", "c"})] == [()]


def test_fci_is_column_order_invariant_and_deterministic():
    dag = make_erdos_renyi_dag(12, 20, random_state=3)
    latents = [n for n in dag if dag.out_degree(n) >= 2][:2]
    X = make_linear_gaussian(dag, random_state=3).sample(800, random_state=3).drop(columns=latents)
    a = FCI(alpha=0.05).fit(X)
    b = FCI(alpha=0.05, n_jobs=2).fit(X[X.columns[::-1]])
    order = list(X.columns)
    np.testing.assert_array_equal(
        endpoint_matrix(a.graph_, order)[0], endpoint_matrix(b.graph_, order)[0]
    )
    assert list(b.graph_.nodes) == list(X.columns[::-1])


def test_fci_on_discrete_data_and_knowledge():
    from skbn.datasets import load_network

    X = load_network("asia").sample(5000, random_state=0)
    fci = FCI(alpha=0.01).fit(X)
    M, nodes = endpoint_matrix(fci.graph_)
    assert fci.graph_.graph["kind"] == "pag" and set(nodes) == set(X.columns)
    # a required arc is kept and oriented; a forbidden one puts an arrowhead at its tail
    edges = marked_edges(fci.graph_)
    u, v = edges[0].split()[0], edges[0].split()[2]
    req = FCI(alpha=0.01, required_edges=[(u, v)]).fit(X)
    assert f"{u} --> {v}" in marked_edges(req.graph_)
    forb = FCI(alpha=0.01, forbidden_edges=[(u, v)]).fit(X)
    Mf, nf = endpoint_matrix(forb.graph_)
    i, j = nf.index(u), nf.index(v)
    assert Mf[i, j] == 0 or Mf[j, i] == 2  # no edge, or an arrowhead at u


def test_a_pag_learner_has_no_likelihood():
    X = make_linear_gaussian(nx.DiGraph([("a", "b")]), random_state=0).sample(200, random_state=0)
    fci = FCI().fit(X)
    assert not hasattr(fci, "score_samples") and not hasattr(fci, "score")
    with pytest.raises(AttributeError, match="pag_to_mag"):
        fci.network_  # noqa: B018


def test_resampling_tools_refuse_a_pag_learner_before_any_fit():
    from skbn.datasets import load_network
    from skbn.ensemble import MultipleImputation, StructureLearningEnsemble
    from skbn.learners import HillClimb
    from skbn.model_selection import OTSLSearchCV

    X = load_network("asia").sample(300, random_state=0)
    for run in (
        lambda: StructureLearningEnsemble([FCI(), HillClimb()]).fit(X),
        lambda: MultipleImputation(FCI(), n_imputations=2).fit(X),
        lambda: OTSLSearchCV(FCI(), {"alpha": [0.01, 0.05]}).fit(X),
    ):
        with pytest.raises(ValueError, match="learns a PAG"):
            run()
