# SPDX-License-Identifier: BSD-3-Clause
"""Testwise deletion: each CI test on the rows that observe its variables."""

from __future__ import annotations

import numpy as np

from skbn.ci_tests._base import BoundCITest, CIResult, CITest

__all__ = ["TestwiseDeletion"]


class TestwiseDeletion(BoundCITest):
    """A CI test on data with missing values, each test on its own complete rows.

    What :meth:`CITest.bind <skbn.ci_tests.CITest.bind>` returns for incomplete data: the
    test of ``x`` and ``y`` given ``S`` runs on the rows that observe ``x``, ``y`` and every
    member of ``S`` (testwise, or pairwise, deletion -- Tetrad's and bnlearn's treatment of
    incomplete data in constraint-based learning). Valid when values are missing completely
    at random; with fewer than ``|S| + 4`` such rows a test reports no evidence of
    dependence (p-value 1).

    Parameters
    ----------
    test : CITest
        The test to run on each subset.
    data : DiscreteData, GaussianData or MixedData
        Checked data with missing values.

    Examples
    --------
    >>> import numpy as np
    >>> from skbn.ci_tests import FisherZ
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=400); b = a + rng.normal(size=400)
    >>> a[:100] = np.nan
    >>> bound = FisherZ().bind(np.column_stack([a, b]))
    >>> type(bound).__name__, bound.n_observed("x0", "x1")
    ('TestwiseDeletion', 300)
    >>> bound.test("x0", "x1").pvalue < 1e-6
    True
    """

    __test__ = False  # not a pytest test class

    def n_observed(self, x, y, cond=()) -> int:
        """Count the rows that observe ``x``, ``y`` and every member of ``cond``.

        Parameters
        ----------
        x, y : str or int
            Column names or positions.
        cond : iterable of str or int, default=()
            The conditioning set.

        Returns
        -------
        int
        """
        columns = [self._resolve(x), self._resolve(y), *(self._resolve(c) for c in cond)]
        return len(self.data.complete_rows(columns))

    def _subset(self, x, y, cond):
        columns = np.concatenate(([x, y], cond)).astype(np.int64)
        rows = self.data.complete_rows(columns)
        if len(rows) < len(cond) + 4:
            return None
        return self.ci_test._bind(self.data.take(rows, columns))

    def _test(self, x, y, cond):
        bound = self._subset(x, y, cond)
        if bound is None:
            return CIResult(0.0, 0.0, 1.0)
        return bound._test(0, 1, np.arange(2, len(cond) + 2, dtype=np.int64))

    def _log_pvalue(self, x, y, cond):
        bound = self._subset(x, y, cond)
        if bound is None:
            return 0.0
        return bound._log_pvalue(0, 1, np.arange(2, len(cond) + 2, dtype=np.int64))


# data with missing values binds to testwise deletion (CITest.bind); set here so that the
# base module does not import this one
CITest._incomplete_binder = TestwiseDeletion
