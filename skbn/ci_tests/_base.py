# SPDX-License-Identifier: BSD-3-Clause
"""The CI-test interface: a parameter object that binds to data and tests (x, y | S)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator

from skbn.utils._binding import DataBound, check_data_for

__all__ = ["CITest", "BoundCITest", "CIResult"]


class CIResult(NamedTuple):
    """Outcome of one conditional-independence test."""

    statistic: float
    dof: float
    pvalue: float


class CITest(BaseEstimator):
    """Base class of conditional-independence tests.

    A test is a small parameter object; ``bind(X)`` validates and encodes the data once and
    returns a :class:`BoundCITest` whose ``test(x, y, cond)`` returns a :class:`CIResult`.
    """

    #: "discrete" or "gaussian": the kind of data the test needs.
    data_kind: str = "discrete"
    _parameter_constraints: dict = {}

    def bind(self, X) -> BoundCITest:
        """Validate ``X`` for this test and return a bound tester."""
        return self._bind(check_data_for(self, X))

    def _bind(self, data) -> BoundCITest:  # pragma: no cover - abstract
        raise NotImplementedError


class BoundCITest(DataBound):
    """A CI test bound to one data set."""

    def __init__(self, test: CITest, data) -> None:
        super().__init__(data)
        self.ci_test = test

    def test(self, x, y, cond: Iterable = ()) -> CIResult:
        """Test ``x`` independent of ``y`` given ``cond`` (names or column indices)."""
        xi, yi = self._resolve(x), self._resolve(y)
        ci = np.array(sorted({self._resolve(c) for c in cond}), dtype=np.int64)
        if xi == yi or xi in ci or yi in ci:
            raise ValueError("x, y and the conditioning set must be distinct variables.")
        return self._test(xi, yi, ci)

    def log_pvalue(self, x: int, y: int, cond: np.ndarray) -> float:
        """Natural log of the p-value (column indices), exact where the p-value underflows.

        Searches that rank associations (MMPC) need it: strong dependencies all have
        p-value 0.0 in floating point, but distinct log p-values.
        """
        return self._log_pvalue(int(x), int(y), np.asarray(cond, dtype=np.int64))

    def _test(self, x: int, y: int, cond: np.ndarray) -> CIResult:  # pragma: no cover
        raise NotImplementedError

    def _log_pvalue(self, x: int, y: int, cond: np.ndarray) -> float:  # pragma: no cover
        raise NotImplementedError
