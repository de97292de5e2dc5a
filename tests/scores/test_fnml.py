# SPDX-License-Identifier: BSD-3-Clause
import itertools
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from skbn._kernels.discrete import log_multinomial_regret
from skbn.scores import FNML


def brute_force_regret(m, r):
    """Sum over all r**m sequences of their maximised multinomial likelihood."""
    total = 0.0
    for seq in itertools.product(range(r), repeat=m):
        counts = Counter(seq)
        total += math.prod((c / m) ** c for c in counts.values())
    return total


@pytest.mark.parametrize("m", [0, 1, 2, 3, 5, 7])
@pytest.mark.parametrize("r", [1, 2, 3, 4])
def test_regret_equals_brute_force(m, r):
    expected = 1.0 if m == 0 else brute_force_regret(m, r)
    assert math.exp(log_multinomial_regret(m, r)) == pytest.approx(expected, rel=1e-12)


def test_regret_is_finite_for_large_counts():
    value = log_multinomial_regret(100_000, 20)
    # Szpankowski's expansion: (r-1)/2 log(n/2) + log(sqrt(pi) / Gamma(r/2))
    #   + sqrt(2) r Gamma(r/2) / (3 Gamma(r/2 - 1/2)) / sqrt(n) + O(1/n)
    n, r = 100_000, 20
    asymptotic = (r - 1) / 2 * math.log(n / 2) + 0.5 * math.log(math.pi) - math.lgamma(r / 2)
    ratio = math.exp(math.lgamma(r / 2) - math.lgamma(r / 2 - 0.5))
    asymptotic += math.sqrt(2) * r * ratio / 3 / math.sqrt(n)
    assert value == pytest.approx(asymptotic, abs=0.005)


def test_local_score_equals_brute_force_on_a_tiny_table():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {"a": rng.integers(0, 2, 9), "b": rng.integers(0, 3, 9), "c": rng.integers(0, 3, 9)}
    )
    bound = FNML().bind(X)
    # c given (a, b): per parent configuration, log ML of its c values minus log C(N_j, 3)
    expected = 0.0
    for _, group in X.groupby(["a", "b"]):
        counts = group["c"].value_counts().to_numpy()
        nj = counts.sum()
        expected += float(np.sum(counts * np.log(counts / nj)))
        expected -= math.log(brute_force_regret(int(nj), 3))
    assert bound.local_score("c", ["a", "b"]) == pytest.approx(expected, rel=1e-12)


def test_toggle_scores_agree_with_local_scores():
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.integers(0, 3, size=(200, 4)), columns=list("abcd"))
    bound = FNML().bind(X)
    values = bound.toggle_scores(2, [0])
    assert values[2] == pytest.approx(bound.local_score(2, [0]))
    assert values[0] == pytest.approx(bound.local_score(2, []))
    assert values[1] == pytest.approx(bound.local_score(2, [0, 1]))
