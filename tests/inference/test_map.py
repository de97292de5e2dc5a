# SPDX-License-Identifier: BSD-3-Clause
"""MAP over a subset: the argmax of the targets' joint posterior, which query computes."""

import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network
from skbn.inference import evidence_probability, map_query, mpe, query


def _cases(network, n_cases, seed):
    """Random evidence on a quarter of the nodes (sampled rows, so never impossible)."""
    rng = np.random.default_rng(seed)
    rows = network.sample(n_cases, random_state=seed)
    nodes = network.nodes
    cases = []
    for _, row in rows.iterrows():
        observed = rng.choice(nodes, size=max(1, len(nodes) // 4), replace=False)
        cases.append({v: row[v] for v in observed})
    return cases


@pytest.mark.parametrize("name", ["asia", "child", "alarm"])
def test_map_is_the_argmax_of_the_joint_posterior(name):
    network = load_network(name)
    rng = np.random.default_rng(1)
    checked = 0
    for evidence in _cases(network, 30, seed=2):
        free = [v for v in network.nodes if v not in evidence]
        targets = list(rng.choice(free, size=min(3, len(free)), replace=False))
        state, log_p = map_query(network, targets, evidence)
        joint = query(network, targets, evidence, joint=True)
        best = joint.max()
        found = (
            joint.loc[tuple(state[t] for t in targets)]
            if len(targets) > 1
            else joint.loc[state[targets[0]]]
        )
        # the answer is a most probable state (ties allowed) and its log P(state, e) is right
        assert found == pytest.approx(best, rel=1e-9)
        log_e = evidence_probability(network, evidence, log=True)
        assert log_p - log_e == pytest.approx(np.log(best), abs=1e-9)
        checked += 1
    assert checked == 30


def test_map_differs_from_the_mpe_where_summing_decides():
    asia = load_network("asia")
    explanation, _ = mpe(asia, {"xray": "yes"})
    state, _ = map_query(asia, "lung", {"xray": "yes"})
    assert explanation["lung"] == "yes" and state == {"lung": "no"}


def test_a_batch_gives_each_row_its_own_answer():
    network = load_network("alarm")
    cases = _cases(network, 12, seed=4)
    frame = pd.DataFrame(cases)
    targets = ["HYPOVOLEMIA", "LVFAILURE"]
    states, log_p = map_query(network, targets, frame)
    for k, evidence in enumerate(cases):
        one, lp = map_query(network, targets, evidence)
        assert {t: states[t].iloc[k] for t in targets} == one
        assert log_p[k] == pytest.approx(lp, abs=1e-9)
    assert network.map(targets, cases[0]) == map_query(network, targets, cases[0])


def test_bad_targets_are_refused():
    asia = load_network("asia")
    with pytest.raises(ValueError, match=r"targets \['lungs'\] are not nodes"):
        map_query(asia, ["lungs"])
    with pytest.raises(ValueError, match="at least one target"):
        map_query(asia, [])
