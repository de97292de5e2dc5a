# SPDX-License-Identifier: BSD-3-Clause
"""Likelihood weighting against the exact engine (itself checked against pyAgrum).

The error of a weighted estimate ``q`` is about ``sqrt(q (1 - q) / ess)``, with ``ess`` the
effective sample size the estimator reports; every estimate must lie within five of those
(plus a floor for posteriors near 0 or 1). The draws are seeded, so the test is fixed.
"""

import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network
from skbn.inference import likelihood_weighting, query
from tests.inference.test_query import _oracle


@pytest.mark.parametrize("name", ["asia", "alarm"])
def test_estimates_are_within_their_error_of_the_exact_posteriors(name):
    network = load_network(name)
    cases = _oracle()[name]["cases"][:6]
    targets = list(network.nodes)
    widths = []
    for k, case in enumerate(cases):
        evidence = {v: s for v, s in case["evidence"].items() if s is not None}
        exact = query(network, targets, evidence)
        approx, ess = likelihood_weighting(
            network, targets, evidence, n_samples=60_000, random_state=k
        )
        assert 0 < ess <= 60_000
        for v in targets:
            q = exact[v].to_numpy()
            se = np.sqrt(q * (1 - q) / ess)
            gap = np.abs(approx[v].to_numpy() - q)
            assert np.all(gap <= 5 * se + 2e-3), (name, k, v, gap.max(), ess)
            widths.append(gap.max())
    assert max(widths) > 0  # an estimate, not the exact answer by another route


def test_seeded_reproducible_batched_and_soft():
    asia = load_network("asia")
    evidence = {"xray": "yes"}
    one, ess = likelihood_weighting(asia, "lung", evidence, n_samples=20_000, random_state=3)
    again, ess_again = likelihood_weighting(
        asia, "lung", evidence, n_samples=20_000, random_state=3
    )
    pd.testing.assert_series_equal(one, again)
    assert ess == ess_again
    # without evidence every weight is 1: ess is the number of samples
    _, full = likelihood_weighting(asia, "lung", None, n_samples=5_000, random_state=0)
    assert full == pytest.approx(5_000)
    # a batch: one estimate per row; soft evidence multiplies the likelihood of the draw
    rows = pd.DataFrame({"xray": ["yes", None], "smoke": ["no", "yes"]})
    batch, ess_rows = likelihood_weighting(asia, "tub", rows, n_samples=40_000, random_state=1)
    assert batch.shape == (2, 2) and ess_rows.shape == (2,)
    exact = query(asia, "tub", rows)
    assert np.abs(batch.to_numpy() - exact.to_numpy()).max() < 0.01
    soft = {"xray": [0.9, 0.2]}
    approx, _ = likelihood_weighting(
        asia, "lung", None, soft_evidence=soft, n_samples=80_000, random_state=2
    )
    exact = query(asia, "lung", None, soft_evidence=soft)
    assert abs(approx["yes"] - exact["yes"]) < 0.01


def test_bad_input_is_refused():
    asia = load_network("asia")
    with pytest.raises(ValueError, match="n_samples"):
        likelihood_weighting(asia, "lung", None, n_samples=0)
    with pytest.raises(ValueError, match="No sample had a positive weight"):
        likelihood_weighting(asia, "lung", {"lung": "yes", "either": "no"}, n_samples=100)
