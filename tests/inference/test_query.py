# SPDX-License-Identifier: BSD-3-Clause
"""skbn.inference against pyAgrum's exact posteriors and independent identities."""

import gzip
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network, make_erdos_renyi_dag, make_linear_gaussian
from skbn.inference import GaussianPosterior, evidence_probability, query
from skbn.inference import mpe as mpe_of
from skbn.network import DiscreteBayesianNetwork

ORACLE = Path(__file__).resolve().parents[1] / "data" / "inference_oracle.json.gz"


def _oracle() -> dict:
    with gzip.open(ORACLE, "rt") as handle:
        return {net["network"]: net for net in json.load(handle)["networks"]}


FAST = ["asia", "cancer", "sachs", "child", "alarm"]


@pytest.mark.parametrize(
    "name, cases",
    [(n, None) for n in FAST]
    + [
        pytest.param("insurance", 200, marks=pytest.mark.slow),
        pytest.param("water", 20, marks=pytest.mark.slow),
    ],
)
def test_batched_posteriors_equal_pyagrum(name, cases):
    record = _oracle()[name]["cases"][:cases]
    network = load_network(name)
    frame = pd.DataFrame([c["evidence"] for c in record], columns=network.nodes)
    frame = frame.loc[:, frame.notna().any()]
    np.testing.assert_allclose(
        evidence_probability(network, frame),
        [c["probability"] for c in record],
        rtol=0,
        atol=1e-9,
    )
    targets = sorted({v for c in record for v in c["posteriors"]})
    found = query(network, targets, frame)
    for i, case in enumerate(record):
        for v, expected in case["posteriors"].items():
            np.testing.assert_allclose(found[v].iloc[i], expected, rtol=0, atol=1e-9)


@pytest.mark.parametrize("name", ["alarm", "insurance"])
def test_single_cases_equal_pyagrum(name):
    network = load_network(name)
    for case in _oracle()[name]["cases"][:25]:
        assert evidence_probability(network, case["evidence"]) == pytest.approx(
            case["probability"], abs=1e-9, rel=0
        )
        posteriors = query(network, list(case["posteriors"]), case["evidence"])
        for v, expected in case["posteriors"].items():
            assert isinstance(posteriors[v], pd.Series)
            np.testing.assert_allclose(posteriors[v].to_numpy(), expected, atol=1e-9, rtol=0)
            # one target alone: eliminated, the evidence sliced out of the tables
            alone = query(network, v, case["evidence"]).to_numpy()
            np.testing.assert_allclose(alone, expected, atol=1e-9, rtol=0)


def test_joint_posterior_obeys_the_product_rule():
    alarm = load_network("alarm")
    evidence = {"HRBP": "HIGH", "BP": "LOW"}
    joint = query(alarm, ["CO", "HR"], evidence, joint=True)
    assert joint.sum() == pytest.approx(1.0)
    # P(CO, HR | e) = P(HR | e) P(CO | HR, e)
    hr = query(alarm, "HR", evidence)
    for state in alarm.states["HR"]:
        given = query(alarm, "CO", {**evidence, "HR": state})
        found = joint.xs(state, level="HR").reindex(given.index)
        np.testing.assert_allclose(found.to_numpy(), hr[state] * given.to_numpy())
    np.testing.assert_allclose(
        joint.groupby(level="CO", sort=False).sum().to_numpy(),
        query(alarm, "CO", evidence).to_numpy(),
    )


def test_soft_evidence_is_a_virtual_child():
    asia = load_network("asia")
    likelihood = [0.8, 0.3]  # P(finding | lung = yes), P(finding | lung = no)
    soft = query(
        asia,
        "cancer" if "cancer" in asia.states else "either",
        {"smoke": "yes"},
        soft_evidence={"lung": likelihood},
    )
    # the same finding as a real child node of lung, observed
    states = dict(asia.states)
    states["finding"] = ["seen", "not"]
    parents = {v: list(asia.parents[v]) for v in asia.nodes}
    parents["finding"] = ["lung"]
    cpts = dict(asia.cpts)
    cpts["finding"] = np.array([[0.8, 0.2], [0.3, 0.7]])
    extended = DiscreteBayesianNetwork(states, parents, cpts)
    hard = query(extended, soft.index.name, {"smoke": "yes", "finding": "seen"})
    np.testing.assert_allclose(soft.to_numpy(), hard.to_numpy(), rtol=1e-12)
    assert evidence_probability(asia, {"smoke": "yes"}, soft_evidence={"lung": likelihood}) == (
        pytest.approx(evidence_probability(extended, {"smoke": "yes", "finding": "seen"}))
    )


def test_no_evidence_gives_the_marginal_of_samples():
    child = load_network("child")
    marginal = query(child, "Disease")
    sample = child.sample(200_000, random_state=0)["Disease"]
    frequencies = sample.value_counts(normalize=True).reindex(marginal.index)
    np.testing.assert_allclose(marginal.to_numpy(), frequencies.to_numpy(), atol=4e-3)
    assert evidence_probability(child, {}) == 1.0


def test_an_observed_target_is_its_state_and_impossible_evidence_is_named():
    asia = load_network("asia")
    found = query(asia, "smoke", {"smoke": "no", "dysp": "yes"})
    assert found.to_dict() == {"yes": 0.0, "no": 1.0}
    # tub = yes forces either = yes
    with pytest.raises(ValueError, match="probability 0"):
        query(asia, "lung", {"tub": "yes", "either": "no"})
    rows = pd.DataFrame({"tub": ["yes", "yes"], "either": ["no", "yes"]})
    batch = query(asia, "lung", rows)
    assert batch.iloc[0].isna().all() and batch.iloc[1].notna().all()
    assert evidence_probability(asia, rows, log=True)[0] == -np.inf


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda n: query(n, "nope"), "does not have.*nope"),
        (lambda n: query(n, "lung", {"smoke": "maybe"}), "'smoke'.*'maybe'.*states"),
        (lambda n: query(n, "lung", {"weather": "yes"}), "weather"),
        (lambda n: query(n, "lung", [("smoke", "yes")]), "dict"),
        (lambda n: query(n, "lung", soft_evidence={"smoke": [1.0]}), "2 likelihoods"),
        (lambda n: query(n, "lung", soft_evidence={"smoke": [0.0, 0.0]}), "not all zero"),
        (lambda n: query(n, []), "empty"),
    ],
)
def test_bad_queries_are_refused_by_name(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call(load_network("asia"))


def test_gaussian_posterior_is_the_precision_form():
    network = make_linear_gaussian(make_erdos_renyi_dag(12, 20, random_state=0), random_state=0)
    nodes = network.nodes
    targets, observed = [nodes[7], nodes[2]], [nodes[0], nodes[5], nodes[9]]
    values = np.array([0.5, -1.0, 2.0])
    found = query(network, targets, dict(zip(observed, values)))
    assert isinstance(found, GaussianPosterior)
    # independent route: the precision matrix of (targets, observed) after marginalising
    mu, sigma = network.means, network.covariance
    u = [nodes.index(v) for v in targets + observed]
    precision = np.linalg.inv(sigma[np.ix_(u, u)])
    k = len(targets)
    cov = np.linalg.inv(precision[:k, :k])
    mean = mu[u[:k]] - cov @ precision[:k, k:] @ (values - mu[u[k:]])
    np.testing.assert_allclose(found.mean.to_numpy(), mean, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(found.covariance.to_numpy(), cov, rtol=1e-10, atol=1e-12)
    # a batch with another pattern per row gives each row its own conditional
    rows = pd.DataFrame(
        {observed[0]: [0.5, np.nan], observed[1]: [-1.0, 1.0], observed[2]: [2.0, np.nan]}
    )
    batch = network.query(targets, rows)
    np.testing.assert_allclose(batch.mean.iloc[0].to_numpy(), mean, rtol=1e-10, atol=1e-12)
    alone = query(network, targets, {observed[1]: 1.0})
    np.testing.assert_allclose(batch.covariance[1], alone.covariance.to_numpy(), atol=1e-12)
    np.testing.assert_allclose(batch.std.iloc[1].to_numpy(), alone.std.to_numpy())


def test_do_equals_the_adjustment_for_the_parents():
    # P(y | do(x)) = sum_pa P(y | x, pa) P(pa): an identity of the truncated factorisation
    # (it needs positivity, so not on ASIA's deterministic "either")
    alarm = load_network("alarm")
    forced = query(alarm.do({"HR": "HIGH"}), "BP")
    parents = list(alarm.parents["HR"])
    prior = query(alarm, parents, joint=True)
    expected = sum(
        prior[config]
        * query(alarm, "BP", {"HR": "HIGH", **dict(zip(parents, np.atleast_1d(config)))})
        for config in prior.index
    )
    np.testing.assert_allclose(forced.to_numpy(), expected.to_numpy(), rtol=1e-10)
    assert not np.allclose(forced.to_numpy(), query(alarm, "BP", {"HR": "HIGH"}).to_numpy())
    # an intervention leaves the ancestors alone; observing it does not
    assert query(alarm.do({"HR": "HIGH"}), "CATECHOL")["HIGH"] == pytest.approx(
        query(alarm, "CATECHOL")["HIGH"]
    )
    assert query(alarm, "CATECHOL", {"HR": "HIGH"})["HIGH"] != pytest.approx(
        query(alarm, "CATECHOL")["HIGH"]
    )
    with pytest.raises(ValueError, match="not a state"):
        alarm.do({"HR": "maybe"})


def test_gaussian_do_and_total_effect_agree_with_regression_adjustment():
    from skbn.inference import total_effect

    network = make_linear_gaussian(make_erdos_renyi_dag(10, 18, random_state=3), random_state=3)
    nodes = network.nodes
    order = [v for v in nodes if network.parents[v]]
    target = order[-1]
    treatment = next(v for v in nodes if total_effect(network, v, target) != 0 and v != target)
    effect = total_effect(network, treatment, target)
    # the slope of E[target | do(treatment = x)] in x
    low = query(network.do({treatment: 0.0}), target).mean[target]
    high = query(network.do({treatment: 1.0}), target).mean[target]
    assert high - low == pytest.approx(effect, rel=1e-10)
    # back-door adjustment for the treatment's parents on a large sample
    X = network.sample(200_000, random_state=0)
    design = np.column_stack([X[treatment], *[X[u] for u in network.parents[treatment]]])
    design = np.column_stack([np.ones(len(X)), design])
    slope = np.linalg.lstsq(design, X[target].to_numpy(), rcond=None)[0][1]
    assert slope == pytest.approx(effect, abs=0.02)
    # observing the intervened node at its value changes nothing; another value is refused
    forced = network.do({treatment: 1.0})
    assert query(forced, target, {treatment: 1.0}).mean[target] == pytest.approx(high)
    with pytest.raises(ValueError, match="probability 0"):
        query(forced, target, {treatment: 2.0})


def _log_joint(network, assignment: dict) -> float:
    row = pd.DataFrame({v: [assignment[v]] for v in network.nodes})
    return float(network.log_likelihood(row)[0])


@pytest.mark.parametrize(
    "name", ["asia", "sachs", "child", "alarm", pytest.param("insurance", marks=pytest.mark.slow)]
)
def test_mpe_is_as_probable_as_pyagrums(name):
    network = load_network(name)
    record = [c for c in _oracle()[name]["cases"] if c["mpe"] is not None][:150]
    assert len(record) >= 30  # pyAgrum 3.3.1's MPE fails on many evidence sets
    frame = pd.DataFrame([c["evidence"] for c in record], columns=network.nodes)
    frame = frame.loc[:, frame.notna().any()]
    explanation, log_p = mpe_of(network, frame)
    log_e = evidence_probability(network, frame, log=True)
    for i, case in enumerate(record):
        ours = {v: explanation[v].iloc[i] for v in network.nodes}
        assert all(ours[v] == s for v, s in case["evidence"].items())
        # the value reported is the assignment's own probability ...
        assert log_p[i] == pytest.approx(_log_joint(network, ours), abs=1e-9)
        # ... and as high as pyAgrum's explanation's (ties may pick another assignment)
        assert log_p[i] == pytest.approx(_log_joint(network, case["mpe"]), abs=1e-9)
        assert log_p[i] - log_e[i] == pytest.approx(
            case["mpe_log2_posterior"] * np.log(2), abs=1e-9
        )


def test_mpe_equals_brute_force_on_asia():
    import itertools

    asia = load_network("asia")
    states = [asia.states[v] for v in asia.nodes]
    table = pd.DataFrame(list(itertools.product(*states)), columns=asia.nodes)
    log_joint = asia.log_likelihood(table)
    evidence = pd.DataFrame({"xray": ["yes", None, "no"], "smoke": [None, "no", "yes"]})
    explanation, log_p = mpe_of(asia, evidence)
    for i, row in evidence.iterrows():
        keep = np.ones(len(table), dtype=bool)
        for v, s in row.dropna().items():
            keep &= (table[v] == s).to_numpy()
        assert log_p[i] == pytest.approx(log_joint[keep].max(), abs=1e-12)
        best = table[keep].iloc[int(np.argmax(log_joint[keep]))]
        assert explanation.iloc[i].astype(str).to_dict() == best.to_dict()
    single, value = mpe_of(asia, {"xray": "yes"})
    assert single == explanation.iloc[0].astype(str).to_dict() and value == log_p[0]


def test_the_clique_tree_and_per_target_elimination_agree():
    # several targets go through one clique tree; a single target is eliminated alone
    alarm = load_network("alarm")
    record = _oracle()["alarm"]["cases"][:200]
    frame = pd.DataFrame([c["evidence"] for c in record], columns=alarm.nodes)
    frame = frame.loc[:, frame.notna().any()]
    soft = {"HR": np.tile([0.2, 0.5, 0.9], (len(frame), 1))}
    together = query(alarm, alarm.nodes, frame, soft_evidence=soft)
    for v in ["HR", "BP", "CO", "LVFAILURE", "HYPOVOLEMIA", "KINKEDTUBE"]:
        alone = query(alarm, v, frame, soft_evidence=soft)
        np.testing.assert_allclose(together[v].to_numpy(), alone.to_numpy(), atol=1e-12)


def test_a_split_batch_gives_the_same_answers(monkeypatch):
    import skbn.inference._discrete as engine

    alarm = load_network("alarm")
    record = _oracle()["alarm"]["cases"][:40]
    frame = pd.DataFrame([c["evidence"] for c in record], columns=alarm.nodes)
    frame = frame.loc[:, frame.notna().any()]
    whole = query(alarm, ["HR", "BP"], frame)
    whole_one = query(alarm, "CO", frame)
    whole_p = evidence_probability(alarm, frame)
    monkeypatch.setattr(engine, "_BATCH_BYTES", 1)  # every batch splits down to single rows
    split = query(alarm, ["HR", "BP"], frame)
    for v in ["HR", "BP"]:
        np.testing.assert_allclose(split[v].to_numpy(), whole[v].to_numpy(), atol=1e-12)
    np.testing.assert_allclose(query(alarm, "CO", frame).to_numpy(), whole_one.to_numpy())
    np.testing.assert_allclose(evidence_probability(alarm, frame), whole_p, rtol=1e-12)


def test_a_tree_over_the_bound_is_used_only_when_cheaper(monkeypatch):
    # one row: above its GiB bound the tree is taken only when the cost model rates it
    # cheaper than the targets' own eliminations and it fits in a third of memory; its
    # answers are the oracle-checked ones
    import skbn.inference._discrete as engine

    alarm = load_network("alarm")
    case = _oracle()["alarm"]["cases"][0]
    evidence = {k: v for k, v in case["evidence"].items() if v is not None}
    expected = query(alarm, alarm.nodes, evidence)
    lam, n, _ = engine._likelihoods(alarm, evidence, None)
    monkeypatch.setattr(engine, "_BATCH_BYTES", 1)  # every tree is over the bound
    dearer = engine._tree_marginals(alarm, alarm.nodes, lam, n, lambda: 10**12)
    assert dearer is not None
    for v in alarm.nodes:
        np.testing.assert_allclose(dearer[v][0], expected[v].to_numpy(), atol=1e-12)
    assert engine._tree_marginals(alarm, alarm.nodes, lam, n, lambda: 0) is None
    assert engine._tree_marginals(alarm, alarm.nodes, lam, n) is None
    monkeypatch.setattr(engine, "physical_memory", lambda: 1)  # it would not fit
    assert engine._tree_marginals(alarm, alarm.nodes, lam, n, lambda: 10**12) is None
    # the whole query, the bound forcing per-target eliminations, still gives the answers
    again = query(alarm, alarm.nodes, evidence)
    for v in alarm.nodes:
        np.testing.assert_allclose(again[v].to_numpy(), expected[v].to_numpy(), atol=1e-12)
