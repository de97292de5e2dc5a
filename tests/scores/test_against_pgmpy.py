# SPDX-License-Identifier: BSD-3-Clause
"""Local scores against pgmpy's on the same data (needs the ``bench`` extra)."""

import warnings

import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network
from skbn.scores import AIC, BIC, K2, BDeu

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    estimators = pytest.importorskip("pgmpy.estimators", reason="pgmpy is in the bench extra")

FAMILIES = [
    ("dysp", []),
    ("dysp", ["bronc"]),
    ("dysp", ["bronc", "either"]),
    ("either", ["lung", "tub", "smoke"]),
]


@pytest.fixture(scope="module")
def asia():
    X = load_network("asia").sample(4000, random_state=0)
    return X.astype(str)  # pgmpy wants plain labels; states are then sorted in both libraries


@pytest.mark.parametrize(
    "ours, theirs, kwargs",
    [
        (BIC(), "BIC", {}),
        (AIC(), "AIC", {}),
        (K2(), "K2", {}),
        (BDeu(iss=5.0), "BDeu", {"equivalent_sample_size": 5}),
    ],
)
@pytest.mark.filterwarnings("ignore")
def test_local_scores_equal_pgmpys(asia, ours, theirs, kwargs):
    reference = getattr(estimators, theirs)(asia, **kwargs)
    bound = ours.bind(asia)
    for child, parents in FAMILIES:
        expected = reference.local_score(child, list(parents))
        assert bound.local_score(child, parents) == pytest.approx(expected, rel=1e-9), (
            child,
            parents,
        )


@pytest.mark.filterwarnings("ignore")
def test_random_data_with_unobserved_configurations(asia):
    rng = np.random.default_rng(5)
    X = pd.DataFrame(rng.integers(0, 4, size=(60, 4)).astype(str), columns=list("abcd"))
    reference = estimators.BDeu(X, equivalent_sample_size=2)
    assert BDeu(iss=2).bind(X).local_score("d", ["a", "b", "c"]) == pytest.approx(
        reference.local_score("d", ["a", "b", "c"]), rel=1e-9
    )
