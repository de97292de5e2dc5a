# SPDX-License-Identifier: BSD-3-Clause
"""The CI-test interface: a parameter object that binds to data and tests (x, y | S)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
from sklearn.base import BaseEstimator

from skbn.data import check_data
from skbn.utils._param_validation import validate_params_of

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
        validate_params_of(self)
        try:
            data = check_data(X, kind=self.data_kind)
        except ValueError as exc:
            raise ValueError(f"{type(self).__name__} needs {self.data_kind} data: {exc}") from None
        return self._bind(data)

    def _bind(self, data) -> BoundCITest:  # pragma: no cover - abstract
        raise NotImplementedError


class BoundCITest:
    """A CI test bound to one data set."""

    def __init__(self, test: CITest, data) -> None:
        self.ci_test = test
        self.data = data
        self.names = data.names
        self.n_samples = data.n_samples
        self.n_features = data.n_features
        self._index = {name: j for j, name in enumerate(self.names)}

    def _resolve(self, node) -> int:
        if isinstance(node, (int, np.integer)) and not isinstance(node, bool):
            if not 0 <= node < self.n_features:
                raise ValueError(f"Variable index {node} is out of range.")
            return int(node)
        try:
            return self._index[node]
        except KeyError:
            raise ValueError(f"{node!r} is not a variable of the data.") from None

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
