# SPDX-License-Identifier: BSD-3-Clause
"""The two ways of counting discrete tables (row passes and row bitsets) agree exactly."""

import numpy as np
import pytest

from skbn._kernels.bits import and_count, state_bits
from skbn._kernels.discrete import BDEU, LOGLIK, family_score, pairwise_scores, toggle_scores
from skbn.data import DiscreteData

NO_BITS = (np.zeros((0, 0), dtype=np.uint64), np.zeros(1, dtype=np.int64))


def _data(n, arities, seed):
    rng = np.random.default_rng(seed)
    codes = np.column_stack([rng.integers(0, r, size=n) for r in arities])
    # make the columns dependent so that tables have empty and full cells
    codes[:, 1] = (codes[:, 0] + (rng.random(n) < 0.2)) % arities[1]
    data = DiscreteData(
        codes, arities, [tuple(range(r)) for r in arities], [f"v{j}" for j in range(len(arities))]
    )
    return data.codes, data.arities


@pytest.mark.parametrize("n", [5, 64, 65, 1000, 3001])
def test_state_bits_count_the_rows_of_each_state(n):
    codes, arities = _data(n, [2, 3, 5, 2], seed=n)
    bits, offsets = state_bits(codes, arities)
    assert bits.shape == (int(arities.sum()), (n + 63) // 64)
    for j, r in enumerate(arities):
        for s in range(r):
            row = bits[offsets[j] + s]
            assert and_count(row, row) == np.sum(codes[:, j] == s)
        # every row is in exactly one state of each variable
        union = np.bitwise_or.reduce(bits[offsets[j] : offsets[j + 1]], axis=0)
        assert sum(bin(int(w)).count("1") for w in union) == n


@pytest.mark.parametrize("kind, param", [(LOGLIK, 0.0), (BDEU, 1.0)])
@pytest.mark.parametrize("n", [7, 64, 200, 5000])
@pytest.mark.parametrize("parents", [[], [0], [2, 3], [0, 3, 4]])
def test_toggle_scores_are_the_same_with_and_without_bitsets(n, parents, kind, param):
    codes, arities = _data(n, [2, 3, 4, 2, 3, 6], seed=n + len(parents))
    bits = state_bits(codes, arities)
    parents = np.array(parents, dtype=np.int64)
    child = 5 if 5 not in parents else 1
    with_bits = toggle_scores(codes, arities, child, parents, kind, param, *bits)
    by_rows = toggle_scores(codes, arities, child, parents, kind, param, *NO_BITS)
    np.testing.assert_array_equal(with_bits, by_rows)
    # and both are the family scores computed one by one
    for x in range(len(arities)):
        family = set(parents.tolist()) ^ ({x} if x != child else set())
        expected = family_score(
            codes, arities, child, np.array(sorted(family), dtype=np.int64), kind, param
        )
        assert with_bits[x] == pytest.approx(expected, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("n", [9, 300, 4000])
def test_pairwise_scores_are_the_same_with_and_without_bitsets(n):
    codes, arities = _data(n, [2, 3, 4, 2, 7], seed=n)
    with_bits = pairwise_scores(codes, arities, LOGLIK, 0.0, *state_bits(codes, arities))
    by_rows = pairwise_scores(codes, arities, LOGLIK, 0.0, *NO_BITS)
    np.testing.assert_array_equal(with_bits, by_rows)


def test_families_with_more_configurations_than_int64_holds():
    # 11 parents of 50 categories: 50**11 * 50 cells overflow int64; the rows come from 40
    # parent configurations and the child is noisy, so the scores are not trivial
    import math

    import pandas as pd
    from scipy.special import gammaln

    from skbn.scores import BIC, BDeu, LogLikelihood

    rng = np.random.default_rng(1)
    n = 3000
    parents = [f"z{j}" for j in range(1, 12)]
    Z = rng.integers(0, 50, size=(40, 11))[rng.integers(0, 40, size=n)]
    child = (Z[:, 0] + rng.integers(0, 4, size=n)) % 50
    X = pd.DataFrame(Z, columns=parents).assign(z0=child)
    X = X.astype(pd.CategoricalDtype(range(50)))
    q = 50.0**11
    ll = bdeu = 0.0
    a_jk, a_j = 1.0 / (q * 50), 1.0 / q
    for _, part in X.groupby(parents, observed=True)["z0"]:
        counts = part.value_counts().to_numpy()
        counts = counts[counts > 0]
        ll += float((counts * np.log(counts / counts.sum())).sum())
        bdeu += gammaln(a_j) - gammaln(a_j + counts.sum())
        bdeu += float((gammaln(a_jk + counts) - gammaln(a_jk)).sum())
    assert LogLikelihood().bind(X).local_score("z0", parents) == pytest.approx(ll, rel=1e-10)
    assert BDeu().bind(X).local_score("z0", parents) == pytest.approx(bdeu, rel=1e-10)
    # the penalty counts 49 * 50**11 free parameters exactly
    penalty = math.log(n) / 2 * 49 * 50**11
    assert BIC().bind(X).local_score("z0", parents) == pytest.approx(ll - penalty, rel=1e-10)
