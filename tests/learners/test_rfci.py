# SPDX-License-Identifier: BSD-3-Clause
"""RFCI: the RFCI-PAG's guarantees with perfect tests, its checks, and known behaviour."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.ci_tests._base import BoundCITest, CIResult, CITest
from skbn.datasets import make_erdos_renyi_dag, make_latent_problem, make_linear_gaussian
from skbn.graph import dag_to_pag, endpoint_matrix, marked_edges
from skbn.graph._pag import ARROW, TAIL
from skbn.learners import FCI, RFCI, PCStable
from skbn.learners._rfci import _EdgesRemoved, _RFCIChecks
from skbn.utils.testing import d_separated, d_separation_oracle
from tests.data import pag_oracle_cases


def _columns_of(names):
    rng = np.random.default_rng(0)
    return pd.DataFrame(rng.integers(0, 2, size=(20, len(names))), columns=names)


def _scripted(independent):
    """A CI test that answers from ``independent(x, y, cond)`` on names (a test double)."""

    class _Bound(BoundCITest):
        def _test(self, x, y, cond):
            names = self.names
            yes = independent(names[x], names[y], frozenset(names[c] for c in cond))
            return CIResult(0.0, 1.0, 1.0 if yes else 0.0)

        def _log_pvalue(self, x, y, cond):
            return 0.0 if self._test(x, y, cond).pvalue == 1.0 else -float("inf")

    class Scripted(CITest):
        data_kind = "discrete"

        def _bind(self, data):
            return _Bound(self, data)

    return Scripted()


def _check_rfci_pag(dag, observed, M, sepsets):
    """Colombo et al.'s definition of an RFCI-PAG, against the true DAG."""
    ancestor = {v: nx.ancestors(dag, v) for v in observed}
    for i, u in enumerate(observed):
        for j, v in enumerate(observed):
            if i >= j:
                continue
            if M[i, j] == 0:
                (sep,) = sepsets[frozenset((u, v))]
                assert d_separated(dag, u, v, set(sep)), (u, v, sep)
    for i, u in enumerate(observed):
        for j, v in enumerate(observed):
            # M[i, j] is the mark at v on the edge u - v
            if M[i, j] == TAIL:
                assert v in ancestor[u], f"tail at {v} on {u} - {v}, but {v} is no ancestor"
            if M[i, j] == ARROW:
                assert v not in ancestor[u], f"arrowhead at {v} on {u} - {v}, but an ancestor"


def test_with_perfect_tests_rfci_returns_the_true_pag_on_the_stored_cases():
    compared = 0
    for seed, dag, latents in pag_oracle_cases(max_measured=12):
        observed = sorted(n for n in dag if n not in latents)
        est = RFCI(ci_test=d_separation_oracle(dag), alpha=0.5).fit(_columns_of(observed))
        M, _ = endpoint_matrix(est.graph_, observed)
        truth, _ = endpoint_matrix(dag_to_pag(dag, latents), observed)
        _check_rfci_pag(dag, observed, M, est.sepsets_)
        assert np.array_equal(M, truth), f"case {seed}"
        compared += 1
    assert compared >= 100


def test_an_edge_only_possible_d_sep_removes_stays_and_every_mark_is_sound():
    # found by a search over random DAGs: PC's skeleton keeps an edge that only a set
    # beyond both ends' adjacencies separates; FCI removes it, RFCI keeps it (as the paper
    # says it may), and every mark RFCI gives is still true of the DAG
    dag = nx.DiGraph(
        [("x0", "x4"), ("x0", "x5"), ("x1", "x3"), ("x1", "x4"), ("x2", "x4"), ("x2", "x5")]
        + [("x2", "x7"), ("x4", "x3"), ("x6", "x1"), ("x6", "x2"), ("x6", "x4"), ("x6", "x5")]
        + [("x6", "x8"), ("x7", "x5"), ("x8", "x1"), ("x8", "x3"), ("x8", "x7")]
    )
    latents = ["x0", "x8"]
    observed = sorted(n for n in dag if n not in latents)
    X = _columns_of(observed)
    truth, _ = endpoint_matrix(dag_to_pag(dag, latents), observed)
    pc = PCStable(ci_test=d_separation_oracle(dag), alpha=0.5).fit(X).graph_
    skeleton = nx.to_numpy_array(pc.to_undirected(), nodelist=observed) != 0
    assert (skeleton & (truth == 0)).sum() == 2  # one extra edge, both directions
    rfci = RFCI(ci_test=d_separation_oracle(dag), alpha=0.5).fit(X)
    M, _ = endpoint_matrix(rfci.graph_, observed)
    assert np.array_equal(M != 0, skeleton)
    _check_rfci_pag(dag, observed, M, rfci.sepsets_)
    fci = FCI(ci_test=d_separation_oracle(dag), alpha=0.5).fit(X)
    assert np.array_equal(endpoint_matrix(fci.graph_, observed)[0], truth)


def test_a_triple_check_removes_an_edge_with_a_minimal_separating_set():
    # scripted independencies: i and j are separated only given m, which PC-Stable never
    # conditions on for that pair (m loses its edges to both at level 0); the triple
    # i - j - k, whose ends m separates, exposes it
    facts = {
        ("i", "m", frozenset()),
        ("j", "m", frozenset()),
        ("i", "k", frozenset({"m"})),
        ("i", "j", frozenset({"m"})),
    }

    def independent(x, y, cond):
        return (x, y, cond) in facts or (y, x, cond) in facts

    X = _columns_of(["i", "j", "k", "m"])
    pc = PCStable(ci_test=_scripted(independent), alpha=0.5).fit(X)
    assert {frozenset(e) for e in pc.graph_.to_undirected().edges} == {
        frozenset("ij"),
        frozenset("jk"),
        frozenset("km"),
    }
    rfci = RFCI(ci_test=_scripted(independent), alpha=0.5).fit(X)
    assert rfci.n_removed_ == 1
    assert rfci.sepsets_[frozenset("ij")] == [("m",)]
    # the remaining triple j - k - m has k outside sepset(j, m) = (): a collider
    assert marked_edges(rfci.graph_) == ["j o-> k", "m o-> k"]


def test_a_discriminating_path_with_a_separable_pair_removes_it_instead_of_orienting():
    # theta=0, path (1,), beta=2, gamma=3; sepset(0, 3) = (1, 2)
    adj = np.ones((4, 4), dtype=bool)
    np.fill_diagonal(adj, False)
    adj[0, 2] = adj[2, 0] = adj[0, 3] = adj[3, 0] = False

    class Bound:
        def __init__(self, independent):
            self.independent = independent
            self.asked = []

        def test_positions(self, x, y, cond):
            self.asked.append((min(x, y), max(x, y), tuple(cond.tolist())))
            return CIResult(0.0, 1.0, 1.0 if self.independent(x, y, cond) else 0.0)

    keep = np.zeros((4, 4), dtype=bool)
    seps = {frozenset((0, 2)): (1,), frozenset((0, 3)): (1, 2)}
    # every successive pair dependent: the path decides, beta = 2 is in the sepset
    checks = _RFCIChecks(Bound(lambda x, y, c: False), adj.copy(), dict(seps), keep, 0.05)
    assert checks.discriminating(0, 1, 2, 3, (1,)) is False
    # the pair 1 - 2 separated by the empty set: removed, recorded, the rules restart
    bound = Bound(lambda x, y, c: {x, y} == {1, 2} and len(c) == 0)
    checks = _RFCIChecks(bound, adj.copy(), dict(seps), keep, 0.05)
    with pytest.raises(_EdgesRemoved) as removed:
        checks.discriminating(0, 1, 2, 3, (1,))
    assert removed.value.edges == [(1, 2)]
    assert not checks.adj[1, 2] and checks.sep[frozenset((1, 2))] == ()
    # the pair 0 - 1 was asked given the subsets of the sepset without 0 and 1: {} and {2}
    assert (0, 1, ()) in bound.asked and (0, 1, (2,)) in bound.asked


def test_on_data_identical_for_any_column_order_and_n_jobs():
    problem = make_latent_problem(
        make_erdos_renyi_dag(14, 28, random_state=4), n_latent=2, n_samples=1500, random_state=4
    )
    X = problem.X
    names = sorted(X.columns)
    expected = endpoint_matrix(RFCI(alpha=0.01).fit(X).graph_, names)[0]
    columns = list(np.random.default_rng(0).permutation(X.columns))
    assert np.array_equal(
        endpoint_matrix(RFCI(alpha=0.01).fit(X[columns]).graph_, names)[0], expected
    )
    again = RFCI(alpha=0.01, n_jobs=2).fit(X).graph_
    assert np.array_equal(endpoint_matrix(again, names)[0], expected)


def test_finds_the_hidden_confounder_and_takes_knowledge():
    dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c")])
    X = make_linear_gaussian(dag, random_state=0).sample(2000, random_state=0).drop(columns="L")
    assert marked_edges(RFCI(alpha=0.01).fit(X).graph_) == marked_edges(
        dag_to_pag(dag, latents="L")
    )
    est = RFCI(alpha=0.01, required_edges=[("a", "b")]).fit(X)
    assert "a --> b" in marked_edges(est.graph_)
    assert not hasattr(est, "score")
    with pytest.raises(AttributeError, match="RFCI learns a PAG"):
        _ = est.network_
