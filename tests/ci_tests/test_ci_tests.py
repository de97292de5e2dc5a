# SPDX-License-Identifier: BSD-3-Clause
import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from scipy.stats import chi2_contingency

from skbn.ci_tests import ChiSquare, FisherZ, GSquare, ShrinkageMI
from skbn.datasets import load_network


@pytest.fixture(scope="module")
def alarm():
    return load_network("alarm").sample(3000, random_state=0)


def _stratified(X, x, y, cond):
    """X^2, G^2 and adjusted df by looping over the strata with scipy (independent route)."""
    x2 = g2 = 0.0
    dof = 0
    groups = [((), X)] if not cond else X.groupby(cond, observed=True)
    for _, part in groups:
        table = pd.crosstab(part[x], part[y]).to_numpy()
        if table.shape[0] < 2 or table.shape[1] < 2:
            continue
        x2 += chi2_contingency(table, correction=False)[0]
        g2 += chi2_contingency(table, correction=False, lambda_="log-likelihood")[0]
        dof += (table.shape[0] - 1) * (table.shape[1] - 1)
    return x2, g2, dof


@pytest.mark.slow
@pytest.mark.parametrize("x, y", [("HR", "CO"), ("CVP", "PCWP"), ("SAO2", "PVSAT")])
def test_unconditional_statistics_equal_scipy(alarm, x, y):
    table = pd.crosstab(alarm[x], alarm[y]).to_numpy()
    x2, p, dof, _ = chi2_contingency(table, correction=False)
    ours = ChiSquare().bind(alarm).test(x, y)
    assert ours.statistic == pytest.approx(x2) and ours.pvalue == pytest.approx(p)
    assert ours.dof == dof
    g2, pg, _, _ = chi2_contingency(table, correction=False, lambda_="log-likelihood")
    ours = GSquare().bind(alarm).test(x, y)
    assert ours.statistic == pytest.approx(g2) and ours.pvalue == pytest.approx(pg)


@pytest.mark.parametrize("cond", [["HR"], ["HR", "TPR"], ["LVFAILURE", "HYPOVOLEMIA", "HR"]])
def test_conditional_statistics_equal_stratified_scipy(alarm, cond):
    x2, g2, dof = _stratified(alarm, "CO", "BP", cond)
    chi = ChiSquare().bind(alarm).test("CO", "BP", cond)
    g = GSquare().bind(alarm).test("CO", "BP", cond)
    assert chi.statistic == pytest.approx(x2) and g.statistic == pytest.approx(g2)
    assert chi.dof == g.dof == dof
    assert chi.pvalue == pytest.approx(stats.chi2.sf(x2, dof))


def test_classic_degrees_of_freedom_count_every_configuration(alarm):
    res = ChiSquare(adjust_df=False).bind(alarm).test("CO", "BP", ["HR", "TPR"])
    assert res.dof == (3 - 1) * (3 - 1) * 3 * 3


def test_no_degrees_of_freedom_means_no_evidence():
    X = pd.DataFrame({"a": [0, 0, 0, 1], "b": [1, 1, 1, 1], "c": [0, 1, 0, 1]})
    res = GSquare().bind(X).test("a", "b")
    assert res.dof == 0 and res.pvalue == 1.0


@pytest.mark.filterwarnings("ignore::skbn.data.DataKindWarning")  # many-state codes, on purpose
def test_sorted_and_dense_counting_agree():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 30, size=(400, 5)))
    cond = [2, 3, 4]  # 27,000 strata x 900 cells: the sorted path
    res = GSquare().bind(X).test(0, 1, cond)
    _, g2, dof = _stratified(X.set_axis(list("abcde"), axis=1), "a", "b", list("cde"))
    assert res.statistic == pytest.approx(g2) and res.dof == dof


def _shrinkage_reference(X, x, y, cond):
    """Shrinkage MI over the full table, every cell enumerated (Hausser & Strimmer)."""
    levels = [sorted(X[c].unique()) for c in [x, y] + cond]
    cells = list(itertools.product(*levels))
    n = len(X)
    counts = X.groupby([x, y] + cond, observed=True).size()
    p_hat = np.array([counts.get(cell, 0) / n for cell in cells])
    v = len(cells)
    lam = (1 - (p_hat**2).sum()) / ((n - 1) * ((1 / v - p_hat) ** 2).sum())
    lam = min(max(lam, 0.0), 1.0)
    p = lam / v + (1 - lam) * p_hat
    joint = dict(zip(cells, p))
    rx, ry = len(levels[0]), len(levels[1])
    marg_xz, marg_yz, marg_z = {}, {}, {}
    for (a, b, *z), value in joint.items():
        marg_xz[(a, *z)] = marg_xz.get((a, *z), 0) + value
        marg_yz[(b, *z)] = marg_yz.get((b, *z), 0) + value
        marg_z[tuple(z)] = marg_z.get(tuple(z), 0) + value
    mi = sum(
        value * np.log(value * marg_z[tuple(z)] / (marg_xz[(a, *z)] * marg_yz[(b, *z)]))
        for (a, b, *z), value in joint.items()
    )
    return 2 * n * mi, lam, (rx - 1) * (ry - 1) * int(np.prod([len(v) for v in levels[2:]]))


@pytest.mark.parametrize("cond", [[], ["HR"], ["HR", "TPR"]])
def test_shrinkage_mi_equals_a_full_table_computation(alarm, cond):
    small = alarm.iloc[:400]  # small n: shrinkage is visible and some strata are empty
    statistic, lam, dof = _shrinkage_reference(small, "CO", "BP", cond)
    assert 0 < lam < 1
    res = ShrinkageMI(adjust_df=False).bind(small).test("CO", "BP", cond)
    assert res.statistic == pytest.approx(statistic, rel=1e-9)
    assert res.dof == dof


def test_fisher_z_equals_regression_residual_partial_correlation():
    rng = np.random.default_rng(1)
    Z = rng.normal(size=(500, 5))
    Z[:, 1] += Z[:, 0]
    Z[:, 2] += Z[:, 1] - 0.5 * Z[:, 3]
    Z[:, 4] += 0.3 * Z[:, 2]
    for x, y, cond in [(0, 2, [1]), (0, 4, [1, 3]), (3, 4, []), (1, 4, [0, 2, 3])]:
        design = np.column_stack([np.ones(500)] + [Z[:, c] for c in cond])
        rx = Z[:, x] - design @ np.linalg.lstsq(design, Z[:, x], rcond=None)[0]
        ry = Z[:, y] - design @ np.linalg.lstsq(design, Z[:, y], rcond=None)[0]
        rho = np.corrcoef(rx, ry)[0, 1]
        z = np.sqrt(500 - len(cond) - 3) * np.arctanh(rho)
        res = FisherZ().bind(Z).test(x, y, cond)
        assert res.statistic == pytest.approx(z, rel=1e-9)
        assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)))
        assert res.dof == 500 - len(cond) - 3


def test_errors_are_clear(alarm):
    with pytest.raises(ValueError, match="distinct"):
        ChiSquare().bind(alarm).test("HR", "HR")
    with pytest.raises(ValueError, match="'nope' is not a variable"):
        ChiSquare().bind(alarm).test("HR", "nope")
    with pytest.raises(ValueError, match="FisherZ needs gaussian data"):
        FisherZ().bind(alarm)
    with pytest.raises(ValueError, match="ChiSquare needs discrete data"):
        ChiSquare().bind(np.random.default_rng(0).normal(size=(10, 2)))


def test_many_conditioning_variables_do_not_overflow_the_stratum_index():
    # 11 conditioning variables of 50 categories: 50**11 strata times the 50 x 50 cells of
    # (x, y) is far beyond int64; rows come from 40 configurations, so strata hold many rows
    rng = np.random.default_rng(0)
    n = 3000
    cond = [f"z{j}" for j in range(11)]
    patterns = rng.integers(0, 50, size=(40, 11))
    Z = patterns[rng.integers(0, 40, size=n)]
    x = (Z[:, 0] + rng.integers(0, 3, size=n)) % 50
    y = (x + rng.integers(0, 3, size=n)) % 50
    X = pd.DataFrame(Z, columns=cond).assign(x=x, y=y)
    # every column keeps all 50 states, so the product of arities is 50**11
    X = X.astype(pd.CategoricalDtype(range(50)))
    x2, g2, dof = _stratified(X, "x", "y", cond)
    chi = ChiSquare().bind(X).test("x", "y", cond)
    g = GSquare().bind(X).test("x", "y", cond)
    assert chi.statistic == pytest.approx(x2) and g.statistic == pytest.approx(g2)
    assert chi.dof == g.dof == dof > 0
    classic = GSquare(adjust_df=False).bind(X).test("x", "y", cond)
    assert classic.dof == pytest.approx(49 * 49 * 50.0**11)


@pytest.mark.filterwarnings("ignore::skbn.data.DataKindWarning")  # identifiers, on purpose
def test_a_pair_of_identifier_columns_is_refused_before_counting():
    n = 6000
    ids = [f"id{i}" for i in range(n)]
    X = pd.DataFrame({"a": ids, "b": ids[::-1], "c": ["u", "v"] * (n // 2)})
    # 6,000 x 6,000 states: a 36-million-cell table would take 288 MB per stratum
    with pytest.raises(ValueError, match=r"'a' \(6000 states\) against 'b'.*identifier"):
        GSquare().bind(X).test("a", "b")
    assert GSquare().bind(X).test("a", "c").dof >= 0  # small tables are still tested
