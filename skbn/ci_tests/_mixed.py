# SPDX-License-Identifier: BSD-3-Clause
"""A conditional-independence test for mixed discrete and continuous data.

The likelihood-ratio test between nested conditional-Gaussian models (bnlearn's ``mi-cg``):
twice the log-likelihood gained by letting ``x`` into the model of ``y`` given the
conditioning set, which is ``2 n`` times the conditional mutual information under the CG model.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from skbn._kernels.gaussian import VARIANCE_FLOOR
from skbn._kernels.mixed import strata_labels, stratified_gaussian_loglik
from skbn.ci_tests._base import (
    BoundCITest,
    CITest,
    chi_square_log_pvalue,
    chi_square_result,
)

__all__ = ["CGMutualInformation"]


class _BoundCGTest(BoundCITest):
    def __init__(self, test, data) -> None:
        super().__init__(test, data)
        self._codes = data.codes
        self._arities = data.arities
        self._values = data.values
        self._discrete = data.discrete
        self._floors = VARIANCE_FLOOR * np.maximum(data.variances, 1e-300)

    def rows_per_cell(self, x, y, cond):
        cells = float(self.data.arities[x]) * float(self.data.arities[y])
        for z in cond:
            cells *= float(self.data.arities[z])
        return self.data.n_samples / cells

    def _labels(self, columns) -> tuple[np.ndarray, int]:
        return strata_labels(self._codes, self._arities, np.asarray(columns, dtype=np.int64))

    def _regression(self, child, regressors, labels, m):
        return stratified_gaussian_loglik(
            self._values,
            labels,
            m,
            child,
            np.asarray(regressors, dtype=np.int64),
            self._floors[child],
        )

    def _continuous_pair(self, x, y, zd, zc):
        """Both continuous: one extra coefficient per stratum of the discrete conditioning."""
        labels, m = self._labels(zd)
        alt, _ = self._regression(y, np.append(zc, x), labels, m)
        null, _ = self._regression(y, zc, labels, m)
        ok = ~np.isnan(alt)
        return 2.0 * float(np.sum(alt[ok] - null[ok])), float(ok.sum())

    def _discrete_continuous(self, d, c, zd, zc):
        """``d`` discrete, ``c`` continuous: a regression of ``c`` per level of ``d`` or not."""
        null_labels, m0 = self._labels(zd)
        alt_labels, m1 = self._labels(np.append(zd, d))
        alt, counts = self._regression(c, zc, alt_labels, m1)
        null, _ = self._regression(c, zc, null_labels, m0)
        parent = np.empty(m1, dtype=np.int64)
        parent[alt_labels] = null_labels
        # a stratum of the conditioning set is used only if every level of d seen in it has
        # enough rows for its own regression; otherwise it drops out of both models
        bad = np.zeros(m0, dtype=bool)
        np.logical_or.at(bad, parent, np.isnan(alt))
        levels = np.bincount(parent, minlength=m0)
        use = ~bad
        gain = np.bincount(parent, weights=np.where(np.isnan(alt), 0.0, alt), minlength=m0)
        statistic = 2.0 * float(np.sum(gain[use] - null[use]))
        dof = float(np.sum((levels[use] - 1) * (len(zc) + 2)))
        return statistic, dof

    def _gaussian_block(self, cont, labels, m):
        """Per-stratum joint Gaussian log-likelihood of ``cont`` (chain of regressions)."""
        total = np.zeros(m)
        for i, j in enumerate(cont):
            ll, _ = self._regression(j, cont[:i], labels, m)
            total += ll
        return total

    def _discrete_pair(self, x, y, zd, zc):
        """Both discrete: the multinomial and the continuous conditioning's Gaussian parts."""
        z_labels, mz = self._labels(zd)
        xz_labels, mxz = self._labels(np.append(zd, x))
        yz_labels, myz = self._labels(np.append(zd, y))
        xyz_labels, mxyz = self._labels(np.concatenate((zd, [x, y])))
        nz = np.bincount(z_labels, minlength=mz).astype(float)
        nxz = np.bincount(xz_labels, minlength=mxz).astype(float)
        nyz = np.bincount(yz_labels, minlength=myz).astype(float)
        nxyz = np.bincount(xyz_labels, minlength=mxyz).astype(float)

        def to_z(labels, m):
            out = np.empty(m, dtype=np.int64)
            out[labels] = z_labels
            return out

        zx, zy, zxy = to_z(xz_labels, mxz), to_z(yz_labels, myz), to_z(xyz_labels, mxyz)
        # multinomial log-likelihood ratio per stratum of z: sum n log n over the four tables
        nlogn = special.xlogy
        discrete = (
            np.bincount(zxy, weights=nlogn(nxyz, nxyz), minlength=mz)
            + nlogn(nz, nz)
            - np.bincount(zx, weights=nlogn(nxz, nxz), minlength=mz)
            - np.bincount(zy, weights=nlogn(nyz, nyz), minlength=mz)
        )
        cells = np.bincount(zxy, minlength=mz)
        rows_x = np.bincount(zx, minlength=mz)
        rows_y = np.bincount(zy, minlength=mz)
        dof_discrete = (rows_x - 1) * (rows_y - 1)
        k = len(zc)
        if k == 0:
            use = np.ones(mz, dtype=bool)
            gauss = np.zeros(mz)
            dof_gauss = np.zeros(mz)
        else:
            parts = []
            bad = np.zeros(mz, dtype=bool)
            for labels, m, to in (
                (xyz_labels, mxyz, zxy),
                (z_labels, mz, np.arange(mz)),
                (xz_labels, mxz, zx),
                (yz_labels, myz, zy),
            ):
                ll = self._gaussian_block(zc, labels, m)
                np.logical_or.at(bad, to, np.isnan(ll))
                parts.append(np.bincount(to, weights=np.where(np.isnan(ll), 0.0, ll), minlength=mz))
            use = ~bad
            gauss = parts[0] + parts[1] - parts[2] - parts[3]
            dof_gauss = (cells + 1 - rows_x - rows_y) * (k * (k + 3) / 2)
        statistic = 2.0 * float(np.sum((discrete + gauss)[use]))
        dof = float(np.sum((dof_discrete + dof_gauss)[use]))
        return statistic, dof

    def _statistic(self, x, y, cond):
        cond = np.asarray(cond, dtype=np.int64)
        zd = cond[self._discrete[cond]]
        zc = cond[~self._discrete[cond]]
        dx, dy = bool(self._discrete[x]), bool(self._discrete[y])
        if dx and dy:
            statistic, dof = self._discrete_pair(x, y, zd, zc)
        elif dx:
            statistic, dof = self._discrete_continuous(x, y, zd, zc)
        elif dy:
            statistic, dof = self._discrete_continuous(y, x, zd, zc)
        else:
            statistic, dof = self._continuous_pair(x, y, zd, zc)
        return max(statistic, 0.0), dof

    def _test(self, x, y, cond):
        return chi_square_result(*self._statistic(x, y, cond))

    def _log_pvalue(self, x, y, cond):
        return chi_square_log_pvalue(*self._statistic(x, y, cond))


class CGMutualInformation(CITest):
    """Likelihood-ratio test of conditional independence for mixed data (bnlearn's ``mi-cg``).

    The statistic is twice the log-likelihood that conditional-Gaussian models gain when
    ``x`` and ``y`` may depend on each other given the conditioning set ``Z`` (discrete part
    ``Zd``, continuous part ``Zc``), compared with a chi-square distribution:

    * ``x``, ``y`` continuous: the regression of ``y`` on ``Zc`` in every stratum of ``Zd``,
      with and without ``x``; one degree of freedom per stratum (a partial correlation per
      stratum).
    * ``x`` discrete, ``y`` continuous: the regression of ``y`` on ``Zc`` per stratum of
      ``Zd``, or per stratum of ``Zd`` and level of ``x``; ``(levels - 1)(|Zc| + 2)`` degrees
      of freedom per stratum.
    * both discrete: the G^2 statistic of ``x`` and ``y`` given ``Zd``, plus the gain of the
      joint Gaussian model of ``Zc`` per cell of ``(x, y, Zd)`` over the models per cell of
      ``(x, Zd)``, ``(y, Zd)`` and ``Zd`` -- the CG mutual information by its chain rule.
      Its degrees of freedom are the nested models' difference, ``(r_x - 1)(r_y - 1)
      (1 + k (k + 3) / 2)`` per stratum with ``k = |Zc|``; bnlearn counts this case
      differently.

    Degrees of freedom count the levels and cells seen in each stratum (as the ``adjust_df``
    discrete tests do). A stratum of ``Zd`` with a cell of too few rows for its regression
    (at most one more than the regressors) is left out of both models; with no stratum left
    the p-value is 1. Variances are maximum-likelihood ones, as in the CG scores.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> g = rng.integers(0, 2, 500)
    >>> x = g + rng.normal(size=500)
    >>> X = pd.DataFrame({"g": g.astype(str), "x": x, "y": x + rng.normal(size=500)})
    >>> test = CGMutualInformation().bind(X)
    >>> test.test("g", "y").pvalue < 1e-6, test.test("g", "y", ["x"]).pvalue > 0.01
    (True, True)
    """

    data_kind = "mixed"

    def _bind(self, data):
        return _BoundCGTest(self, data)
