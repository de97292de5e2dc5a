# SPDX-License-Identifier: BSD-3-Clause
"""Discrete CI tests: Pearson X^2, likelihood-ratio G^2 and shrinkage mutual information."""

from __future__ import annotations

import numpy as np

from skbn._kernels.ci import discrete_ci_statistics, discrete_ci_statistics_batch
from skbn.ci_tests._base import (
    BoundCITest,
    CITest,
    chi_square_log_pvalue,
    chi_square_result,
)

__all__ = ["ChiSquare", "GSquare", "ShrinkageMI"]

_X2, _G2, _DF_ADJ, _SHRINK, _DF_CLASSIC = 0, 1, 2, 3, 4

#: Largest joint table of the two tested variables (``r_x * r_y`` cells, 8 bytes each).
MAX_PAIR_CELLS = 2**24


class _BoundDiscrete(BoundCITest):
    def __init__(self, test, data, which: int, adjust_df: bool) -> None:
        super().__init__(test, data)
        self._which = which
        self._adjust = adjust_df
        self._codes = data.codes
        self._arities = data.arities

    def rows_per_cell(self, x, y, cond):
        cells = float(self.data.arities[x]) * float(self.data.arities[y])
        for z in cond:
            cells *= float(self.data.arities[z])
        return self.data.n_samples / cells

    def _statistic(self, x, y, cond):
        self._check_cells(x, y)
        out = discrete_ci_statistics(self._codes, self._arities, x, y, cond)
        return float(out[self._which]), float(out[_DF_ADJ] if self._adjust else out[_DF_CLASSIC])

    def _check_cells(self, x, y):
        cells = int(self._arities[x]) * int(self._arities[y])
        if cells > MAX_PAIR_CELLS:
            names = self.data.names
            raise ValueError(
                f"Testing {names[x]!r} ({self._arities[x]} states) against {names[y]!r} "
                f"({self._arities[y]} states) needs a {cells:,}-cell table, more than the "
                f"{MAX_PAIR_CELLS:,} a discrete test holds. Is one of them an identifier? "
                "Drop it, or merge its rare states."
            )

    def _test(self, x, y, cond):
        return chi_square_result(*self._statistic(x, y, cond))

    def _log_pvalue(self, x, y, cond):
        return chi_square_log_pvalue(*self._statistic(x, y, cond))

    def _log_pvalues(self, xs, y, cond):
        for x in xs:
            self._check_cells(int(x), y)
        out = discrete_ci_statistics_batch(self._codes, self._arities, xs, y, cond)
        dof = out[:, _DF_ADJ] if self._adjust else out[:, _DF_CLASSIC]
        return np.array([chi_square_log_pvalue(s, d) for s, d in zip(out[:, self._which], dof)])


_DF_DOC = """adjust_df : bool, default=True
        Degrees of freedom adjusted for empty margins, as bnlearn's "adf" tests: the sum over
        the strata that occur of ``(non-empty rows - 1) * (non-empty columns - 1)``. With
        False, the classic ``(r_x - 1)(r_y - 1) q`` over all ``q`` configurations. With no
        degree of freedom left the p-value is 1 (no evidence of dependence)."""


class ChiSquare(CITest):
    """Pearson's chi-square test of conditional independence.

    ``X^2 = sum_z sum_ab (n_abz - E_abz)^2 / E_abz`` with ``E_abz = n_az n_bz / n_z``,
    compared with a chi-square distribution.

    Parameters
    ----------
    {df}

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> X = load_network("asia").sample(2000, random_state=0)
    >>> test = ChiSquare().bind(X)
    >>> test.test("smoke", "dysp").pvalue < 0.01
    True
    >>> test.test("smoke", "dysp", ["bronc", "either"]).pvalue > 0.01
    True
    """

    def __init__(self, adjust_df: bool = True) -> None:
        self.adjust_df = adjust_df

    _parameter_constraints = {"adjust_df": ["boolean"]}

    def _bind(self, data):
        return _BoundDiscrete(self, data, _X2, self.adjust_df)


class GSquare(CITest):
    """Likelihood-ratio (G^2) test: ``G^2 = 2 N MI(x; y | S)``, chi-square distributed.

    Parameters
    ----------
    {df}

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1] * 25, "b": [0, 0, 1, 1] * 25})
    >>> result = GSquare().bind(X).test("a", "b")  # b is a copy of a
    >>> round(result.statistic, 4), result.pvalue < 1e-20  # 2 * 100 * log(2)
    (138.6294, True)
    """

    def __init__(self, adjust_df: bool = True) -> None:
        self.adjust_df = adjust_df

    _parameter_constraints = {"adjust_df": ["boolean"]}

    def _bind(self, data):
        return _BoundDiscrete(self, data, _G2, self.adjust_df)


class ShrinkageMI(CITest):
    """Shrinkage mutual-information test (bnlearn's ``mi-sh``): ``2 N MI_shrink``.

    The joint table of ``(x, y, S)`` is shrunk towards the uniform table with the
    James-Stein intensity of Hausser & Strimmer,
    ``lambda = (1 - sum p^2) / ((n - 1) sum (1/V - p)^2)`` over all ``V`` cells (clipped to
    [0, 1]); the margins use the same intensity, so they are the margins of the shrunk table.
    Configurations of ``S`` that never occur contribute nothing.

    Parameters
    ----------
    {df}

    References
    ----------
    J. Hausser and K. Strimmer, "Entropy inference and the James-Stein estimator", JMLR 10,
    2009. M. Scutari and A. Brogini, "Bayesian network structure learning with permutation
    tests", Communications in Statistics 41, 2012.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> X = load_network("asia").sample(2000, random_state=0)
    >>> ShrinkageMI().bind(X).test("smoke", "dysp", ["bronc", "either"]).pvalue > 0.01
    True
    """

    def __init__(self, adjust_df: bool = True) -> None:
        self.adjust_df = adjust_df

    _parameter_constraints = {"adjust_df": ["boolean"]}

    def _bind(self, data):
        return _BoundDiscrete(self, data, _SHRINK, self.adjust_df)


for _cls in (ChiSquare, GSquare, ShrinkageMI):
    _cls.__doc__ = _cls.__doc__.replace("{df}", _DF_DOC)
