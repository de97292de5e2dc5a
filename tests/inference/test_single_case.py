# SPDX-License-Identifier: BSD-3-Clause
"""One case's compiled contraction against pyAgrum's posteriors and the general route."""

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from skbn.datasets import load_network
from skbn.inference import query
from skbn.inference._single import MAX_CELLS, compiled_query
from skbn.network import DiscreteBayesianNetwork

ORACLE = Path(__file__).resolve().parents[1] / "data" / "inference_oracle.json.gz"


def _cases(name: str) -> list:
    with gzip.open(ORACLE, "rt") as handle:
        networks = {net["network"]: net for net in json.load(handle)["networks"]}
    return networks[name]["cases"]


@pytest.mark.parametrize("name", ["asia", "cancer", "sachs", "child"])
def test_compiled_cases_equal_pyagrum(name):
    network = load_network(name)
    compiled = 0
    for case in _cases(name)[:150]:
        evidence = {k: v for k, v in case["evidence"].items() if v is not None}
        for v, expected in case["posteriors"].items():
            found = compiled_query(network, [v], evidence)
            if found is not None:
                compiled += 1
                values, total = found
                np.testing.assert_allclose(values / total, expected, atol=1e-9, rtol=0)
            # the public route, whichever way it answers
            np.testing.assert_allclose(
                query(network, v, evidence).to_numpy(), expected, atol=1e-9, rtol=0
            )
    # the small networks' questions are all compiled; CHILD's largest are not
    cells = {"asia": 1, "cancer": 1, "sachs": 0.5, "child": 0.2}[name]
    total = sum(len(c["posteriors"]) for c in _cases(name)[:150])
    assert compiled >= cells * total


def test_a_joint_posterior_keeps_the_targets_order():
    asia = load_network("asia")
    evidence = {"dysp": "yes"}
    joint = query(asia, ["lung", "smoke"], evidence, joint=True)
    assert joint.index.names == ["lung", "smoke"]
    values, total = compiled_query(asia, ["lung", "smoke"], evidence)
    np.testing.assert_allclose(joint.to_numpy(), values / total, atol=1e-15)
    # the product rule against two single posteriors
    smoke = query(asia, "smoke", evidence)
    lung_given = query(asia, "lung", {**evidence, "smoke": "yes"})
    np.testing.assert_allclose(
        joint.xs("yes", level="smoke").to_numpy(), lung_given.to_numpy() * smoke["yes"], atol=1e-12
    )


def test_an_underflowing_product_falls_back_to_the_scaled_route():
    # a root with 400 children, each observed in a state of probability 1e-3 (or 2e-3):
    # the unscaled product is below 1e-1200, so the compiled route must decline
    k = 400
    states = {"x": ["a", "b"], **{f"c{i}": ["on", "off"] for i in range(k)}}
    parents = {f"c{i}": ("x",) for i in range(k)}
    cpts = {"x": np.array([0.5, 0.5])}
    for i in range(k):
        cpts[f"c{i}"] = np.array([[1e-3, 1 - 1e-3], [2e-3, 1 - 2e-3]])
    network = DiscreteBayesianNetwork(states, parents, cpts)
    evidence = {f"c{i}": "on" for i in range(k)}
    assert compiled_query(network, ["x"], evidence) is None
    posterior = query(network, "x", evidence)
    # P(x = a | e) = 1 / (1 + 2**400), below any float: the posterior is all on b
    assert posterior["b"] == pytest.approx(1.0, abs=1e-12)
    assert posterior["a"] == pytest.approx(0.0, abs=1e-100)
    np.testing.assert_allclose(posterior.sum(), 1.0)


def test_missing_soft_and_impossible_evidence_take_the_general_route():
    asia = load_network("asia")
    assert compiled_query(asia, ["lung"], {"smoke": None}) is None
    assert compiled_query(asia, ["lung"], {"lung": "yes"}) is None  # an observed target
    assert query(asia, "lung", {"lung": "yes"})["yes"] == 1.0
    with pytest.raises(ValueError, match="probability 0"):
        query(asia, "lung", {"either": "no", "tub": "yes"})  # either = tub or lung
    with pytest.raises(ValueError, match="not a state|states"):
        query(asia, "lung", {"smoke": "sometimes"})
    soft = query(asia, "lung", {"smoke": "yes"}, soft_evidence={"xray": [0.9, 0.1]})
    hard = query(asia, "lung", {"smoke": "yes", "xray": "yes"})
    assert soft["yes"] < hard["yes"]


def test_a_question_too_large_is_not_compiled():
    # 17 binary roots under one child: 2**17 joint states exceed the compiled bound
    roots = [f"r{i}" for i in range(17)]
    assert 2 ** len(roots) > MAX_CELLS
    states = {**{r: ["0", "1"] for r in roots}, "y": ["0", "1"]}
    cpts = {r: np.array([0.5, 0.5]) for r in roots}
    table = np.full((2,) * len(roots) + (2,), 0.5)
    table[(1,) * len(roots)] = [0.1, 0.9]
    cpts["y"] = table
    network = DiscreteBayesianNetwork(states, {"y": tuple(roots)}, cpts)
    assert compiled_query(network, ["y"], {}) is None
    expected = 0.5 * (1 - 2.0**-17) + 0.1 * 2.0**-17
    assert query(network, "y")["0"] == pytest.approx(expected, abs=1e-12)


def test_one_cases_tree_slices_the_evidence_and_still_refuses_the_impossible():
    # several targets of one case: a clique tree over the unobserved nodes only; an
    # observed target's posterior is its state, and impossible evidence is refused
    asia = load_network("asia")
    evidence = {"smoke": "yes", "xray": "no"}
    both = query(asia, ["smoke", "lung", "dysp"], evidence)
    assert both["smoke"].tolist() == [1.0, 0.0]
    for v in ["lung", "dysp"]:
        np.testing.assert_allclose(
            both[v].to_numpy(), query(asia, v, evidence).to_numpy(), atol=1e-14
        )
    with pytest.raises(ValueError, match="probability 0"):
        query(asia, ["lung", "tub", "dysp"], {"either": "no", "tub": "yes"})
