# SPDX-License-Identifier: BSD-3-Clause
"""do() of continuous nodes of a conditional-Gaussian network, against the adjustment formula."""

import numpy as np
import pandas as pd
import pytest

from skbn.inference import evidence_probability, intervene, mpe, query
from skbn.network import ConditionalGaussianNetwork, DiscreteBayesianNetwork


def _network() -> ConditionalGaussianNetwork:
    # A -> B (discrete); X | A; Y | B, X; Z | A, X, Y
    part = DiscreteBayesianNetwork(
        {"A": ["a0", "a1"], "B": ["b0", "b1", "b2"]},
        {"B": ("A",)},
        {"A": [0.35, 0.65], "B": [[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]]},
    )
    return ConditionalGaussianNetwork(
        part,
        parents={"X": ["A"], "Y": ["B", "X"], "Z": ["A", "X", "Y"]},
        intercepts={"X": [-1.0, 1.5], "Y": [0.0, 1.0, -2.0], "Z": [0.5, -0.5]},
        coefficients={
            "X": [[], []],
            "Y": [[0.8], [-0.3], [1.2]],
            "Z": [[0.4, -0.7], [1.1, 0.2]],
        },
        variances={"X": [0.6, 1.4], "Y": [0.5, 0.9, 0.3], "Z": [0.8, 0.4]},
    )


def _mixture_moments(weights, means, variances):
    mean = float(np.dot(weights, means))
    return mean, float(np.dot(weights, np.asarray(variances) + np.asarray(means) ** 2) - mean**2)


@pytest.mark.parametrize("x", [-1.3, 0.0, 2.2])
def test_do_of_a_continuous_node_is_the_adjustment_for_its_parents(x):
    # P(v | do(X = x)) = sum_a P(a) P(v | X = x, A = a): conditioning in the original
    # network, not surgery, gives each term
    net = _network()
    done = intervene(net, {"X": x})
    prior = query(net, "A")
    for target in ["Y", "Z"]:
        means, variances = [], []
        for a in ["a0", "a1"]:
            post = query(net, target, {"X": x, "A": a})
            means.append(post.mean)
            variances.append(post.variance)
        expected = _mixture_moments(prior.to_numpy(), means, variances)
        got = query(done, target)
        assert got.mean == pytest.approx(expected[0], abs=1e-12)
        assert got.variance == pytest.approx(expected[1], abs=1e-12)
    # a discrete node below nothing that X reaches keeps its distribution
    np.testing.assert_allclose(query(done, "B").to_numpy(), query(net, "B").to_numpy())
    # with evidence on a non-descendant B: sum_a P(a | b) P(Z | x, a, b)
    for b in ["b0", "b2"]:
        weights = query(net, "A", {"B": b}).to_numpy()
        parts = [query(net, "Z", {"X": x, "A": a, "B": b}) for a in ["a0", "a1"]]
        expected = _mixture_moments(weights, [p.mean for p in parts], [p.variance for p in parts])
        got = query(done, "Z", {"B": b})
        assert got.mean == pytest.approx(expected[0], abs=1e-12)
        assert got.variance == pytest.approx(expected[1], abs=1e-12)


def test_a_discrete_posterior_under_do_is_bayes_rule_by_hand():
    # P(A | Z = z, do(X = x)) is proportional to P(a) * sum_b P(b | a) N(z; mean_ab, var_ab)
    # where Y | b ~ N(c_b + w_b x, s_b) and Z | a ~ N(d_a + u_a x + t_a Y, r_a)
    net, x, z = _network(), 0.7, 1.1
    done = intervene(net, {"X": x})
    pa, pb = [0.35, 0.65], [[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]]
    c, w, s = [0.0, 1.0, -2.0], [0.8, -0.3, 1.2], [0.5, 0.9, 0.3]
    d, u, t, r = [0.5, -0.5], [0.4, 1.1], [-0.7, 0.2], [0.8, 0.4]
    weights = []
    for a in range(2):
        total = 0.0
        for b in range(3):
            mean = d[a] + u[a] * x + t[a] * (c[b] + w[b] * x)
            var = r[a] + t[a] ** 2 * s[b]
            total += pb[a][b] * np.exp(-0.5 * (z - mean) ** 2 / var) / np.sqrt(2 * np.pi * var)
        weights.append(pa[a] * total)
    expected = np.array(weights) / sum(weights)
    np.testing.assert_allclose(query(done, "A", {"Z": z}).to_numpy(), expected, atol=1e-12)
    assert evidence_probability(done, {"Z": z}) == pytest.approx(sum(weights), rel=1e-12)


def test_the_held_node_is_its_value_and_other_values_are_impossible():
    net = _network()
    done = intervene(net, {"X": 0.5, "A": "a1"})
    assert done.held == {"X": 0.5}
    assert done.parents["X"] == () and "X" not in done.parents["Y"]
    post = query(done, "X")
    assert (post.mean, post.variance) == (0.5, 0.0)
    rows = done.sample(50, random_state=0)
    assert (rows["X"] == 0.5).all() and (rows["A"] == "a1").all()
    assert np.isfinite(done.log_likelihood(rows)).all()
    moved = rows.assign(X=rows["X"] + 1.0)
    assert np.isneginf(done.log_likelihood(moved)).all()
    # observing the held value says nothing; another value is refused, or NaN in a batch
    np.testing.assert_allclose(
        query(done, "B", {"X": 0.5, "Z": 0.3}).to_numpy(),
        query(done, "B", {"Z": 0.3}).to_numpy(),
    )
    with pytest.raises(ValueError, match="held at 0.5"):
        query(done, "B", {"X": 1.0})
    batch = query(done, "B", pd.DataFrame({"X": [0.5, 2.0, np.nan], "Z": [0.3, 0.3, 0.3]}))
    assert batch.iloc[[0, 2]].notna().all().all() and batch.iloc[1].isna().all()
    # the most probable explanation holds X at its value; the others' densities are maximised
    explanation, _ = mpe(done, {"Z": 0.3})
    assert explanation["X"] == 0.5 and explanation["A"] == "a1"
    # a held value is set, not estimated: X's 2 x 2 parameters are gone, and Y and Z lose a
    # weight per configuration
    assert done.n_parameters == net.n_parameters - 4 - 3 - 2


def test_bad_interventions_and_held_nodes_are_refused():
    net = _network()
    with pytest.raises(ValueError, match="needs a number"):
        intervene(net, {"X": "high"})
    with pytest.raises(ValueError, match="finite"):
        intervene(net, {"Y": np.inf})
    with pytest.raises(ValueError, match="does not have"):
        intervene(net, {"W": 1.0})
    part = DiscreteBayesianNetwork({"A": ["a0", "a1"]}, {}, {"A": [0.5, 0.5]})
    with pytest.raises(ValueError, match="held nodes"):
        ConditionalGaussianNetwork(
            part, {"Y": ["H"]}, {"Y": 0.0}, {"Y": [1.0]}, {"Y": 1.0}, held={"H": 1.0}
        )
    with pytest.raises(ValueError, match="held node 'Y'"):
        ConditionalGaussianNetwork(
            part, {"Y": []}, {"Y": 0.0}, {"Y": []}, {"Y": 1.0}, held={"Y": 1}
        )
