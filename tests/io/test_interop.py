# SPDX-License-Identifier: BSD-3-Clause
"""Converters to pgmpy and pyAgrum: same tables, and the same answers from their inference."""

import itertools
import warnings

import numpy as np
import pytest

from skbn.datasets import load_network, make_erdos_renyi_dag, make_linear_gaussian
from skbn.io import from_pgmpy, from_pyagrum, to_pgmpy, to_pyagrum

with warnings.catch_warnings():  # pgmpy announces its own deprecations on import
    warnings.simplefilter("ignore", FutureWarning)
    pgmpy = pytest.importorskip("pgmpy")
    inference = pytest.importorskip("pgmpy.inference")
gum = pytest.importorskip("pyagrum")


def _posterior_by_enumeration(bn, target, evidence):
    """P(target | evidence) by summing the joint over every configuration (small nets)."""
    index = {v: k for k, v in enumerate(bn.nodes)}
    post = np.zeros(bn.arities[target])
    for codes in itertools.product(*(range(bn.arities[v]) for v in bn.nodes)):
        if any(bn.states[v][codes[index[v]]] != s for v, s in evidence.items()):
            continue
        p = 1.0
        for v in bn.nodes:
            cell = tuple(codes[index[u]] for u in bn.parents[v]) + (codes[index[v]],)
            p *= bn.cpts[v][cell]
        post[codes[index[target]]] += p
    return post / post.sum()


def _assert_same(a, b):
    assert a.nodes == b.nodes
    for v in a.nodes:
        assert a.states[v] == b.states[v]
        assert a.parents[v] == b.parents[v]
        np.testing.assert_allclose(a.cpts[v], b.cpts[v], rtol=0, atol=1e-15)


@pytest.mark.parametrize("name", ["asia", "child", "alarm"])
def test_pgmpy_round_trip(name):
    bn = load_network(name)
    model = to_pgmpy(bn)
    assert model.check_model()
    _assert_same(bn, from_pgmpy(model))


@pytest.mark.parametrize("name", ["asia", "child", "alarm"])
def test_pyagrum_round_trip(name):
    bn = load_network(name)
    _assert_same(bn, from_pyagrum(to_pyagrum(bn)))


@pytest.mark.parametrize(
    "target, evidence",
    [("lung", {"smoke": "yes"}), ("tub", {"xray": "yes", "dysp": "no"}), ("either", {})],
)
def test_inference_in_pgmpy_and_pyagrum_matches_enumeration(target, evidence):
    bn = load_network("asia")
    expected = _posterior_by_enumeration(bn, target, evidence)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        factor = inference.VariableElimination(to_pgmpy(bn)).query([target], evidence=evidence)
    by_pgmpy = [factor.get_value(**{target: s}) for s in bn.states[target]]
    ie = gum.LazyPropagation(to_pyagrum(bn))
    ie.setEvidence(evidence)
    ie.makeInference()
    posterior = ie.posterior(target)
    by_pyagrum = [posterior[{target: s}] for s in bn.states[target]]
    np.testing.assert_allclose(by_pgmpy, expected, atol=1e-12)
    np.testing.assert_allclose(by_pyagrum, expected, atol=1e-12)


def test_a_learned_network_goes_to_pyagrum_with_its_labels():
    from skbn import HillClimb

    X = load_network("cancer").sample(3000, random_state=0)
    net = HillClimb().fit(X).network_
    bn = to_pyagrum(net)
    for v in net.nodes:
        assert list(bn.variable(v).labels()) == list(net.states[v])
    _assert_same(net, from_pyagrum(bn))


def test_linear_gaussian_round_trip_and_joint_distribution():
    dag = make_erdos_renyi_dag(6, 8, random_state=0)
    sem = make_linear_gaussian(dag, random_state=0)
    from skbn.datasets import LinearGaussianNetwork

    shifted = LinearGaussianNetwork(
        sem.weights, sem.noise_std, sem.nodes, intercepts=np.arange(6.0)
    )
    model = to_pgmpy(shifted)
    mean, cov = model.to_joint_gaussian()
    import networkx as nx

    # pgmpy lays the joint out in networkx's topological order of its model
    order = [shifted.nodes.index(str(v)) for v in nx.topological_sort(model)]
    np.testing.assert_allclose(np.ravel(mean), shifted.means[order], atol=1e-10)
    np.testing.assert_allclose(cov, shifted.covariance[np.ix_(order, order)], atol=1e-10)
    back = from_pgmpy(model)
    assert sorted(back.nodes) == sorted(shifted.nodes)
    perm = [back.nodes.index(v) for v in shifted.nodes]
    np.testing.assert_allclose(back.weights.toarray()[np.ix_(perm, perm)], sem.weights.toarray())
    np.testing.assert_allclose(back.intercepts[perm], shifted.intercepts)


def test_converters_refuse_what_they_cannot_convert():
    with pytest.raises(TypeError, match="network_"):
        to_pgmpy(load_network("asia").graph)
    sem = make_linear_gaussian(make_erdos_renyi_dag(3, 2, random_state=0), random_state=0)
    with pytest.raises(TypeError, match="to_pgmpy"):
        to_pyagrum(sem)
    with pytest.raises(TypeError, match="BayesNet"):
        from_pyagrum(load_network("asia"))
