# SPDX-License-Identifier: BSD-3-Clause
"""The parallel discrete kernels and their serial twins give the same scores, bit for bit.

Small calls run the serial twin (``skbn._kernels._threads.parallel_pays``); a learner's
result must not depend on which one ran, nor on the number of threads.
"""

import numba
import numpy as np
import pandas as pd
import pytest

from skbn._kernels.bits import state_bits
from skbn._kernels.discrete import (
    LOGLIK,
    family_score,
    pairwise_scores,
    pairwise_scores_serial,
    toggle_scores,
    toggle_scores_serial,
)
from skbn.data import check_data


@pytest.mark.parametrize("arity", [2, 7, 40])  # bitsets, dense tables, sorted counting
@pytest.mark.parametrize("parents", [[], [1], [1, 3]])
def test_toggle_and_pairwise_twins_agree(arity, parents):
    rng = np.random.default_rng(arity)
    X = pd.DataFrame(rng.integers(0, arity, (600, 6))).astype("category")
    data = check_data(X)
    codes, arities = data.codes, data.arities
    bits, offsets = state_bits(codes, arities)
    pa = np.asarray(parents, dtype=np.int64)
    serial = toggle_scores_serial(codes, arities, 0, pa, LOGLIK, 0.0, bits, offsets)
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        try:
            parallel = toggle_scores(codes, arities, 0, pa, LOGLIK, 0.0, bits, offsets)
            S = pairwise_scores(codes, arities, LOGLIK, 0.0, bits, offsets)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        assert np.array_equal(parallel, serial)
        assert np.array_equal(S, pairwise_scores_serial(codes, arities, LOGLIK, 0.0, bits, offsets))
    # and both equal the family scored from scratch
    for x in range(6):
        family = sorted(set(parents) ^ {x}) if x != 0 else parents
        expected = family_score(codes, arities, 0, np.asarray(family, np.int64), LOGLIK, 0.0)
        assert serial[x] == pytest.approx(expected, rel=1e-12)
