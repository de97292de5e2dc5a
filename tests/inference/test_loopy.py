# SPDX-License-Identifier: BSD-3-Clause
"""Loopy belief propagation: exact on polytrees, close on loopy networks, honest flags."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network
from skbn.inference import loopy_belief_propagation, query


def _largest_error(approx, exact, nodes):
    return max(float(np.nanmax(np.abs(approx[v].to_numpy() - exact[v].to_numpy()))) for v in nodes)


@pytest.mark.parametrize("name", ["cancer", "earthquake"])
def test_exact_on_a_polytree(name):
    # no undirected cycle: the messages are the exact posteriors once they have crossed it
    network = load_network(name)
    assert nx.is_tree(nx.Graph(network.graph.to_undirected()))
    nodes = list(network.nodes)
    X = network.sample(6, random_state=1)
    evidence = X[nodes[::2]].astype(object)
    evidence.iloc[::2, 0] = np.nan  # some cells unobserved
    approx, converged = loopy_belief_propagation(network, nodes, evidence)
    exact = query(network, nodes, evidence)
    assert converged.all()
    assert _largest_error(approx, exact, nodes) < 1e-8
    # soft evidence as well
    soft = {nodes[-1]: np.linspace(1.0, 0.2, network.arities[nodes[-1]])}
    approx, _ = loopy_belief_propagation(network, nodes, soft_evidence=soft)
    exact = query(network, nodes, soft_evidence=soft)
    assert _largest_error(approx, exact, nodes) < 1e-8


def test_close_to_exact_on_alarm():
    # ALARM has loops; Pearl's approximation is close on it (on these rows, when written:
    # largest error of any state's posterior 0.015, mean 0.0007)
    network = load_network("alarm")
    nodes = list(network.nodes)
    X = network.sample(5, random_state=0)
    evidence = X[nodes[::4]]
    approx, converged = loopy_belief_propagation(network, nodes, evidence)
    exact = query(network, nodes, evidence)
    assert converged.all()
    assert _largest_error(approx, exact, nodes) < 0.05
    errors = np.concatenate(
        [np.abs(approx[v].to_numpy() - exact[v].to_numpy()).ravel() for v in nodes]
    )
    assert errors.mean() < 0.005


def test_flags_messages_that_have_not_settled():
    network = load_network("alarm")
    nodes = list(network.nodes)
    evidence = network.sample(1, random_state=0)[nodes[::4]].iloc[0].to_dict()
    approx, converged = loopy_belief_propagation(network, nodes[0], evidence, max_iter=1)
    assert converged is False
    assert isinstance(approx, pd.Series) and approx.sum() == pytest.approx(1.0)
    _, converged = loopy_belief_propagation(network, nodes[0], evidence)
    assert converged is True


def test_deterministic_and_damping_reaches_the_same_answer():
    network = load_network("asia")
    evidence = {"smoke": "yes", "dysp": "yes"}
    a, _ = loopy_belief_propagation(network, ["lung", "bronc"], evidence)
    b, _ = loopy_belief_propagation(network, ["lung", "bronc"], evidence)
    c, converged = loopy_belief_propagation(network, ["lung", "bronc"], evidence, damping=0.5)
    assert converged
    for v in ("lung", "bronc"):
        pd.testing.assert_series_equal(a[v], b[v])
        np.testing.assert_allclose(a[v].to_numpy(), c[v].to_numpy(), atol=1e-5)


def test_bad_input_is_refused():
    network = load_network("asia")
    with pytest.raises(ValueError, match="max_iter"):
        loopy_belief_propagation(network, "lung", max_iter=0)
    with pytest.raises(ValueError, match="damping"):
        loopy_belief_propagation(network, "lung", damping=1.0)
    with pytest.raises(ValueError, match="tol"):
        loopy_belief_propagation(network, "lung", tol=0)
    with pytest.raises(ValueError, match="nodes the network does not have"):
        loopy_belief_propagation(network, "lung", {"smok": "yes"})
    with pytest.raises(TypeError, match="DiscreteBayesianNetwork"):
        loopy_belief_propagation(network.graph, "lung")
    # evidence the network rules out: either's ends are the deterministic OR of lung, tub
    impossible = {"lung": "yes", "either": "no"}
    with pytest.raises(ValueError, match="impossible"):
        loopy_belief_propagation(network, "smoke", impossible)
