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
    frontdoor_effect,
    frontdoor_set,
    ida,
    is_adjustment_set,
    is_amenable,
    is_frontdoor_set,
    joint_ida,
    proper_causal_nodes,
)
from skbn.datasets import make_erdos_renyi_dag
from skbn.graph import (
    dag_to_cpdag,
    dag_to_pag,
    from_endpoint_matrix,
    is_cpdag,
    meek_orient,
    to_adjacency,
)
from skbn.inference import total_effect
from skbn.network import DiscreteBayesianNetwork, LinearGaussianNetwork


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
    # a -> b - c is neither a CPDAG nor maximally oriented: Meek's R1 orients b -> c
    not_closed = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "b")])
    with pytest.raises(
        ValueError, match=r"undirected edges \(b - c.*neither the CPDAG.*meek_orient"
    ):
        adjustment_set(not_closed, "a", "c")
    pag = dag_to_pag(nx.DiGraph([("a", "b"), ("b", "c")]))
    with pytest.raises(ValueError, match=r"kind='optimal'.*PAG.*'canonical' or kind='minimal'"):
        adjustment_set(pag, "a", "c")
    selection = from_endpoint_matrix([[0, 3], [3, 0]], ["a", "b"], kind="pag")  # a --- b
    with pytest.raises(ValueError, match=r"tail at b and no arrowhead at a .*selection edge"):
        is_adjustment_set(selection, "a", "b", [])
    with pytest.raises(ValueError, match=r"outcome: \['q'\] not in the graph"):
        is_adjustment_set(dag, "a", "q", [])
    with pytest.raises(ValueError, match="share"):
        adjustment_set(dag, "a", ["a", "c"])
    with pytest.raises(ValueError, match="a treatment or an outcome"):
        is_adjustment_set(dag, "a", "c", ["c"])
    with pytest.raises(ValueError, match="kind must be one of"):
        adjustment_set(dag, "a", "c", kind="best")
    cyclic = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])
    with pytest.raises(ValueError, match=r"directed cycle \(a -> b -> c\)"):
        is_adjustment_set(cyclic, "a", "b", [])
    # x - y in a CPDAG: the direction decides the effect; refused with ida named
    undirected = nx.DiGraph([("a", "b"), ("b", "a")])
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [0.5, 1.0, 0.2]})
    with pytest.raises(ValueError, match=r"a - b undirected.*not amenable.*ida"):
        adjusted_effect(frame, undirected, "a", "b")
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


# -- CPDAGs: the generalised adjustment criterion against every DAG of the class ---------
#
# The independent fact: a set is an adjustment set for a CPDAG exactly when it is one for
# every DAG of its class (Perkovic et al. 2018 prove the criterion complete for that), and
# the DAG criterion is itself checked above against population regressions and pgmpy.


def _subsets(nodes, most=None):
    most = len(nodes) if most is None else most
    for size in range(most + 1):
        yield from (list(c) for c in itertools.combinations(nodes, size))


@pytest.mark.slow
def test_the_cpdag_criterion_is_the_criterion_in_every_dag_of_the_class():
    rng = np.random.default_rng(1)
    counts = {"valid": 0, "invalid": 0, "not amenable": 0, "amenable with undirected": 0}
    for seed in range(60):
        dag, nodes, _, _ = _random_sem(7, int(rng.integers(6, 12)), seed)
        cpdag = dag_to_cpdag(dag)
        dags = list(_dags_of(cpdag))
        if len(dags) == 1:
            continue
        for x, y in itertools.permutations(nodes, 2):
            if rng.random() > 0.4:
                continue
            others = [v for v in nodes if v not in (x, y)]
            amenable = is_amenable(cpdag, x, y)
            counts["not amenable"] += not amenable
            undirected_at_x = any(cpdag.has_edge(v, x) for v in cpdag.successors(x))
            counts["amenable with undirected"] += amenable and undirected_at_x
            for Z in _subsets(others, 3):
                if rng.random() > 0.3:
                    continue
                in_every = all(is_adjustment_set(d, x, y, Z) for d in dags)
                assert is_adjustment_set(cpdag, x, y, Z) == in_every, (seed, x, y, Z)
                counts["valid" if in_every else "invalid"] += 1
                if not amenable:
                    assert not in_every
    assert counts["valid"] > 300 and counts["invalid"] > 300, counts
    assert counts["not amenable"] > 50 and counts["amenable with undirected"] > 20, counts


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["optimal", "minimal", "parents", "canonical"])
def test_each_kind_of_cpdag_set_adjusts_in_every_dag_of_the_class(kind):
    found = none = 0
    for seed in range(40):
        dag, nodes, _, _ = _random_sem(6, 7, seed)
        cpdag = dag_to_cpdag(dag)
        dags = list(_dags_of(cpdag))
        for x, y in itertools.permutations(nodes, 2):
            Z = adjustment_set(cpdag, x, y, kind=kind)
            others = [v for v in nodes if v not in (x, y)]
            if Z is None:
                if kind != "parents":
                    # none exists: no subset of the other nodes adjusts in every DAG
                    assert not any(
                        all(is_adjustment_set(d, x, y, S) for d in dags) for S in _subsets(others)
                    ), (seed, x, y)
                none += 1
                continue
            assert all(is_adjustment_set(d, x, y, Z) for d in dags), (seed, x, y, Z)
            if kind == "optimal" and _b_causal_nodes(cpdag, x, y):
                # the O-set from the causal nodes and forbidden nodes found by listing paths
                # (the proper causal nodes skbn computes may hold more; the set may not move)
                causal = _b_causal_nodes(cpdag, x, y)
                parents = {
                    u for w in causal for u in cpdag.predecessors(w) if not cpdag.has_edge(w, u)
                }
                assert Z == sorted(parents - _b_forbidden(cpdag, x, y)), (seed, x, y)
            if kind == "minimal":
                for S in _subsets(Z, len(Z) - 1):
                    assert not is_adjustment_set(cpdag, x, y, S), (seed, x, y, Z, S)
            found += 1
    assert found > 200 and none > 30


def test_the_cpdag_optimal_set_has_the_smallest_asymptotic_variance():
    # Henckel, Perkovic and Maathuis (2022): in an amenable CPDAG the O-set's regression
    # estimator has the smallest asymptotic variance among all adjustment sets; for
    # Gaussian data that variance is var(y | x, Z) / var(x | Z) / n, computed here from
    # the population covariance of a SEM on one DAG of the class
    compared = 0
    for seed in range(40):
        dag, nodes, net, cov = _random_sem(6, 7, seed)
        cpdag = dag_to_cpdag(dag)

        def residual(target, given, nodes=nodes, cov=cov):
            idx = [nodes.index(v) for v in given]
            t = nodes.index(target)
            if not idx:
                return cov[t, t]
            S = cov[np.ix_(idx, idx)]
            return cov[t, t] - cov[t, idx] @ np.linalg.solve(S, cov[idx, t])

        for x, y in itertools.permutations(nodes, 2):
            if not is_amenable(cpdag, x, y) or not proper_causal_nodes(cpdag, x, y):
                continue
            best = adjustment_set(cpdag, x, y)
            assert best is not None
            assert np.isclose(
                _regression_coefficient(cov, nodes, x, y, best), total_effect(net, x, y), atol=1e-9
            )
            others = [v for v in nodes if v not in (x, y)]
            variances = [
                residual(y, [x, *Z]) / residual(x, Z)
                for Z in _subsets(others)
                if is_adjustment_set(cpdag, x, y, Z)
            ]
            assert residual(y, [x, *best]) / residual(x, best) <= min(variances) + 1e-9
            compared += 1
    assert compared > 50


def test_hand_computed_cpdag_sets():
    # a - x -> y <- b: the collider fixes x -> y; a is a cause or an effect of x, which
    # does not matter, since a has no other path to y
    cpdag = dag_to_cpdag(nx.DiGraph([("a", "x"), ("x", "y"), ("b", "y")]))
    assert is_amenable(cpdag, "x", "y")
    assert proper_causal_nodes(cpdag, "x", "y") == {"y"}
    assert adjustment_set(cpdag, "x", "y") == ["b"]
    assert adjustment_set(cpdag, "x", "y", kind="canonical") == ["a", "b"]
    assert adjustment_set(cpdag, "x", "y", kind="minimal") == []
    # z - x, z -> y <- m <- x is no CPDAG; the CPDAG of z -> x -> m -> y <- z is
    # z - x - m with both arcs into y: z may be an effect of x, so nothing adjusts
    cpdag = dag_to_cpdag(nx.DiGraph([("z", "x"), ("z", "y"), ("x", "m"), ("m", "y")]))
    assert not is_amenable(cpdag, "x", "y")
    assert adjustment_set(cpdag, "x", "y", kind="canonical") is None
    # the treatment's possible descendants through undirected edges are forbidden
    assert forbidden_nodes(cpdag, "x", "y") == {"x", "z", "m", "y"}


# -- MPDAGs: CPDAGs oriented further by background knowledge ----------------------------
#
# The same independent fact as for CPDAGs (Perkovic, Kalisch and Maathuis 2017): a set is
# an adjustment set for an MPDAG exactly when it is one for every DAG of the class that
# has the MPDAG's arcs.


def _random_mpdag(rng, p, seed):
    """A random DAG's CPDAG with some undirected edges oriented as in the DAG, closed by
    Meek's rules; with the DAGs it stands for."""
    dag, nodes, _, _ = _random_sem(p, int(rng.integers(p, min(2 * p + 2, p * (p - 1) // 2))), seed)
    cpdag = dag_to_cpdag(dag)
    known = cpdag.copy()
    share = rng.uniform(0.15, 0.5)
    for u, v in sorted(cpdag.edges()):
        if u < v and cpdag.has_edge(v, u) and rng.random() < share:
            known.remove_edge(*((v, u) if dag.has_edge(u, v) else (u, v)))
    mpdag = meek_orient(known)
    arcs = [(u, v) for u, v in mpdag.edges() if not mpdag.has_edge(v, u)]
    dags = [d for d in _dags_of(cpdag) if all(d.has_edge(u, v) for u, v in arcs)]
    return mpdag, nodes, dags


def _b_causal_paths(mpdag, x, ends):
    """The simple paths from x to a node of ``ends`` that are possibly causal in the
    MPDAG, by listing them: no arc may point back between any two nodes of a path."""
    for path in nx.all_simple_paths(mpdag.to_undirected(), x, ends):
        if all(
            not (mpdag.has_edge(b, a) and not mpdag.has_edge(a, b))
            for i, a in enumerate(path)
            for b in path[i + 1 :]
        ):
            yield path


def _b_causal_nodes(mpdag, x, y):
    """Nodes on proper possibly causal paths from x to y."""
    return {v for path in _b_causal_paths(mpdag, x, [y]) for v in path[1:]}


def _b_forbidden(mpdag, x, y):
    """x and the possible descendants of the causal nodes (themselves included)."""
    found = {x}
    for w in _b_causal_nodes(mpdag, x, y):
        others = [v for v in mpdag if v != w]
        found |= {w} | {path[-1] for path in _b_causal_paths(mpdag, w, others)}
    return found


@pytest.mark.slow
def test_the_mpdag_criterion_is_the_criterion_in_every_dag_it_stands_for():
    rng = np.random.default_rng(3)
    counts = {"graphs": 0, "valid": 0, "invalid": 0, "not amenable": 0, "made amenable": 0}
    for seed in range(120):
        mpdag, nodes, dags = _random_mpdag(rng, int(rng.integers(5, 8)), seed)
        if not any(mpdag.has_edge(v, u) for u, v in mpdag.edges()) or is_cpdag(mpdag):
            continue  # a DAG or still the CPDAG: tested above
        counts["graphs"] += 1
        cpdag = dag_to_cpdag(dags[0])
        for x, y in itertools.permutations(nodes, 2):
            if rng.random() > 0.5:
                continue
            others = [v for v in nodes if v not in (x, y)]
            amenable = is_amenable(mpdag, x, y)
            counts["not amenable"] += not amenable
            counts["made amenable"] += amenable and not is_amenable(cpdag, x, y)
            assert forbidden_nodes(mpdag, x, y) == _b_forbidden(mpdag, x, y), (seed, x, y)
            for Z in _subsets(others, 3):
                if rng.random() > 0.4:
                    continue
                in_every = all(is_adjustment_set(d, x, y, Z) for d in dags)
                assert is_adjustment_set(mpdag, x, y, Z) == in_every, (seed, x, y, Z)
                counts["valid" if in_every else "invalid"] += 1
    assert counts["graphs"] > 40 and counts["valid"] > 300 and counts["invalid"] > 300, counts
    assert counts["not amenable"] > 30 and counts["made amenable"] > 20, counts


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["optimal", "minimal", "parents", "canonical"])
def test_each_kind_of_mpdag_set_adjusts_in_every_dag_it_stands_for(kind):
    rng = np.random.default_rng(4)
    found = none = 0
    for seed in range(60):
        mpdag, nodes, dags = _random_mpdag(rng, 6, seed)
        if is_cpdag(mpdag) or not any(mpdag.has_edge(v, u) for u, v in mpdag.edges()):
            continue
        for x, y in itertools.permutations(nodes, 2):
            Z = adjustment_set(mpdag, x, y, kind=kind)
            others = [v for v in nodes if v not in (x, y)]
            if Z is None:
                if kind != "parents":
                    assert not any(
                        all(is_adjustment_set(d, x, y, S) for d in dags) for S in _subsets(others)
                    ), (seed, x, y)
                none += 1
                continue
            assert all(is_adjustment_set(d, x, y, Z) for d in dags), (seed, x, y, Z)
            if kind == "optimal" and _b_causal_nodes(mpdag, x, y):
                # Henckel et al.'s O-set from the causal nodes found by listing paths
                causal = _b_causal_nodes(mpdag, x, y)
                parents = {
                    u for w in causal for u in mpdag.predecessors(w) if not mpdag.has_edge(w, u)
                }
                assert Z == sorted(parents - forbidden_nodes(mpdag, x, y)), (seed, x, y)
            if kind == "minimal":
                for S in _subsets(Z, len(Z) - 1):
                    assert not is_adjustment_set(mpdag, x, y, S), (seed, x, y, Z, S)
            found += 1
    assert found > 150 and none > 30, (found, none)


def test_mpdag_possible_descendants_follow_paths_with_no_arc_back():
    # x5 - x4 - x1 -> x6 with x1 -> x5: the path is not possibly causal (x1 points back
    # at x5 two steps on), so the undirected x5 - x4 does not make x5 -> x6 unidentifiable
    arcs = [("x1", "x5"), ("x1", "x6"), ("x5", "x6"), ("x1", "x3")]
    mpdag = nx.DiGraph(arcs + [("x4", "x5"), ("x5", "x4"), ("x1", "x4"), ("x4", "x1")])
    mpdag.add_edges_from([("x3", "x4"), ("x4", "x3")])
    assert not is_cpdag(mpdag)
    assert is_amenable(mpdag, "x5", "x6")
    assert proper_causal_nodes(mpdag, "x5", "x6") == {"x6"} == _b_causal_nodes(mpdag, "x5", "x6")
    assert adjustment_set(mpdag, "x5", "x6") == ["x1"]
    # a - b -> c (the CPDAG a - b - c with b -> c known): the effect of a on c starts with
    # a - b, so it stays open; that of b on c needs nothing
    known = nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c")])
    assert not is_amenable(known, "a", "c")
    assert adjustment_set(known, "a", "c") is None
    assert adjustment_set(known, "b", "c") == []


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


@pytest.mark.slow
def test_ida_on_an_mpdag_gives_the_effects_of_the_dags_it_stands_for():
    # the same fact as above, over the DAGs of the class that have the MPDAG's arcs; local
    # IDA alone would keep parent sets that the knowledge rules out
    rng = np.random.default_rng(5)
    checked = ruled_out = joint = 0
    for seed in range(60):
        mpdag, nodes, dags = _random_mpdag(rng, 7, seed)
        if is_cpdag(mpdag) or not any(mpdag.has_edge(v, u) for u, v in mpdag.edges()):
            continue
        dag = dags[0]  # the data's DAG, one of those the MPDAG stands for
        W = to_adjacency(dag, nodes) * np.random.default_rng(seed).uniform(0.5, 1.5, (7, 7))
        inverse = np.linalg.inv(np.eye(7) - W)
        cov = inverse.T @ inverse
        data = _exact_sample(cov, nodes)
        cpdag = dag_to_cpdag(dag)
        for x, y in itertools.permutations(nodes[:5], 2):
            semi_local = ida(data, mpdag, x, y)
            global_ = [
                0.0
                if y in d.predecessors(x)
                else _regression_coefficient(cov, nodes, x, y, sorted(d.predecessors(x)))
                for d in dags
            ]
            assert np.allclose(np.unique(semi_local.round(9)), np.unique(np.round(global_, 9)))
            assert np.isclose(semi_local, global_[0]).any()  # the data's DAG's own effect
            ruled_out += len(ida(data, cpdag, x, y)) > len(semi_local)
            checked += 1
        for _ in range(5):
            chosen = rng.choice(nodes, size=3, replace=False).tolist()
            treatments, y = chosen[:2], chosen[2]
            rows = np.unique(joint_ida(data, mpdag, treatments, y).round(9), axis=0)
            global_ = np.unique(
                np.round([_joint_effects_in(d, nodes, cov, treatments, y) for d in dags], 9),
                axis=0,
            )
            assert rows.shape == global_.shape and np.allclose(rows, global_), (seed, chosen)
            joint += 1
    assert checked >= 300 and ruled_out >= 30 and joint >= 100, (checked, ruled_out, joint)


def test_ida_on_a_dag_gives_one_effect_and_on_a_complete_cpdag_one_per_order():
    W = np.array([[0, 0.8, 0.5], [0, 0, 1.5], [0, 0, 0]])
    net = LinearGaussianNetwork(W, [1, 1, 1], ["a", "x", "y"])
    data = net.sample(4000, random_state=1)
    dag = nx.DiGraph([("a", "x"), ("a", "y"), ("x", "y")])
    (effect,) = ida(data, dag, "x", "y")
    assert abs(effect - 1.5) < 0.1
    complete = nx.DiGraph(list(dag.edges()) + [(v, u) for u, v in dag.edges()])
    assert len(ida(data, complete, "x", "y")) == 4  # no parent, a, y, or both


def _exact_sample(cov, nodes, n=60, seed=0):
    """Rows whose sample covariance is exactly ``cov`` (centred, whitened, then coloured)."""
    Z = np.random.default_rng(seed).standard_normal((n, len(nodes)))
    Z -= Z.mean(axis=0)
    Z = Z @ np.linalg.inv(np.linalg.cholesky(np.cov(Z, rowvar=False))).T
    return pd.DataFrame(Z @ np.linalg.cholesky(cov).T, columns=nodes)


def _joint_effects_in(dag, nodes, cov, treatments, y):
    """The joint effects in one DAG: its regression SEM on cov, the treatments' rows cut."""
    B = np.zeros((len(nodes), len(nodes)))
    for v in dag:
        pa = [nodes.index(u) for u in dag.predecessors(v)]
        if pa and v not in treatments:
            j = nodes.index(v)
            B[j, pa] = np.linalg.solve(cov[np.ix_(pa, pa)], cov[pa, j])
    T = np.linalg.inv(np.eye(len(nodes)) - B)
    return [T[nodes.index(y), nodes.index(x)] for x in treatments]


def test_joint_ida_gives_the_joint_effects_of_the_dags_in_the_class():
    # the global method: every DAG of the class, its regression SEM, the treatments cut
    # from their parents; the distinct rows must be joint IDA's, and the true DAG's (from
    # the true weights) among them
    checked = several = 0
    rng = np.random.default_rng(4)
    for seed in range(40):
        dag, nodes, net, cov = _random_sem(7, 9, seed)
        cpdag = dag_to_cpdag(dag)
        data = _exact_sample(cov, nodes, seed=seed)
        dags = list(_dags_of(cpdag))
        for _ in range(4):
            chosen = rng.choice(nodes, size=3, replace=False).tolist()
            treatments, y = chosen[:2], chosen[2]
            local = joint_ida(data, cpdag, treatments, y)
            global_ = np.unique(
                np.round([_joint_effects_in(d, nodes, cov, treatments, y) for d in dags], 9),
                axis=0,
            )
            got = np.unique(local.round(9), axis=0)
            assert got.shape == global_.shape and np.allclose(got, global_), (seed, chosen)
            # the true joint effect: the SEM's own weights (rows of B are children), the
            # treatments' equations cut
            B = net.weights.toarray().T
            B[[nodes.index(x) for x in treatments], :] = 0.0
            T = np.linalg.inv(np.eye(len(nodes)) - B)
            truth = [T[nodes.index(y), nodes.index(x)] for x in treatments]
            assert np.isclose(local, truth, atol=1e-9).all(axis=1).any(), (seed, chosen)
            checked += 1
            several += len(global_) > 1
    assert checked >= 150 and several >= 30


def test_joint_ida_of_one_treatment_is_ida_and_refuses_bad_input():
    dag, nodes, _, cov = _random_sem(7, 9, 3)
    cpdag = dag_to_cpdag(dag)
    data = _exact_sample(cov, nodes, seed=3)
    for x, y in itertools.permutations(nodes[:4], 2):
        np.testing.assert_allclose(joint_ida(data, cpdag, [x], y)[:, 0], ida(data, cpdag, x, y))
    with pytest.raises(ValueError, match="among the treatments"):
        joint_ida(data, cpdag, nodes[:2], nodes[0])
    with pytest.raises(ValueError, match="distinct"):
        joint_ida(data, cpdag, [nodes[0], nodes[0]], nodes[1])
    with pytest.raises(ValueError, match=r"'q' is not a node"):
        joint_ida(data, cpdag, ["q"], nodes[1])


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


# -- dagitty's answers on CPDAGs, MAGs and PAGs (tests/data/make_dagitty_adjustment_oracle.py)


def _oracle_graph(graph):
    nodes = graph["nodes"]
    if graph["type"] == "pdag":
        cpdag = nx.DiGraph()
        cpdag.add_nodes_from(nodes)
        for u, op, v in graph["edges"]:
            cpdag.add_edges_from([(u, v), (v, u)] if op == "--" else [(u, v)])
        return cpdag
    code = {"@": 1, "<": 2, ">": 2, "-": 3}
    M = np.zeros((len(nodes), len(nodes)), dtype=np.int8)
    for u, op, v in graph["edges"]:
        i, j = nodes.index(u), nodes.index(v)
        at_u, at_v = (op[0], op[-1]) if len(op) == 3 else ("-", ">") if op == "->" else ("<", "-")
        M[j, i], M[i, j] = code[at_u], code[at_v]
    return from_endpoint_matrix(M, nodes, kind="pag" if graph["type"] == "pag" else "mag")


def test_agrees_with_dagitty_on_cpdags_mags_and_pags():
    import gzip
    import json

    from tests.data.make_dagitty_adjustment_oracle import OUT

    with gzip.open(OUT, "rt") as handle:
        oracle = json.load(handle)
    graphs = [_oracle_graph(g) for g in oracle["graphs"]]
    dags = []
    for g in oracle["graphs"]:
        dags.append(nx.DiGraph(map(tuple, g["dag"])))
        dags[-1].add_nodes_from(g["nodes"] + g["latents"])
    counts = {kind: [0, 0] for kind in ("pdag", "pag", "mag")}
    canonical = not_identified = 0
    for case in oracle["cases"]:
        meta = oracle["graphs"][case["graph"]]
        graph, dag = graphs[case["graph"]], dags[case["graph"]]
        x, y = case["x"], case["y"]
        for Z, theirs in zip(case["sets"], case["verdicts"]):
            ours = is_adjustment_set(graph, x, y, Z)
            assert ours == theirs, (meta["type"], meta["seed"], x, y, Z)
            counts[meta["type"]][ours] += 1
            if ours:
                # sound: a set the equivalence class certifies adjusts in the DAG itself
                assert is_adjustment_set(dag, x, y, Z), (meta["type"], meta["seed"], x, y, Z)
        ours = adjustment_set(graph, x, y, kind="canonical")
        assert ours == case["canonical"], (meta["type"], meta["seed"], x, y)
        canonical += ours is not None
        not_identified += ours is None
    for kind, (invalid, valid) in counts.items():
        assert valid > 500 and invalid > 1000, (kind, counts)
    assert canonical > 1000 and not_identified > 1000


def _marked(kind, nodes, arcs=(), both=(), circles=()):
    M = np.zeros((len(nodes), len(nodes)), dtype=np.int8)
    for u, v in arcs:  # u -> v
        M[nodes.index(u), nodes.index(v)], M[nodes.index(v), nodes.index(u)] = 2, 3
    for u, v in both:  # u <-> v
        M[nodes.index(u), nodes.index(v)] = M[nodes.index(v), nodes.index(u)] = 2
    for u, v in circles:  # u o-> v
        M[nodes.index(u), nodes.index(v)], M[nodes.index(v), nodes.index(u)] = 2, 1
    return from_endpoint_matrix(M, nodes, kind=kind)


def test_hand_computed_mag_and_pag_sets():
    # a -> b is visible only through the collider path c -> v <-> a into a, whose inner
    # node v is a parent of b and c is not adjacent to b: then {v} closes a <-> v -> b
    mag = _marked(
        "mag", ["a", "b", "c", "v"], arcs=[("c", "v"), ("a", "b"), ("v", "b")], both=[("v", "a")]
    )
    assert is_amenable(mag, "a", "b")
    assert [is_adjustment_set(mag, "a", "b", Z) for Z in ([], ["v"], ["c"], ["c", "v"])] == [
        False,
        True,
        False,
        True,
    ]
    assert adjustment_set(mag, "a", "b", kind="canonical") == ["c", "v"]
    assert adjustment_set(mag, "a", "b", kind="minimal") == ["v"]
    # without c the arc may hide a latent confounder of a and b: nothing adjusts
    mag = _marked("mag", ["a", "b", "v"], arcs=[("a", "b"), ("v", "b")], both=[("v", "a")])
    assert not is_amenable(mag, "a", "b")
    assert adjustment_set(mag, "a", "b", kind="canonical") is None
    # the PAG of z -> x -> y with c -> x: z o-> x <-o c, x -> y visible from z (or c)
    pag = dag_to_pag(nx.DiGraph([("z", "x"), ("c", "x"), ("x", "y")]))
    assert is_amenable(pag, "x", "y")
    assert adjustment_set(pag, "x", "y", kind="minimal") == []
    assert adjustment_set(pag, "x", "y", kind="parents") == []  # x's parents by arcs: none
    # x o-> y: the edge may be x <-> y, a latent confounder; not identified
    pag = dag_to_pag(nx.DiGraph([("z", "y"), ("x", "y")]))
    assert not is_amenable(pag, "x", "y")


@pytest.mark.parametrize("kind", ["minimal", "parents", "canonical"])
def test_each_kind_of_pag_set_adjusts_in_the_dag_behind_it(kind):
    rng = np.random.default_rng(3)
    found = 0
    for seed in range(40):
        dag = make_erdos_renyi_dag(9, int(rng.integers(9, 16)), random_state=seed)
        pool = [n for n in dag if dag.out_degree(n) >= 2] or list(dag)
        latents = sorted(rng.choice(pool, size=min(2, len(pool)), replace=False).tolist())
        pag = dag_to_pag(dag, latents)
        nodes = list(pag)
        for x, y in itertools.permutations(nodes, 2):
            Z = adjustment_set(pag, x, y, kind=kind)
            if Z is None:
                continue
            assert is_adjustment_set(pag, x, y, Z) and is_adjustment_set(dag, x, y, Z)
            if kind == "minimal":
                for k in range(len(Z)):
                    assert not is_adjustment_set(pag, x, y, Z[:k] + Z[k + 1 :])
            found += 1
    assert found > 50


# -- the front-door criterion -------------------------------------------------------------
#
# pgmpy's CausalInference answers it by brute force (tests/data/make_frontdoor_oracle.py);
# the estimates are checked against the intervened model, with the confounder hidden.


@pytest.mark.slow
def test_the_frontdoor_criterion_agrees_with_pgmpy():
    import gzip
    import json

    from tests.data.make_frontdoor_oracle import OUT

    with gzip.open(OUT, "rt") as handle:
        oracle = json.load(handle)
    counts = {"valid": 0, "invalid": 0, "pairs with a set": 0, "pairs without": 0}
    for case in oracle["cases"]:
        dag = nx.DiGraph()
        dag.add_nodes_from(case["nodes"])
        dag.add_edges_from(map(tuple, case["edges"]))
        x, y = case["x"], case["y"]
        for candidate in case["candidates"]:
            ours = is_frontdoor_set(dag, x, y, candidate["Z"])
            assert ours == candidate["frontdoor"], (case["seed"], x, y, candidate["Z"])
            counts["valid" if ours else "invalid"] += 1
        every = case["all"]  # every valid set of measured nodes, by pgmpy's brute force
        for kind in ("minimal", "maximal"):
            found = frontdoor_set(dag, x, y, kind=kind, latents=case["latents"])
            if not every:
                assert found is None, (case["seed"], x, y, kind)
                continue
            assert found in every, (case["seed"], x, y, kind, found)
            if kind == "minimal":
                assert len(found) == min(map(len, every)), (case["seed"], x, y)
            else:
                # every node of a valid set that lies on a directed path from x to y
                on_paths = nx.descendants(dag, x) & nx.ancestors(dag, y)
                assert set(found) == set().union(*every) & on_paths, (case["seed"], x, y)
        counts["pairs with a set" if every else "pairs without"] += 1
    assert counts["valid"] > 60 and counts["invalid"] > 5000, counts
    assert counts["pairs with a set"] > 40 and counts["pairs without"] > 500, counts


def _frontdoor_network():
    # u -> x, u -> y, x -> m -> y, every state of x reaching every state of m
    return DiscreteBayesianNetwork(
        states={v: ["0", "1"] for v in ("u", "x", "m", "y")},
        parents={"x": ["u"], "m": ["x"], "y": ["u", "m"]},
        cpts={
            "u": [0.6, 0.4],
            "x": [[0.85, 0.15], [0.2, 0.8]],
            "m": [[0.8, 0.2], [0.25, 0.75]],
            "y": [[[0.9, 0.1], [0.5, 0.5]], [[0.6, 0.4], [0.1, 0.9]]],
        },
    )


def test_the_frontdoor_formula_gives_the_intervened_distribution_with_u_hidden():
    network = _frontdoor_network()
    data = network.sample(100000, random_state=0).drop(columns="u")
    fit = frontdoor_effect(data, network.graph, "x", "y", n_bootstrap=30, random_state=0)
    assert fit.adjustment == ["m"]
    confounded = pd.crosstab(data["x"], data["y"], normalize="index")
    for state in ("0", "1"):
        truth = network.do({"x": state}).query("y")
        for outcome in ("0", "1"):
            assert abs(fit.estimate.loc[state, outcome] - truth[outcome]) < 0.01
            assert fit.low.loc[state, outcome] <= fit.estimate.loc[state, outcome]
            assert fit.estimate.loc[state, outcome] <= fit.high.loc[state, outcome]
        # the naive conditional is off by the confounding, far beyond the tolerance
        assert abs(confounded.loc[state, "1"] - truth["1"]) > 0.05
    # no back-door set exists among the measured nodes: adjustment cannot do it
    assert not any(is_adjustment_set(network.graph, "x", "y", Z) for Z in ([], ["m"]))


def test_the_linear_frontdoor_estimate_is_the_total_effect():
    # u -> x, u -> y, x -> m1 -> y, x -> m2 -> y: the effect is 0.8 * 1.5 + 0.5 * -1.0
    names = ["u", "x", "m1", "m2", "y"]
    W = np.zeros((5, 5))
    W[0, 1], W[0, 4], W[1, 2], W[1, 3], W[2, 4], W[3, 4] = 1.2, 1.0, 0.8, 0.5, 1.5, -1.0
    net = LinearGaussianNetwork(W, [1.0] * 5, names)
    data = net.sample(50000, random_state=1).drop(columns="u")
    dag = nx.DiGraph([("u", "x"), ("u", "y"), ("x", "m1"), ("x", "m2"), ("m1", "y"), ("m2", "y")])
    fit = frontdoor_effect(data, dag, "x", "y", n_bootstrap=50, random_state=0)
    assert fit.adjustment == ["m1", "m2"]
    assert fit.estimate == pytest.approx(total_effect(net, "x", "y"), abs=0.03)
    # a 95% interval around it, the truth within two of its widths
    assert fit.low < fit.estimate < fit.high
    assert abs(fit.estimate - 0.7) < 2 * (fit.high - fit.low)
    # regressing y on x alone is biased by u
    naive = np.polyfit(data["x"], data["y"], 1)[0]
    assert abs(naive - 0.7) > 0.3
    # one mediator alone leaves x -> m2 -> y open
    assert not is_frontdoor_set(dag, "x", "y", ["m1"])
    with pytest.raises(ValueError, match=r"\['m1'\] does not satisfy the front-door criterion"):
        frontdoor_effect(data, dag, "x", "y", ["m1"])


def test_frontdoor_refuses_bad_input_with_its_name():
    dag = nx.DiGraph([("u", "x"), ("u", "y"), ("x", "m"), ("m", "y")])
    frame = pd.DataFrame({"x": [0.1, 0.2], "m": [0.3, 0.1], "y": [1.0, 2.0]})
    with pytest.raises(ValueError, match="undirected edge .* CPDAG or PAG is not built"):
        frontdoor_set(nx.DiGraph([("x", "m"), ("m", "x"), ("m", "y")]), "x", "y")
    with pytest.raises(ValueError, match="treatment must be one node"):
        is_frontdoor_set(dag, ["x", "u"], "y", ["m"])
    with pytest.raises(ValueError, match=r"mediators: \['q'\] not in the graph"):
        is_frontdoor_set(dag, "x", "y", ["q"])
    with pytest.raises(ValueError, match=r"latents: \['q'\]"):
        frontdoor_set(dag, "x", "y", latents=["q"])
    with pytest.raises(ValueError, match="kind must be one of"):
        frontdoor_set(dag, "x", "y", kind="best")
    # u is hidden (no column) and m shares it: no set
    shared = nx.DiGraph(list(dag.edges()) + [("u", "m")])
    with pytest.raises(ValueError, match="No set satisfies the front-door criterion"):
        frontdoor_effect(frame, shared, "x", "y")
    with pytest.raises(ValueError, match="n_bootstrap"):
        frontdoor_effect(frame, dag, "x", "y", n_bootstrap=-1)
