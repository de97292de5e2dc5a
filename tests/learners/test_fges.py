# SPDX-License-Identifier: BSD-3-Clause
import copy
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network, make_erdos_renyi_dag, make_problem
from skbn.graph import dag_to_cpdag, is_cpdag, pdag_to_dag
from skbn.learners import FGES
from skbn.learners._cpdag_state import CPDAGState
from skbn.metrics import shd
from skbn.scores import BDeu, GaussianBIC


@pytest.mark.parametrize("name, n", [("asia", 20000), ("child", 20000), ("sachs", 100000)])
def test_recovers_the_true_cpdag_from_large_gaussian_samples(name, n):
    X, truth = make_problem(name, n_samples=n, random_state=0)
    est = FGES().fit(X)
    assert est.graph_.graph["kind"] == "cpdag" and is_cpdag(est.graph_)
    assert shd(truth, est.graph_) == 0


@pytest.mark.parametrize("name", ["cancer", "sachs", "child"])
def test_recovers_the_true_cpdag_from_large_discrete_samples(name):
    bn = load_network(name)
    X = bn.sample(100000, random_state=0)
    assert shd(bn.graph, FGES().fit(X).graph_) == 0
    assert shd(bn.graph, FGES(BDeu(iss=10)).fit(X).graph_) == 0


def test_deterministic_nodes_still_give_full_adjacency_recall():
    # in asia, "either" is a deterministic OR of tub and lung: faithfulness fails there, yet
    # every true adjacency is found
    bn = load_network("asia")
    est = FGES(BDeu(iss=10)).fit(bn.sample(50000, random_state=0))
    from skbn.metrics import adjacency_precision_recall_f1

    assert adjacency_precision_recall_f1(bn.graph, est.graph_).recall == 1.0


def _valid_inserts(state, rng, tries):
    """Random valid Insert(x, y, T) operators on ``state``: (x, y, T, NA)."""
    p = state.p
    for _ in range(tries):
        x, y = (int(v) for v in rng.choice(p, size=2, replace=False))
        if state.adjacent(x, y):
            continue
        na = state.ne[y] & state.adj(x)
        t0 = sorted(state.ne[y] - state.adj(x))
        t = {v for v in t0 if rng.random() < 0.5}
        if not state.is_clique(na | t) or not state.semi_directed_path_blocked(y, x, na | t):
            continue
        yield x, y, t


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kernel_rebuild_matches_the_whole_component_rebuild(seed):
    """After random valid Insert operators, the forward kernel's CPDAG restoration (the
    downstream region, in arrays) equals CPDAGState's over the whole skeleton component:
    same CPDAG, same changed nodes."""
    from skbn._kernels import fges as K
    from skbn.graph._array import dag_to_cpdag_array
    from skbn.learners._fges_forward import ForwardSearch

    rng = np.random.default_rng(seed)
    dag = nx.to_numpy_array(make_erdos_renyi_dag(25, 40, random_state=seed), dtype=np.int8)
    cpdag = dag_to_cpdag_array(dag)
    state = CPDAGState(25)
    for u, v in zip(*np.nonzero(cpdag)):
        if cpdag[v, u]:
            state.ne[u].add(int(v))
        else:
            state.add_arc(int(u), int(v))

    class _Bound:
        n_features = 25

        def family_score_args(self):  # no scores are asked for: the kernel's stand-ins
            return None

    no_effect = (np.zeros(26, np.int64), np.zeros(0, np.int32))
    forward = ForwardSearch(_Bound(), no_effect, None, None, None)
    applied = 0
    for x, y, t in _valid_inserts(state, rng, 400):
        seeds = {x, y, *t} | (state.adj(x) & state.adj(y))
        state.add_arc(x, y)
        for node in t:
            state.add_arc(node, y)
        twin = copy.deepcopy(state)
        expected = twin.rebuild(seeds, region="component")
        forward.load(state)
        changed = np.empty(state.p + 8, dtype=np.int32)
        work = forward._search().work._replace(process=changed)
        n = K.rebuild(
            np.array(sorted(seeds), dtype=np.int32),
            len(seeds),
            K.Graph(forward.nbr, forward.knd, forward.deg),
            forward.know,
            forward.mark,
            forward.ctl,
            work,
        )
        forward.store(state)
        np.testing.assert_array_equal(state.to_array(), twin.to_array())
        assert set(changed[:n].tolist()) == expected
        applied += 1
    assert applied > 20


def _start_tiny(monkeypatch):
    """Make every forward search start its tables at a few entries, so they grow often."""
    from skbn.learners import _fges_forward

    real_init = _fges_forward.ForwardSearch.__init__

    def tiny(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self.slots = np.full(4, -1, dtype=np.int64)
        self.entries = [a[:1].copy() for a in self.entries]
        self.e_pool = self.e_pool[:4].copy()
        self.pool = self.pool[:4].copy()
        self.fs_keys = np.full(4, -1, dtype=np.int64)
        self.fs_vals = self.fs_vals[:4].copy()
        self.heap = type(self.heap)(*(a[:1].copy() for a in self.heap))

    monkeypatch.setattr(_fges_forward.ForwardSearch, "__init__", tiny)


def test_kernel_arrays_growing_from_small_sizes_give_the_same_graph(monkeypatch):
    """The forward kernel pauses when an array is full and resumes once it is enlarged:
    starting every table at a few entries (so the score table, the operator pool, heap and
    pair table and the neighbour table all grow many times) gives the same search."""
    from skbn.learners import _fges_forward

    X, _ = make_problem("alarm", n_nodes=120, n_samples=800, random_state=4)
    reference = FGES(faithfulness=False).fit(X)
    _start_tiny(monkeypatch)
    monkeypatch.setattr(_fges_forward.ForwardSearch, "min_row", 2)
    grown = FGES(faithfulness=False).fit(X)
    assert nx.utils.edges_equal(grown.graph_.edges(), reference.graph_.edges())
    assert grown.score_ == reference.score_
    assert grown.n_inserts_ == reference.n_inserts_ > 100


@pytest.mark.parametrize("route", ["dense", "centred"])
def test_kernel_scoring_gives_the_search_of_caller_filled_scores(monkeypatch, route):
    """With a Gaussian score the forward kernel scores families itself in one pass per work
    list; the same search with the scores filled in by the caller (two passes and a pause
    per insertion, as for any other score) gives the same graph, score and operators, from
    the covariance matrix and from the centred columns, and with every array starting tiny
    (so the one-pass search stops for room mid-list and resumes)."""
    from skbn._kernels import fges as K
    from skbn.data import _containers
    from skbn.learners import _fges_forward

    if route == "centred":  # the blocked route, where no (p, p) matrix is formed
        monkeypatch.setattr(_containers, "DENSE_COVARIANCE_MAX", 10)
    X, _ = make_problem("alarm", n_nodes=120, n_samples=800, random_state=5)
    spied = []
    real_scoring = _fges_forward._kernel_scoring

    def spy(bound):
        scoring = real_scoring(bound)
        spied.append(scoring[0])
        return scoring

    monkeypatch.setattr(_fges_forward, "_kernel_scoring", spy)
    inline = FGES(faithfulness=False).fit(X)
    kind = {"dense": K.DENSE_GAUSSIAN, "centred": K.CENTRED_GAUSSIAN}[route]
    assert spied and set(spied) == {kind}
    monkeypatch.setattr(
        _fges_forward,
        "_kernel_scoring",
        lambda bound: real_scoring(SimpleNamespace(family_score_args=lambda: None)),
    )  # no family_score_args: the caller fills the scores in
    filled = FGES(faithfulness=False).fit(X)
    monkeypatch.setattr(_fges_forward, "_kernel_scoring", real_scoring)
    _start_tiny(monkeypatch)
    grown = FGES(faithfulness=False).fit(X)
    for other in (filled, grown):
        assert nx.utils.edges_equal(other.graph_.edges(), inline.graph_.edges())
        assert other.score_ == inline.score_
        assert other.n_inserts_ == inline.n_inserts_ > 100


def test_output_is_a_valid_cpdag_whose_extension_has_the_reported_score():
    X, _ = make_problem(make_erdos_renyi_dag(40, 80, random_state=1), n_samples=800, random_state=1)
    est = FGES("bic").fit(X)
    assert is_cpdag(est.graph_)
    dag = pdag_to_dag(est.graph_)
    assert GaussianBIC().score_graph(dag, X) == pytest.approx(est.score_)
    np.testing.assert_array_equal(
        nx.to_numpy_array(dag_to_cpdag(dag), dtype=int), nx.to_numpy_array(est.graph_, dtype=int)
    )


def test_no_single_insert_or_delete_of_an_edge_improves_the_dag_extension_much():
    """GES ends at a local optimum of the class space; check single edge additions/removals on
    a DAG member (a weaker, independent necessary condition)."""
    X, _ = make_problem("sachs", n_samples=3000, random_state=2)
    est = FGES("bic").fit(X)
    dag = pdag_to_dag(est.graph_)
    bound = GaussianBIC().bind(X)
    base = bound.score_graph(dag)
    for u, v in list(dag.edges()):
        g = dag.copy()
        g.remove_edge(u, v)
        assert bound.score_graph(g) <= base + 1e-6


def test_penalty_discount_gives_sparser_graphs():
    X, _ = make_problem(
        make_erdos_renyi_dag(50, 100, random_state=0), n_samples=500, random_state=0
    )
    dense = FGES().fit(X).graph_
    sparse = FGES(penalty_discount=8).fit(X).graph_
    assert sparse.number_of_edges() < dense.number_of_edges()


def test_max_degree_bounds_the_adjacencies():
    X, _ = make_problem(
        make_erdos_renyi_dag(30, 90, random_state=0), n_samples=1000, random_state=0
    )
    g = FGES(max_degree=3).fit(X).graph_.to_undirected()
    assert max(d for _, d in g.degree()) <= 3


def test_cancelling_paths_give_the_faithful_collider():
    # a -> b -> c and a -> c with cancelling weights make a and c independent: the distribution
    # is faithful to the collider a -> b <- c, which GES must return in both modes.
    rng = np.random.default_rng(0)
    n = 20000
    a = rng.normal(size=n)
    b = a + 0.6 * rng.normal(size=n)
    c = b - a + 0.6 * rng.normal(size=n)
    X = pd.DataFrame({"a": a, "b": b, "c": c})
    collider = nx.DiGraph([("a", "b"), ("c", "b")])
    for faithfulness in (True, False):
        assert shd(collider, FGES(faithfulness=faithfulness).fit(X).graph_) == 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_all_pairs_round_never_lowers_the_score(seed):
    # the extra round starts from the faithful rounds' result and applies improving operators
    X, _ = make_problem(
        make_erdos_renyi_dag(30, 60, random_state=seed), n_samples=300, random_state=seed
    )
    faithful = FGES().fit(X)
    exhaustive = FGES(faithfulness=False).fit(X)
    assert exhaustive.score_ >= faithful.score_ - 1e-6
    assert exhaustive.n_inserts_ >= faithful.n_inserts_


def test_adjacency_constraints():
    X, truth = make_problem("asia", n_samples=20000, random_state=0)
    g = FGES(forbidden_edges=[("lung", "either"), ("either", "lung")]).fit(X).graph_
    assert not g.has_edge("lung", "either") and not g.has_edge("either", "lung")
    allowed = [("smoke", "lung"), ("smoke", "bronc")]
    g = FGES(allowed_edges=allowed).fit(X).graph_
    assert {frozenset(e) for e in g.edges()} <= {frozenset(e) for e in allowed}


def test_penalty_discount_with_an_explicit_score_is_refused():
    X, _ = make_problem("asia", n_samples=200, random_state=0)
    with pytest.raises(ValueError, match="set it on the score object instead"):
        FGES(GaussianBIC(), penalty_discount=2).fit(X)


def test_deterministic_and_idempotent():
    X, _ = make_problem(make_erdos_renyi_dag(30, 60, random_state=3), n_samples=500, random_state=3)
    a = FGES().fit(X)
    b = FGES().fit(X)
    assert set(a.graph_.edges()) == set(b.graph_.edges())
    assert set(a.fit(X).graph_.edges()) == set(a.graph_.edges())


def _both_backward_phases(monkeypatch, fit):
    """``fit()`` with the backward phase in its kernel, then in Python."""
    from skbn.learners import _fges

    kernel = fit()
    monkeypatch.setattr(_fges._Search, "use_kernel", False)
    python = fit()
    monkeypatch.setattr(_fges._Search, "use_kernel", True)
    return kernel, python


@pytest.mark.parametrize("route", ["dense", "centred"])
def test_the_backward_kernel_takes_the_python_steps(monkeypatch, route):
    """The backward kernel (Gaussian scores, no knowledge) deletes the same edges in the
    same order as the Python phase: same graph, score and deletion count on random
    problems, with its pool and heap starting at one entry (so they grow mid-phase)."""
    from skbn.data import _containers
    from skbn.learners import _fges_backward

    if route == "centred":
        monkeypatch.setattr(_containers, "DENSE_COVARIANCE_MAX", 10)
    real_sizes = _fges_backward._initial_sizes
    deletes = 0
    for seed in range(8):
        p = 15 + 9 * seed
        dag = make_erdos_renyi_dag(p, 2 * p, random_state=seed)
        X, _ = make_problem(dag, n_samples=300 + 200 * seed, random_state=seed)
        sizes = (lambda edges: (1, 1)) if seed % 2 else real_sizes
        monkeypatch.setattr(_fges_backward, "_initial_sizes", sizes)
        for make in (lambda: FGES("bic", penalty_discount=2), lambda: FGES("bic"), FGES):
            kernel, python = _both_backward_phases(
                monkeypatch, lambda make=make, X=X: make().fit(X)
            )
            assert nx.utils.edges_equal(kernel.graph_.edges(), python.graph_.edges())
            assert kernel.score_ == python.score_
            assert kernel.n_deletes_ == python.n_deletes_
            deletes += kernel.n_deletes_
    assert deletes > 50  # the phases had work to do


def test_boss_backward_search_is_the_same_in_the_kernel(monkeypatch):
    from skbn.learners import BOSS

    dag = make_erdos_renyi_dag(40, 100, random_state=3)
    X, _ = make_problem(dag, n_samples=500, random_state=3)
    kernel, python = _both_backward_phases(
        monkeypatch, lambda: BOSS("bic", polish=True, random_state=0).fit(X)
    )
    assert nx.utils.edges_equal(kernel.graph_.edges(), python.graph_.edges())
    assert kernel.score_ == python.score_


def test_knowledge_and_discrete_scores_keep_the_python_backward_phase(monkeypatch):
    from skbn.learners import _fges_backward

    calls = []
    real = _fges_backward.run_backward
    monkeypatch.setattr("skbn.learners._fges.run_backward", lambda *a: calls.append(1) or real(*a))
    X, _ = make_problem("sachs", n_samples=1000, random_state=0)
    FGES().fit(X)
    assert calls  # Gaussian, no knowledge: the kernel
    calls.clear()
    FGES(forbidden_edges=[(X.columns[0], X.columns[1])]).fit(X)
    FGES().fit(load_network("asia").sample(1000, random_state=0))
    assert not calls
