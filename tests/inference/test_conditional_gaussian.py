# SPDX-License-Identifier: BSD-3-Clause
"""Exact inference on conditional-Gaussian networks against brute force.

The independent fact: the joint density of a conditional-Gaussian network is the product of
its discrete CPTs and, given the discrete configuration, one joint normal density of all the
continuous nodes (mean and covariance from the regressions, ``(I - B)^-1``). Summing that
over every discrete configuration, with the unobserved continuous nodes marginalised out of
the normal, gives ``P(e)`` and each posterior with no use of the factorisation into
components that skbn's engine relies on.
"""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import multivariate_normal

from skbn.datasets import load_network, make_conditional_gaussian
from skbn.inference import evidence_probability, map_query, mpe, query


def _joint_gaussian(cg, codes: dict):
    """Mean and covariance of the continuous nodes given every discrete node's code."""
    nodes = cg.continuous
    m = len(nodes)
    B, a, noise = np.zeros((m, m)), np.zeros(m), np.zeros(m)
    for j, v in enumerate(nodes):
        reg = cg.regression(v)
        config = tuple(codes[d] for d in reg["discrete_parents"])
        a[j] = reg["intercepts"][config]
        noise[j] = reg["variances"][config]
        for k, u in enumerate(reg["continuous_parents"]):
            B[j, nodes.index(u)] = reg["coefficients"][config][k]
    M = np.linalg.inv(np.eye(m) - B)
    return M @ a, M @ np.diag(noise) @ M.T


def _brute_force(cg, discrete_evidence: dict, continuous_evidence: dict):
    """P(e) and the joint table over every discrete configuration consistent with e."""
    part = cg.discrete_part
    nodes = part.nodes
    seen = [v for v in cg.continuous if v in continuous_evidence]
    x = np.array([continuous_evidence[v] for v in seen])
    table = {}
    for combo in itertools.product(*(range(part.arities[v]) for v in nodes)):
        codes = dict(zip(nodes, combo))
        if any(part.states[v][codes[v]] != s for v, s in discrete_evidence.items()):
            continue
        p = 1.0
        for v in nodes:
            idx = tuple(codes[u] for u in part.parents[v]) + (codes[v],)
            p *= part.cpts[v][idx]
        if seen:
            mean, cov = _joint_gaussian(cg, codes)
            pos = [cg.continuous.index(v) for v in seen]
            p *= multivariate_normal(mean[pos], cov[np.ix_(pos, pos)]).pdf(x)
        table[combo] = p
    return table


def _posterior(cg, table, target):
    part = cg.discrete_part
    k = part.nodes.index(target)
    out = np.zeros(part.arities[target])
    for combo, p in table.items():
        out[combo[k]] += p
    return out / out.sum()


CASES = [("asia", 0.4, 0), ("cancer", 0.4, 1), ("sachs", 0.45, 2), ("asia", 0.6, 3)]


@pytest.mark.parametrize("name, fraction, seed", CASES)
def test_posteriors_and_evidence_probability_equal_brute_force(name, fraction, seed):
    cg = make_conditional_gaussian(load_network(name), fraction, random_state=seed)
    rng = np.random.default_rng(seed)
    sample = cg.sample(40, random_state=seed)
    part = cg.discrete_part
    checked = 0
    for r in range(40):
        row = sample.iloc[r]
        disc = {v: row[v] for v in part.nodes if rng.random() < 0.3}
        cont = {v: float(row[v]) for v in cg.continuous if rng.random() < 0.6}
        table = _brute_force(cg, disc, cont)
        total = sum(table.values())
        evidence = {**disc, **cont}
        assert evidence_probability(cg, evidence) == pytest.approx(total, rel=1e-9)
        assert evidence_probability(cg, evidence, log=True) == pytest.approx(np.log(total))
        for target in part.nodes:
            if target in disc:
                continue
            got = query(cg, target, evidence).to_numpy()
            np.testing.assert_allclose(got, _posterior(cg, table, target), rtol=1e-9, atol=1e-12)
            checked += 1
    assert checked > 60


def _brute_force_continuous(cg, target, discrete_evidence: dict, continuous_evidence: dict):
    """Mean and variance of a continuous target's posterior, summed over every
    discrete configuration of the full joint normal conditioned on the observed values."""
    part = cg.discrete_part
    nodes = part.nodes
    seen = [v for v in cg.continuous if v in continuous_evidence]
    pos = [cg.continuous.index(v) for v in seen]
    t = cg.continuous.index(target)
    x = np.array([continuous_evidence[v] for v in seen])
    weights, means, variances = [], [], []
    for combo in itertools.product(*(range(part.arities[v]) for v in nodes)):
        codes = dict(zip(nodes, combo))
        if any(part.states[v][codes[v]] != s for v, s in discrete_evidence.items()):
            continue
        p = 1.0
        for v in nodes:
            p *= part.cpts[v][tuple(codes[u] for u in part.parents[v]) + (codes[v],)]
        mean, cov = _joint_gaussian(cg, codes)
        mu, var = mean[t], cov[t, t]
        if seen:
            S = cov[np.ix_(pos, pos)]
            p *= multivariate_normal(mean[pos], S).pdf(x)
            gain = np.linalg.solve(S, cov[pos, t])
            mu, var = mu + gain @ (x - mean[pos]), var - cov[t, pos] @ gain
        weights.append(p)
        means.append(mu)
        variances.append(var)
    w = np.array(weights) / np.sum(weights)
    m = w @ np.array(means)
    return m, w @ (np.array(variances) + np.array(means) ** 2) - m**2


@pytest.mark.parametrize("name, fraction, seed", CASES[:3])
def test_continuous_posteriors_equal_brute_force(name, fraction, seed):
    cg = make_conditional_gaussian(load_network(name), fraction, random_state=seed)
    rng = np.random.default_rng(seed + 10)
    sample = cg.sample(25, random_state=seed + 10)
    checked = 0
    for r in range(25):
        row = sample.iloc[r]
        disc = {v: row[v] for v in cg.discrete_part.nodes if rng.random() < 0.3}
        cont = {v: float(row[v]) for v in cg.continuous if rng.random() < 0.5}
        for target in cg.continuous:
            if target in cont:
                continue
            post = query(cg, target, {**disc, **cont})
            mean, var = _brute_force_continuous(cg, target, disc, cont)
            assert post.mean == pytest.approx(mean, rel=1e-9, abs=1e-12)
            assert post.variance == pytest.approx(var, rel=1e-8)
            assert post.weights.sum() == pytest.approx(1.0)
            grid = np.linspace(mean - 3 * np.sqrt(var), mean + 3 * np.sqrt(var), 7)
            density = post.pdf(grid)
            assert np.all(density > 0) and np.all(np.diff(post.cdf(grid)) > 0)
            checked += 1
    assert checked > 15


@pytest.mark.parametrize("name, fraction, seed", CASES[:3])
def test_map_over_discrete_targets_equals_brute_force(name, fraction, seed):
    cg = make_conditional_gaussian(load_network(name), fraction, random_state=seed)
    part = cg.discrete_part
    rng = np.random.default_rng(seed + 20)
    sample = cg.sample(20, random_state=seed + 20)
    for r in range(20):
        row = sample.iloc[r]
        disc = {v: row[v] for v in part.nodes if rng.random() < 0.25}
        cont = {v: float(row[v]) for v in cg.continuous if rng.random() < 0.6}
        free = [v for v in part.nodes if v not in disc]
        if not free:
            continue
        targets = sorted(rng.choice(free, size=min(2, len(free)), replace=False).tolist())
        table = _brute_force(cg, disc, cont)
        positions = [part.nodes.index(t) for t in targets]
        joint: dict = {}
        for combo, p in table.items():
            key = tuple(combo[k] for k in positions)
            joint[key] = joint.get(key, 0.0) + p
        best = max(joint, key=joint.get)
        state, log_p = map_query(cg, targets, {**disc, **cont})
        assert log_p == pytest.approx(np.log(joint[best]), rel=1e-9)
        got = tuple(part.states[t].index(state[t]) for t in targets)
        assert joint[got] == pytest.approx(joint[best], rel=1e-12)


def test_do_on_a_discrete_node_is_the_adjustment_for_its_parents():
    # P(y | do(x)) = sum_pa P(y | x, pa) P(pa), each term a query of the original network;
    # for a continuous y the same holds for its mean
    cg = make_conditional_gaussian(load_network("asia"), 0.4, random_state=0)
    part = cg.discrete_part
    checked = 0
    for x in part.nodes:
        pa = list(part.parents[x])
        if not pa:
            continue
        state = part.states[x][0]
        done = cg.do({x: state})
        prior = query(cg, pa, joint=True) if len(pa) > 1 else query(cg, pa[0])
        for y in [v for v in part.nodes if v != x and v not in pa][:2] + cg.continuous[:2]:
            expected = 0.0
            for config, weight in prior.items():
                config = config if isinstance(config, tuple) else (config,)
                if weight == 0:
                    continue
                evidence = {x: state, **dict(zip(pa, config))}
                answer = query(cg, y, evidence)
                value = answer.mean if y in cg.continuous else answer.iloc[0]
                expected += weight * value
            got = query(done, y)
            got = got.mean if y in cg.continuous else got.iloc[0]
            assert got == pytest.approx(expected, rel=1e-9, abs=1e-12), (x, y)
            checked += 1
    assert checked >= 6
    # xray is a leaf: holding it changes no other node's distribution (unlike observing it)
    done = cg.do({"xray": 1.0})
    assert done.held == {"xray": 1.0}
    np.testing.assert_allclose(query(done, "lung").to_numpy(), query(cg, "lung").to_numpy())
    assert query(done, "either").mean == pytest.approx(query(cg, "either").mean, abs=1e-12)
    assert not np.allclose(query(cg, "lung", {"xray": 1.0}), query(cg, "lung"))


@pytest.mark.parametrize("name, fraction, seed", CASES[:3])
def test_mpe_is_the_joint_maximum_over_states_and_values(name, fraction, seed):
    # brute force: for every discrete configuration, the peak of the joint normal of the
    # unobserved continuous nodes given the observed ones, times P(config) and the observed
    # values' density; the explanation's log-density is also the network's log-likelihood
    # of the completed row
    cg = make_conditional_gaussian(load_network(name), fraction, random_state=seed)
    part = cg.discrete_part
    rng = np.random.default_rng(seed + 30)
    sample = cg.sample(15, random_state=seed + 30)
    for r in range(15):
        row = sample.iloc[r]
        disc = {v: row[v] for v in part.nodes if rng.random() < 0.3}
        cont = {v: float(row[v]) for v in cg.continuous if rng.random() < 0.5}
        seen = [v for v in cg.continuous if v in cont]
        hidden = [v for v in cg.continuous if v not in cont]
        s_pos = [cg.continuous.index(v) for v in seen]
        h_pos = [cg.continuous.index(v) for v in hidden]
        x = np.array([cont[v] for v in seen])
        best, best_combo, best_mode = -np.inf, None, None
        for combo in itertools.product(*(range(part.arities[v]) for v in part.nodes)):
            codes = dict(zip(part.nodes, combo))
            if any(part.states[v][codes[v]] != s for v, s in disc.items()):
                continue
            logp = sum(
                np.log(part.cpts[v][tuple(codes[u] for u in part.parents[v]) + (codes[v],)])
                for v in part.nodes
            )
            mean, cov = _joint_gaussian(cg, codes)
            mode = mean[h_pos]
            cond = cov[np.ix_(h_pos, h_pos)]
            if seen:
                S = cov[np.ix_(s_pos, s_pos)]
                logp += multivariate_normal(mean[s_pos], S).logpdf(x)
                gain = cov[np.ix_(h_pos, s_pos)] @ np.linalg.inv(S)
                mode = mode + gain @ (x - mean[s_pos])
                cond = cond - gain @ cov[np.ix_(s_pos, h_pos)]
            if hidden:
                logp += -0.5 * (len(hidden) * np.log(2 * np.pi) + np.linalg.slogdet(cond)[1])
            if logp > best:
                best, best_combo, best_mode = logp, codes, mode
        explanation, log_p = mpe(cg, {**disc, **cont})
        assert log_p == pytest.approx(best, rel=1e-9)
        for v in part.nodes:
            assert explanation[v] == part.states[v][best_combo[v]]
        for h, v in enumerate(hidden):
            assert explanation[v] == pytest.approx(best_mode[h], rel=1e-9, abs=1e-12)
        completed = pd.DataFrame([explanation])
        for v in part.nodes:
            completed[v] = pd.Categorical(completed[v], categories=list(part.states[v]))
        assert cg.log_likelihood(completed)[0] == pytest.approx(log_p, rel=1e-9)


def test_a_batch_equals_its_rows_and_a_joint_posterior_its_cells():
    cg = make_conditional_gaussian(load_network("sachs"), 0.45, random_state=2)
    sample = cg.sample(30, random_state=5).reset_index(drop=True)
    rng = np.random.default_rng(5)
    mask = rng.random(sample.shape) < 0.5
    frame = sample.astype(object).mask(mask)
    target = cg.discrete_part.nodes[0]
    batch = query(cg, target, frame)
    probs = evidence_probability(cg, frame)
    for r in range(len(frame)):
        case = {v: frame.at[r, v] for v in frame.columns if not pd.isna(frame.at[r, v])}
        np.testing.assert_allclose(batch.iloc[r].to_numpy(), query(cg, target, case).to_numpy())
        assert probs[r] == pytest.approx(evidence_probability(cg, case), rel=1e-12)
    cont = query(cg, "Akt", frame)
    for r in range(len(frame)):
        case = {v: frame.at[r, v] for v in frame.columns if not pd.isna(frame.at[r, v])}
        single = query(cg, "Akt", case)
        assert cont.at[r, "mean"] == pytest.approx(single.mean, rel=1e-12)
        assert cont.at[r, "std"] == pytest.approx(single.std, rel=1e-12)
    explained, log_p = mpe(cg, frame)
    for r in range(len(frame)):
        case = {v: frame.at[r, v] for v in frame.columns if not pd.isna(frame.at[r, v])}
        single, single_log_p = mpe(cg, case)
        assert log_p[r] == pytest.approx(single_log_p, rel=1e-12)
        for v in cg.nodes:
            got = explained.at[r, v]
            assert got == pytest.approx(single[v]) if v in cg.continuous else got == single[v]
    a, b = cg.discrete_part.nodes[:2]
    joint = query(cg, [a, b], frame.iloc[:1], joint=True).iloc[0]
    single = query(cg, a, frame.iloc[:1]).iloc[0]
    np.testing.assert_allclose(joint.groupby(level=0).sum().loc[single.index], single)


def test_evidence_on_continuous_nodes_moves_the_discrete_posterior():
    # tar's mean differs by smoking: a high tar value makes smoking likelier
    from skbn.network import ConditionalGaussianNetwork, DiscreteBayesianNetwork

    bn = DiscreteBayesianNetwork({"smoker": ["no", "yes"]}, {}, {"smoker": [0.7, 0.3]})
    cg = ConditionalGaussianNetwork(
        bn,
        parents={"tar": ["smoker"], "fev": ["smoker", "tar"]},
        intercepts={"tar": [0.0, 2.0], "fev": [4.0, 3.5]},
        coefficients={"tar": [[], []], "fev": [[-0.2], [-0.4]]},
        variances={"tar": [0.5, 1.0], "fev": [0.3, 0.3]},
    )
    # by hand: P(yes | tar = 2) = 0.3 N(2; 2, 1) / (0.3 N(2; 2, 1) + 0.7 N(2; 0, 0.5))
    yes = 0.3 * np.exp(0) / np.sqrt(2 * np.pi)
    no = 0.7 * np.exp(-(2.0**2) / (2 * 0.5)) / np.sqrt(2 * np.pi * 0.5)
    assert query(cg, "smoker", {"tar": 2.0})["yes"] == pytest.approx(yes / (yes + no))
    # fev alone: tar integrated out, fev | smoker normal with the propagated variance
    fev = 3.0
    dens = {
        s: multivariate_normal(m0 + w * mt, 0.3 + w**2 * vt).pdf(fev)
        for s, m0, w, mt, vt in (("no", 4.0, -0.2, 0.0, 0.5), ("yes", 3.5, -0.4, 2.0, 1.0))
    }
    expected = 0.3 * dens["yes"] / (0.3 * dens["yes"] + 0.7 * dens["no"])
    assert query(cg, "smoker", {"fev": fev})["yes"] == pytest.approx(expected)
    assert cg.query("smoker", {"fev": fev})["yes"] == pytest.approx(expected)
    total = 0.3 * dens["yes"] + 0.7 * dens["no"]
    assert cg.evidence_probability({"fev": fev}) == pytest.approx(total)


def test_bad_questions_are_refused_by_name():
    cg = make_conditional_gaussian(load_network("asia"), 0.25, random_state=0)
    with pytest.raises(ValueError, match=r"\['xray'\] are continuous"):
        query(cg, ["xray", "lung"], {}, joint=True)
    with pytest.raises(ValueError, match="must be numbers"):
        query(cg, "lung", {"dysp": "high"})
    with pytest.raises(ValueError, match="does not have"):
        query(cg, "lung", {"nope": 1.0})
    with pytest.raises(ValueError, match="probability 0"):
        query(cg, "lung", {"lung": "yes", "either": "no"})


def test_a_learned_mixed_network_answers_queries():
    from skbn.learners import HillClimb

    cg = make_conditional_gaussian(load_network("asia"), 0.4, random_state=0)
    X = cg.sample(3000, random_state=0)
    net = HillClimb().fit(X).network_
    assert set(net.continuous) == set(cg.continuous)
    evidence = {"smoke": "yes", "xray": float(X["xray"].quantile(0.9))}
    learned = net.query("lung", evidence)
    truth = cg.query("lung", evidence)
    assert learned.sum() == pytest.approx(1.0)
    # the learned parameters are estimates: near the true network's answer, not equal
    assert abs(learned["yes"] - truth["yes"]) < 0.1
