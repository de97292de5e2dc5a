# SPDX-License-Identifier: BSD-3-Clause
import math

import numpy as np
import pytest

from skbn._kernels.screen import pair_dots
from skbn.data import _screen, thresholded_correlations


def _pair_values(Z, scale):
    """Every pair's value, each one dot product in double precision (the recheck's own
    kernel, whose accuracy ``test_pair_dots_are_double_precision_dot_products`` checks)."""
    n, p = Z.shape
    i, j = np.triu_indices(p, 1)
    values = np.abs(pair_dots(np.asfortranarray(Z), np.zeros(p), i, j)) / n
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


@pytest.mark.parametrize("precision", ["single", "double"])
def test_means_centre_the_columns_as_they_are_read(precision):
    # far from zero, as raw data is: the screen of X with its means is that of X - means,
    # pair for pair and value for value (the same differences, computed as the tiles and
    # the recheck read them)
    rng = np.random.default_rng(4)
    n, p = 300, 90
    X = rng.standard_normal((n, p))
    X[:, 1::2] += 0.4 * X[:, ::2]
    X = np.asfortranarray(X * rng.uniform(0.5, 3.0, p) + rng.uniform(-100, 100, p))
    means = X.mean(axis=0)
    Z = np.asfortranarray(X - means)
    sd = np.sqrt((Z**2).mean(axis=0))
    for r_min in (0.15, 0.3):
        found = thresholded_correlations(X, r_min, 16, 1.0 / sd, precision, means=means)
        reference = thresholded_correlations(Z, r_min, 16, 1.0 / sd, precision)
        assert found[0].size > 20
        for a, b in zip(found, reference):
            np.testing.assert_array_equal(a, b)


def test_no_pair_gives_empty_arrays():
    Z = np.random.default_rng(1).standard_normal((50, 10))
    rows, cols, weights = thresholded_correlations(Z - Z.mean(0), 2.0)
    assert rows.shape == cols.shape == weights.shape == (0,)
    assert rows.dtype == np.int64


def test_pair_dots_are_double_precision_dot_products():
    # against exactly rounded sums (math.fsum of the products, each exact to half an ulp):
    # any summation order is within n units of roundoff of the sum of |products|; the
    # columns are centred as they are read, the same differences as a centred copy's
    rng = np.random.default_rng(2)
    n, p = 1000, 40
    X = np.asfortranarray(rng.standard_normal((n, p)) * rng.uniform(0.1, 10.0, p) + 50.0)
    means = X.mean(axis=0)
    Z = X - means
    i, j = np.triu_indices(p, 1)
    got = pair_dots(X, means, i, j)
    for t in range(i.size):
        products = Z[:, i[t]] * Z[:, j[t]]
        exact = math.fsum(products.tolist())
        bound = (n + 1) * 2.0**-53 * np.abs(products).sum()
        assert abs(got[t] - exact) <= bound
        assert got[t] == pytest.approx(exact, rel=1e-12, abs=1e-12 * np.abs(products).sum())


def _to_bfloat16_bits(x):
    """Round float32 values to bfloat16 (to nearest, ties to even); their upper 16 bits."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint32)


def _emulated_bfloat16():
    """bfloat16 products as an AMX tile computes them: inputs rounded to bfloat16, products
    summed in single precision (numpy's float32 matrix product), the sum rounded to
    bfloat16. Slower than the real thing; lets the floor and the bit comparison be tested
    on any machine."""

    def convert(x):
        return (_to_bfloat16_bits(x) << 16).view(np.float32)

    def multiply(a, b):
        return _to_bfloat16_bits(a @ b).astype(np.uint16).view(np.int16)

    return convert, multiply


def _near_threshold_data():
    rng = np.random.default_rng(3)
    n, p = 400, 120
    Z = rng.standard_normal((n, p))
    Z[:, 1::2] = Z[:, ::2] * 0.2 + rng.standard_normal((n, p // 2))
    Z -= Z.mean(axis=0)
    sd = np.sqrt((Z**2).mean(axis=0))
    return Z, 1.0 / sd


@pytest.mark.parametrize("block", [16, 128])
def test_bfloat16_tiles_keep_the_double_precision_pairs(monkeypatch, block):
    # bfloat16 keeps 8 significant bits, so products are off by about 0.4%: pairs within
    # that of the threshold must all reach the recheck, found by the floor's error bound
    monkeypatch.setattr(_screen, "bfloat16_product", _emulated_bfloat16)
    Z, scale = _near_threshold_data()
    values = np.sort(_pair_values(Z, scale)[2])
    thresholds = [*values[-200::7], values[-60] * (1 + 2**-9), values[-80] * (1 - 2**-9)]
    for r_min in [*thresholds, 0.1, 0.05]:
        rows, cols, weights = thresholded_correlations(Z, r_min, block, scale, "bfloat16")
        i, j, w = _double_precision_screen(Z, r_min, scale)
        assert sorted(zip(rows.tolist(), cols.tolist())) == sorted(zip(i.tolist(), j.tolist()))
        by_pair = dict(zip(zip(i.tolist(), j.tolist()), w.tolist()))
        assert weights.tolist() == [by_pair[k] for k in zip(rows.tolist(), cols.tolist())]


def test_bfloat16_floor_is_needed():
    # without its slack (floor = the threshold) the bfloat16 tiles lose pairs: the test
    # above would catch a floor that is too high
    convert, multiply = _emulated_bfloat16()
    Z, scale = _near_threshold_data()
    i, j, values = _pair_values(Z, scale)
    factor = scale / np.sqrt(Z.shape[0])
    A = (Z * factor).astype(np.float32)
    bits = multiply(convert(np.ascontiguousarray(A.T)), convert(np.ascontiguousarray(A.T)).T)
    rounded = (bits[i, j].astype(np.uint16).astype(np.uint32) << 16).view(np.float32)
    lost = np.abs(rounded) < values  # pairs whose bfloat16 value falls below their own
    assert lost.any()
    floor = _screen.bfloat16_floor(1.0, Z.shape[0], 1.0)
    assert 0.99 > floor > 0.98  # about 1.2% of the threshold, for n = 400


def test_bfloat16_bits_are_those_of_the_least_number_at_the_floor():
    rng = np.random.default_rng(4)
    for floor in [0.0, 2.0**-40, 0.08, 0.1171875, 0.5, 0.999, *rng.uniform(0, 1, 50)]:
        bits = _screen.bfloat16_bits(float(floor))
        value = np.array([bits << 16], dtype=np.uint32).view(np.float32)[0]
        below = np.array([max(bits - 1, 0) << 16], dtype=np.uint32).view(np.float32)[0]
        assert value >= floor and (bits == 0 or below < floor)


def test_bfloat16_screen_without_amx_is_refused(monkeypatch):
    monkeypatch.setattr(_screen, "bfloat16_product", lambda: None)
    Z, scale = _near_threshold_data()
    with pytest.raises(ValueError, match="PyTorch"):
        thresholded_correlations(Z, 0.1, 64, scale, "bfloat16")
    with pytest.raises(ValueError, match="precision must be"):
        thresholded_correlations(Z, 0.1, 64, scale, "half")
    monkeypatch.setattr(_screen, "int8_product", lambda: None)
    # "auto" falls back to single precision: the double-precision pairs
    rows, _, _ = thresholded_correlations(Z, 0.1, 64, scale)
    assert rows.size == _double_precision_screen(Z, 0.1, scale)[0].size


def test_bfloat16_products_on_amx_keep_the_double_precision_pairs():
    # the real products (PyTorch on AMX tiles) where this machine has them
    if _screen.bfloat16_product() is None:
        pytest.skip("needs PyTorch and a CPU with AMX tiles")
    Z, scale = _near_threshold_data()
    values = np.sort(_pair_values(Z, scale)[2])
    for r_min in [*values[-200::7], 0.1]:
        rows, cols, _ = thresholded_correlations(Z, r_min, 64, scale, "bfloat16")
        i, j, _ = _double_precision_screen(Z, r_min, scale)
        assert sorted(zip(rows.tolist(), cols.tolist())) == sorted(zip(i.tolist(), j.tolist()))


def _emulated_int8():
    """int8 products as oneDNN computes them: exact integer sums of the bytes (less the
    unsigned operand's zero point), scaled in single precision."""

    def pack(w):
        assert w.dtype == np.int8 and np.abs(w.astype(np.int64)).max(initial=0) <= 127
        return w.astype(np.int64)

    def multiply(a, scale, packed, scales):
        assert a.dtype == np.uint8 and a.min(initial=1) >= 1 and a.max(initial=1) <= 127
        sums = (a.astype(np.int64) - _screen._A_ZERO) @ packed.T
        both = np.float32(scale) * scales.astype(np.float32)
        return sums.astype(np.float32) * both[None, :]

    return pack, multiply


@pytest.mark.parametrize("block", [16, 128])
def test_int8_tiles_keep_the_double_precision_pairs(monkeypatch, block):
    # 8-bit columns and 7-bit blocks are off by a few percent of a correlation: pairs that
    # close to the threshold must all reach the recheck, found by the floor's error bound
    monkeypatch.setattr(_screen, "int8_product", _emulated_int8)
    Z, scale = _near_threshold_data()
    Z[:, 7] = 0.0  # a constant column: its scale is 1, its bytes 0
    values = np.sort(_pair_values(Z, scale)[2])
    thresholds = [*values[-200::7], values[-60] * (1 + 2**-9), values[-80] * (1 - 2**-9)]
    for r_min in [*thresholds, 0.1, 0.05]:
        rows, cols, weights = thresholded_correlations(Z, r_min, block, scale, "int8")
        i, j, w = _double_precision_screen(Z, r_min, scale)
        assert sorted(zip(rows.tolist(), cols.tolist())) == sorted(zip(i.tolist(), j.tolist()))
        by_pair = dict(zip(zip(i.tolist(), j.tolist()), w.tolist()))
        assert weights.tolist() == [by_pair[k] for k in zip(rows.tolist(), cols.tolist())]


def test_int8_floor_is_needed_and_holds():
    # the rounded columns' products miss some pairs at the threshold itself, and the floor
    # is below every pair's rounded product (the bound the test above relies on)
    pack, multiply = _emulated_int8()
    Z, scale = _near_threshold_data()
    n = Z.shape[0]
    U = Z * (scale / np.sqrt(n))
    w, scales, b_errors, b_norms = _screen._int8_columns(U)
    a, a_scale, a_errors, a_norms = _screen._uint7_block(U)
    C = multiply(a, a_scale, pack(w), scales).astype(np.float64)
    i, j, values = _pair_values(Z, scale)
    rounded = np.abs(C[i, j])
    assert (rounded < values).any()
    for r_min in np.sort(values)[-300::10]:
        floor = _screen.int8_floor(r_min, a_errors, a_norms, b_errors, b_norms)
        assert 0.6 * r_min < floor < r_min
        assert np.all(rounded[values >= r_min] >= floor)
    # the rounding errors are those of the bytes returned
    step = scales.astype(np.float64)
    np.testing.assert_allclose(
        b_errors, np.sqrt(((U - w.T.astype(np.float64) * step) ** 2).sum(axis=0)), rtol=1e-12
    )
    q = a.T.astype(np.float64) - _screen._A_ZERO
    np.testing.assert_allclose(
        a_errors, np.sqrt(((U - q * a_scale) ** 2).sum(axis=0)), rtol=1e-12, atol=1e-300
    )


def test_int8_scales_are_single_precision_and_never_overflow():
    rng = np.random.default_rng(5)
    top = np.concatenate([rng.uniform(0, 10, 500), [0.0, 127.0, 1e-30, 3.4e30]])
    for levels in (63, 127):
        step = _screen._single_scale(top, levels)
        assert step.dtype == np.float32 and np.all(step > 0)
        assert np.all(top / step.astype(np.float64) <= levels)
        # the least such single-precision step, one ulp either way
        smaller = np.nextafter(step, np.float32(0)).astype(np.float64)
        assert np.all((top == 0) | (top / smaller > levels))


@pytest.mark.parametrize("share, used", [(0.5, True), (0.999, False)])
def test_auto_uses_int8_products_while_their_floor_keeps_the_share(monkeypatch, share, used):
    # without AMX, "auto" multiplies in int8 from BF16_MIN_COLUMNS columns unless the floor
    # would fall below the share of the threshold; the pairs are the same either way
    calls = []
    pack, multiply = _emulated_int8()

    def counted():
        return pack, lambda *args: calls.append(1) or multiply(*args)

    monkeypatch.setattr(_screen, "bfloat16_product", lambda: None)
    monkeypatch.setattr(_screen, "int8_product", counted)
    monkeypatch.setattr(_screen, "BF16_MIN_COLUMNS", 100)
    monkeypatch.setattr(_screen, "_INT8_MIN_SHARE", share)
    Z, scale = _near_threshold_data()
    found = thresholded_correlations(Z, 0.15, None, scale)
    assert bool(calls) == used
    for a, b in zip(found, _double_precision_screen(Z, 0.15, scale)):
        np.testing.assert_array_equal(a, b)


def test_int8_screen_without_pytorch_is_refused(monkeypatch):
    monkeypatch.setattr(_screen, "int8_product", lambda: None)
    Z, scale = _near_threshold_data()
    with pytest.raises(ValueError, match="precision='int8' needs PyTorch"):
        thresholded_correlations(Z, 0.1, 64, scale, "int8")


def test_int8_products_of_pytorch_keep_the_double_precision_pairs():
    # the real products (PyTorch's oneDNN) where this machine has them
    if _screen.int8_product() is None:
        pytest.skip("needs PyTorch with oneDNN on a CPU with AVX2")
    pack, multiply = _screen.int8_product()
    emulated_pack, emulated = _emulated_int8()
    rng = np.random.default_rng(6)
    a = rng.integers(1, 128, (40, 300)).astype(np.uint8)
    w = rng.integers(-127, 128, (50, 300)).astype(np.int8)
    scales = rng.uniform(1e-3, 2e-3, 50).astype(np.float32)
    got = multiply(a, 0.0023, pack(w), scales)
    want = emulated(a, 0.0023, emulated_pack(w), scales)
    np.testing.assert_allclose(got, want, rtol=4 * 2.0**-24)
    Z, scale = _near_threshold_data()
    values = np.sort(_pair_values(Z, scale)[2])
    for r_min in [*values[-200::7], 0.1]:
        rows, cols, _ = thresholded_correlations(Z, r_min, 64, scale, "int8")
        i, j, _ = _double_precision_screen(Z, r_min, scale)
        assert sorted(zip(rows.tolist(), cols.tolist())) == sorted(zip(i.tolist(), j.tolist()))


def test_pairs_come_in_the_same_order_whatever_the_tiles(monkeypatch):
    # ordered by row then column, so a consumer sees the same arrays for any block size
    # and any precision (single-precision or bfloat16 tiles)
    Z, scale = _near_threshold_data()
    reference = thresholded_correlations(Z, 0.1, 7, scale, "double")
    assert np.all(np.diff(reference[0] * Z.shape[1] + reference[1]) > 0)
    monkeypatch.setattr(_screen, "bfloat16_product", _emulated_bfloat16)
    monkeypatch.setattr(_screen, "int8_product", _emulated_int8)
    for block, precision in [
        (16, "single"),
        (128, "single"),
        (16, "bfloat16"),
        (None, "bfloat16"),
        (16, "int8"),
        (None, "int8"),
    ]:
        found = thresholded_correlations(Z, 0.1, block, scale, precision)
        for a, b in zip(found, reference):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("precision", ["single", "int8"])
def test_screen_blocks_resume_where_they_stopped(monkeypatch, precision):
    # the blocks from any start are those of the whole screen from there: a screen saved
    # block by block and resumed gives the pairs of one call
    monkeypatch.setattr(_screen, "int8_product", _emulated_int8)
    Z, scale = _near_threshold_data()
    whole = thresholded_correlations(Z, 0.1, 16, scale, precision)
    blocks = list(_screen.screen_blocks(Z, 0.1, 16, scale, precision))
    assert [b[0] for b in blocks] == list(range(0, Z.shape[1], 16))
    resumed = blocks[:3] + list(_screen.screen_blocks(Z, 0.1, 16, scale, precision, start=48))
    rows, cols, values = (np.concatenate([b[k] for b in resumed]) for k in (2, 3, 4))
    order = np.lexsort((cols, rows))
    for a, b in zip((rows[order], cols[order], values[order]), whole):
        np.testing.assert_array_equal(a, b)
    for a0, a1, rows, _, _ in blocks:
        assert np.all((rows >= a0) & (rows < a1))
    with pytest.raises(ValueError, match="start must be a non-negative multiple"):
        next(_screen.screen_blocks(Z, 0.1, 16, scale, precision, start=20))


def _duplicated_column_data():
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(100, 4))
    Z[:, 1] = Z[:, 0]
    return (Z - Z.mean(axis=0)) / Z.std(axis=0)


def test_missing_cell_is_refused_naming_its_column():
    # one NaN once made every tile's floor NaN: empty arrays, the unrelated pair (0, 1) lost
    Z = _duplicated_column_data()
    rows, cols, values = thresholded_correlations(Z, 0.5)
    assert (rows.tolist(), cols.tolist()) == ([0], [1])
    Z[7, 3] = np.nan
    with pytest.raises(ValueError, match="Column 3 holds NaN"):
        thresholded_correlations(Z, 0.5)


@pytest.mark.parametrize("block", [0, -5, 2.5, True])
def test_block_must_be_a_positive_integer(block):
    with pytest.raises(ValueError, match="block must be a positive integer"):
        thresholded_correlations(_duplicated_column_data(), 0.5, block=block)
