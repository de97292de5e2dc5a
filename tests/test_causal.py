# SPDX-License-Identifier: BSD-3-Clause
"""skbn.causal: adjustment sets against population regressions, IDA against its DAGs.

The independent fact behind the adjustment tests: in a linear SEM with generic weights,
the population regression of ``y`` on ``x`` and ``Z`` has ``x``'s coefficient equal to the
total effect exactly when ``Z`` is an adjustment set. The covariance comes from the weights
(``(I - W)^-T D (I - W)^-1``), the total effect from ``skbn.inference.total_effect``.
"""

import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.causal import (
    adjusted_effect,
    adjustment_set,
    forbidden_nodes,
    ida,
    is_adjustment_set,
    proper_causal_nodes,
)
from skbn.datasets import make_erdos_renyi_dag
from skbn.graph import dag_to_cpdag, to_adjacency
from skbn.inference import total_effect
from skbn.network import LinearGaussianNetwork


def _random_sem(p, edges, seed):
    dag = make_erdos_renyi_dag(p, edges, random_state=seed)
    nodes = list(nx.topological_sort(dag))
    rng = np.random.default_rng(seed)
    A = to_adjacency(dag, nodes).astype(float)
    W = A * rng.uniform(0.5, 1.5, A.shape) * rng.choice([-1, 1], A.shape)
    variances = rng.uniform(0.5, 1.5, p)
    inverse = np.linalg.inv(np.eye(p) - W)
    cov = inverse.T @ np.diag(variances) @ inverse
    return dag, nodes, LinearGaussianNetwork(W, variances, nodes), cov


def _regression_coefficient(cov, nodes, x, y, Z):
    idx = [nodes.index(v) for v in [x, *Z]]
    return np.linalg.solve(cov[np.ix_(idx, idx)], cov[idx, nodes.index(y)])[0]


@pytest.mark.slow
def test_the_criterion_agrees_with_the_population_regression_on_random_dags():
    accepted = rejected = 0
    rng = np.random.default_rng(0)
    for seed in range(40):
        dag, nodes, net, cov = _random_sem(8, 12, seed)
        for x, y in itertools.permutations(nodes, 2):
            if rng.random() > 0.25:
                continue
            truth = total_effect(net, x, y)
            others = [v for v in nodes if v not in (x, y)]
            for size in (0, 1, 2, 3):
                for Z in itertools.combinations(others, size):
                    if rng.random() > 0.3:
                        continue
                    ok = is_adjustment_set(dag, x, y, Z)
                    matches = np.isclose(
                        _regression_coefficient(cov, nodes, x, y, Z), truth, atol=1e-9
                    )
                    assert ok == matches, (seed, x, y, Z)
                    accepted += ok
                    rejected += not ok
    assert accepted > 200 and rejected > 200


@pytest.mark.parametrize("kind", ["optimal", "minimal", "parents", "canonical"])
def test_every_kind_of_set_gives_the_total_effect(kind):
    found = 0
    for seed in range(25):
        dag, nodes, net, cov = _random_sem(9, 14, seed)
        for x, y in itertools.permutations(nodes[:6], 2):
            Z = adjustment_set(dag, x, y, kind=kind)
            if Z is None:
                # none exists only where the outcome is a parent of the treatment (for the
                # other kinds, where that kind is not an adjustment set)
                if kind in ("optimal", "minimal", "canonical"):
                    assert dag.has_edge(y, x), (seed, x, y)
                continue
            assert is_adjustment_set(dag, x, y, Z)
            coefficient = _regression_coefficient(cov, nodes, x, y, Z)
            assert np.isclose(coefficient, total_effect(net, x, y), atol=1e-9)
            found += 1
    assert found > 300


def test_minimal_sets_are_minimal_and_the_optimal_set_is_the_o_set():
    for seed in range(20):
        dag, nodes, _, _ = _random_sem(9, 14, seed)
        for x, y in itertools.permutations(nodes[:5], 2):
            Z = adjustment_set(dag, x, y, kind="minimal")
            if Z is None:
                continue
            for k in range(len(Z)):
                smaller = Z[:k] + Z[k + 1 :]
                assert not is_adjustment_set(dag, x, y, smaller), (seed, x, y, Z)
            causal = proper_causal_nodes(dag, x, y)
            if causal:
                parents = set().union(*(dag.predecessors(w) for w in causal))
                expected = sorted(parents - forbidden_nodes(dag, x, y))
                assert adjustment_set(dag, x, y) == expected


def test_the_optimal_set_has_the_smallest_variance_among_valid_sets():
    # Henckel et al. (2022): the O-set's regression estimator has the smallest asymptotic
    # variance. On a DAG where y has a cause b outside the back-door path, adjusting for b
    # too shrinks the spread of the estimate over repeated samples.
    W = np.zeros((4, 4))
    W[0, 1], W[0, 2], W[1, 2], W[3, 2] = 0.8, 0.6, 1.0, 2.0  # a -> x, a -> y, x -> y, b -> y
    net = LinearGaussianNetwork(W, [1, 1, 1, 1], ["a", "x", "y", "b"])
    dag = nx.DiGraph([("a", "x"), ("a", "y"), ("x", "y"), ("b", "y")])
    assert adjustment_set(dag, "x", "y") == ["a", "b"]
    assert adjustment_set(dag, "x", "y", kind="minimal") == ["a"]
    spread = {}
    for Z in (["a"], ["a", "b"]):
        estimates = [
            adjusted_effect(net.sample(300, random_state=s), dag, "x", "y", Z).estimate
            for s in range(60)
        ]
        spread[len(Z)] = np.std(estimates)
        assert abs(np.mean(estimates) - 1.0) < 0.05
    assert spread[2] < 0.6 * spread[1]


def test_hand_computed_sets():
    # z confounds, m mediates, w is a child of y, c a collider of x and y's cause
    dag = nx.DiGraph(
        [("z", "x"), ("z", "y"), ("x", "m"), ("m", "y"), ("y", "w"), ("x", "c"), ("u", "c")]
    )
    dag.add_edge("u", "y")
    assert proper_causal_nodes(dag, "x", "y") == {"m", "y"}
    assert forbidden_nodes(dag, "x", "y") == {"x", "m", "y", "w"}
    assert is_adjustment_set(dag, "x", "y", ["z"])
    assert is_adjustment_set(dag, "x", "y", ["z", "u"])
    assert not is_adjustment_set(dag, "x", "y", ["z", "c"])  # opens x -> c <- u -> y
    assert is_adjustment_set(dag, "x", "y", ["z", "c", "u"])  # ... which u closes
    assert not is_adjustment_set(dag, "x", "y", ["z", "w"])  # a descendant of y
    assert adjustment_set(dag, "x", "y", kind="parents") == ["z"]
    assert adjustment_set(dag, "x", "y") == ["u", "z"]  # pa(m, y) less the forbidden
    # the outcome causes the treatment: no set gives the (zero) effect from P(y | x, z)
    assert adjustment_set(nx.DiGraph([("y", "x")]), "x", "y") is None


def test_bad_input_is_refused_with_its_name():
    dag = nx.DiGraph([("a", "b"), ("b", "c")])
    cpdag = nx.DiGraph([("a", "b"), ("b", "a")])
    with pytest.raises(ValueError, match=r"undirected edges \(a - b.*skbn.causal.ida"):
        adjustment_set(cpdag, "a", "b")
    with pytest.raises(ValueError, match=r"outcome: \['q'\] not in the graph"):
        is_adjustment_set(dag, "a", "q", [])
    with pytest.raises(ValueError, match="share"):
        adjustment_set(dag, "a", ["a", "c"])
    with pytest.raises(ValueError, match="a treatment or an outcome"):
        is_adjustment_set(dag, "a", "c", ["c"])
    with pytest.raises(ValueError, match="kind must be one of"):
        adjustment_set(dag, "a", "c", kind="best")
    cyclic = nx.DiGraph([("a", "b"), ("b", "a")])
    cyclic.graph["kind"] = "dag"
    with pytest.raises(ValueError, match="undirected"):
        is_adjustment_set(cyclic, "a", "b", [])
    data = pd.DataFrame({"a": [1.0, 2.0], "b": [0.5, 1.0], "c": ["u", "v"]})
    with pytest.raises(ValueError, match=r"not numeric"):
        ida(data, nx.DiGraph([("a", "c"), ("c", "a")]), "a", "c")
    with pytest.raises(ValueError, match="not an adjustment set"):
        adjusted_effect(data, dag, "a", "c", ["b"])


# -- IDA -------------------------------------------------------------------------------


def _dags_of(cpdag):
    """Every DAG of a CPDAG's class, by orienting its undirected edges every way."""
    A, nodes = to_adjacency(cpdag), list(cpdag)
    undirected = [(i, j) for i, j in zip(*np.nonzero(np.triu(A & A.T))) if i < j]
    reference = {frozenset(e) for e in cpdag.edges()}
    for bits in itertools.product((0, 1), repeat=len(undirected)):
        D = A.copy()
        for (i, j), b in zip(undirected, bits):
            D[i, j], D[j, i] = (1, 0) if b else (0, 1)
        dag = nx.DiGraph()
        dag.add_nodes_from(nodes)
        dag.add_edges_from((nodes[i], nodes[j]) for i, j in zip(*np.nonzero(D)))
        if not nx.is_directed_acyclic_graph(dag):
            continue
        again = dag_to_cpdag(dag)
        if {frozenset(e) for e in again.edges()} == reference and set(again.edges()) == set(
            cpdag.edges()
        ):
            yield dag


def test_local_ida_gives_the_effects_of_the_dags_in_the_class():
    # Maathuis et al. (2009): the distinct values of local IDA are those of the global
    # method, which regresses on the treatment's parents in every DAG of the class; and
    # the true DAG's effect is among them
    checked = 0
    for seed in range(30):
        dag, nodes, net, cov = _random_sem(7, 9, seed)
        cpdag = dag_to_cpdag(dag)
        data = pd.DataFrame(
            np.random.default_rng(seed).multivariate_normal(np.zeros(7), cov, size=50),
            columns=nodes,
        )
        sample_cov = np.cov(data.to_numpy(), rowvar=False)
        dags = list(_dags_of(cpdag))
        assert any(set(d.edges()) == set(dag.edges()) for d in dags)
        for x, y in itertools.permutations(nodes[:4], 2):
            local = ida(data, cpdag, x, y)
            global_ = [
                0.0
                if y in d.predecessors(x)
                else _regression_coefficient(sample_cov, nodes, x, y, sorted(d.predecessors(x)))
                for d in dags
            ]
            assert np.allclose(np.unique(local.round(9)), np.unique(np.round(global_, 9)))
            truth_here = [v for d, v in zip(dags, global_) if set(d.edges()) == set(dag.edges())]
            assert np.isclose(local, truth_here[0]).any()
            checked += 1
    assert checked >= 300


def test_ida_on_a_dag_gives_one_effect_and_on_a_complete_cpdag_one_per_order():
    W = np.array([[0, 0.8, 0.5], [0, 0, 1.5], [0, 0, 0]])
    net = LinearGaussianNetwork(W, [1, 1, 1], ["a", "x", "y"])
    data = net.sample(4000, random_state=1)
    dag = nx.DiGraph([("a", "x"), ("a", "y"), ("x", "y")])
    (effect,) = ida(data, dag, "x", "y")
    assert abs(effect - 1.5) < 0.1
    complete = nx.DiGraph(list(dag.edges()) + [(v, u) for u, v in dag.edges()])
    assert len(ida(data, complete, "x", "y")) == 4  # no parent, a, y, or both


# -- estimates ---------------------------------------------------------------------------


def test_linear_estimate_and_bootstrap_interval_cover_the_truth():
    W = np.array([[0, 0.8, 0.5], [0, 0, 1.5], [0, 0, 0]])
    net = LinearGaussianNetwork(W, [1, 1, 1], ["a", "x", "y"])
    dag = nx.DiGraph([("a", "x"), ("a", "y"), ("x", "y")])
    data = net.sample(2000, random_state=3)
    fit = adjusted_effect(data, dag, "x", "y", n_bootstrap=200, random_state=0)
    assert fit.adjustment == ["a"]
    assert fit.low < 1.5 < fit.high and fit.high - fit.low < 0.2
    again = adjusted_effect(data, dag, "x", "y", n_bootstrap=200, random_state=0)
    assert (again.low, again.high) == (fit.low, fit.high)
    naive = np.polyfit(data["x"], data["y"], 1)[0]  # confounded by a
    assert abs(naive - 1.5) > 0.2


def test_discrete_adjustment_formula_matches_the_intervened_network():
    from skbn.datasets import load_network

    network = load_network("asia")
    data = network.sample(50000, random_state=0)
    dag = network.graph
    fit = adjusted_effect(data, dag, "smoke", "dysp")
    # nothing confounds smoke (no parents); the O-set adds tub, a cause of either (on the
    # causal paths) that is not forbidden
    assert fit.adjustment == ["tub"]
    do = {state: network.do({"smoke": state}).query("dysp") for state in network.states["smoke"]}
    for state in network.states["smoke"]:
        for outcome in network.states["dysp"]:
            assert abs(fit.estimate.loc[state, outcome] - do[state][outcome]) < 0.02
    # tub and lung both cause either: the O-set adds lung, which sharpens the estimate
    tub = adjusted_effect(data, dag, "tub", "either")
    assert tub.adjustment == ["lung"]
    do = {state: network.do({"tub": state}).query("either") for state in network.states["tub"]}
    for state in network.states["tub"]:
        for outcome in network.states["either"]:
            assert abs(tub.estimate.loc[state, outcome] - do[state][outcome]) < 0.02


# -- pgmpy's answers (tests/data/make_adjustment_oracle.py) -------------------------------


def test_agrees_with_pgmpy_where_the_criteria_are_the_same():
    import gzip
    import json

    from tests.data.make_adjustment_oracle import OUT

    with gzip.open(OUT, "rt") as handle:
        oracle = json.load(handle)
    same = pgmpy_accepts_forbidden = pgmpy_minimal_forbidden = backdoor = minimal = 0
    for case in oracle["cases"]:
        dag = nx.DiGraph()
        dag.add_nodes_from(case["nodes"])
        dag.add_edges_from(map(tuple, case["edges"]))
        x, y = case["x"], case["y"]
        forbidden = forbidden_nodes(dag, x, y)
        for candidate in case["candidates"]:
            Z = candidate["Z"]
            ours = is_adjustment_set(dag, x, y, Z)
            if not set(Z) & forbidden:
                # pgmpy's is_valid_adjustment_set checks the proper back-door graph only,
                # which is the whole criterion for sets without forbidden nodes
                assert ours == candidate["adjustment"], (case["seed"], x, y, Z)
                same += 1
            elif candidate["adjustment"]:
                # it also accepts sets holding a mediator's descendant, which bias the
                # estimate (the population-regression test above rejects them)
                assert not ours
                pgmpy_accepts_forbidden += 1
            if candidate["backdoor"] and not set(Z) & nx.descendants(dag, x):
                # Pearl's back-door criterion (no descendant of x, back-door paths
                # blocked) is sufficient; pgmpy's check leaves out the first condition, so
                # sets with a descendant of x are compared by the criterion above only
                assert ours, (case["seed"], x, y, Z)
                backdoor += 1
        if isinstance(case["minimal"], list):
            theirs = case["minimal"]
            if set(theirs) & forbidden:
                # pgmpy's minimal set comes from the same back-door graph alone and can
                # hold a mediator (x6 -> x2 -> x0 gets {x2} in seed 6), which blocks the
                # effect it is meant to estimate
                assert not is_adjustment_set(dag, x, y, theirs)
                pgmpy_minimal_forbidden += 1
            else:
                assert is_adjustment_set(dag, x, y, theirs), (case["seed"], x, y, theirs)
                assert adjustment_set(dag, x, y, kind="minimal") is not None
                minimal += 1
    assert same > 1000 and backdoor > 300 and minimal > 200
    assert pgmpy_accepts_forbidden > 10 and pgmpy_minimal_forbidden > 0
