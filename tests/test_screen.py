# SPDX-License-Identifier: BSD-3-Clause
import math

import numpy as np
import pytest

from skbn._kernels.screen import pair_dots
from skbn.data import thresholded_correlations


def _pair_values(Z, scale):
    """Every pair's value, each one dot product in double precision (the recheck's own
    kernel, whose accuracy ``test_pair_dots_are_double_precision_dot_products`` checks)."""
    n, p = Z.shape
    i, j = np.triu_indices(p, 1)
    values = np.abs(pair_dots(np.asfortranarray(Z), i, j)) / n
    if scale is not None:
        values *= scale[i] * scale[j]
    return i, j, values


def _double_precision_screen(Z, r_min, scale):
    i, j, values = _pair_values(Z, scale)
    keep = values >= r_min
    return i[keep], j[keep], np.minimum(values[keep], 1.0)


@pytest.mark.parametrize("scaled", [False, True])
@pytest.mark.parametrize("block", [7, 64, 2048])
def test_single_precision_tiles_keep_the_double_precision_pairs(scaled, block):
    # pairs whose correlations sit within a few units of float32 roundoff of the threshold:
    # the tiles' single-precision products cannot decide them, the recheck must
    rng = np.random.default_rng(0)
    n, p = 500, 150
    Z = rng.standard_normal((n, p))
    Z[:, 1::2] = Z[:, ::2] * 0.3 + rng.standard_normal((n, p // 2))
    Z -= Z.mean(axis=0)
    Z[:, 5] = 0.0  # a constant column correlates with nothing
    sd = np.sqrt((Z**2).mean(axis=0))
    scale = np.where(sd > 0, 1.0 / np.where(sd > 0, sd, 1.0), 0.0)
    data = Z if scaled else Z * scale
    values = np.sort(_pair_values(data, scale if scaled else None)[2])
    # thresholds on the pairs' own values, and a hair either side of them
    # (a single-precision screen without the recheck's slack loses some of these pairs)
    for r_min in [*values[-120::4], np.nextafter(values[-40], 0), values[-41] + 1e-9, 0.05, 0.0]:
        rows, cols, weights = thresholded_correlations(
            data, r_min, block, scale if scaled else None
        )
        i, j, w = _double_precision_screen(data, r_min, scale if scaled else None)
        got = sorted(zip(rows.tolist(), cols.tolist()))
        assert got == sorted(zip(i.tolist(), j.tolist()))
        assert all(r < c for r, c in got)
        assert r_min == 0 or (5 not in rows and 5 not in cols)
        by_pair = dict(zip(zip(i.tolist(), j.tolist()), w.tolist()))
        assert weights.tolist() == [by_pair[k] for k in zip(rows.tolist(), cols.tolist())]


def test_no_pair_gives_empty_arrays():
    Z = np.random.default_rng(1).standard_normal((50, 10))
    rows, cols, weights = thresholded_correlations(Z - Z.mean(0), 2.0)
    assert rows.shape == cols.shape == weights.shape == (0,)
    assert rows.dtype == np.int64


def test_pair_dots_are_double_precision_dot_products():
    # against exactly rounded sums (math.fsum of the products, each exact to half an ulp):
    # any summation order is within n units of roundoff of the sum of |products|
    rng = np.random.default_rng(2)
    n, p = 1000, 40
    Z = np.asfortranarray(rng.standard_normal((n, p)) * rng.uniform(0.1, 10.0, p))
    i, j = np.triu_indices(p, 1)
    got = pair_dots(Z, i, j)
    for t in range(i.size):
        products = Z[:, i[t]] * Z[:, j[t]]
        exact = math.fsum(products.tolist())
        bound = (n + 1) * 2.0**-53 * np.abs(products).sum()
        assert abs(got[t] - exact) <= bound
        assert got[t] == pytest.approx(exact, rel=1e-12, abs=1e-12 * np.abs(products).sum())
