# SPDX-License-Identifier: BSD-3-Clause
"""Fisher's z test of zero partial correlation."""

from __future__ import annotations

import numpy as np
from scipy import special

from skbn._kernels.ci import fisher_z
from skbn.ci_tests._base import BoundCITest, CIResult, CITest

__all__ = ["FisherZ"]


class _BoundFisherZ(BoundCITest):
    def __init__(self, test, data) -> None:
        super().__init__(test, data)
        self.correlation = np.ascontiguousarray(data.correlation)

    def correlation_matrix(self):
        return self.correlation

    def _test(self, x, y, cond):
        z = float(fisher_z(self.correlation, self.n_samples, x, y, cond))
        dof = float(self.n_samples - len(cond) - 3)
        return CIResult(z, dof, float(2 * special.ndtr(-abs(z))))

    def _log_pvalue(self, x, y, cond):
        z = float(fisher_z(self.correlation, self.n_samples, x, y, cond))
        return float(np.log(2.0) + special.log_ndtr(-abs(z)))


class FisherZ(CITest):
    """Fisher's z test: ``z = sqrt(n - |S| - 3) atanh(rho(x, y | S))``, two-sided normal.

    The partial correlation comes from the inverse of the correlation block of
    ``{x, y} + S``, so a test costs ``O(|S|^3)`` whatever ``n`` is. The ``dof`` field reports
    ``n - |S| - 3``.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(size=1000); b = a + rng.normal(size=1000); c = b + rng.normal(size=1000)
    >>> test = FisherZ().bind(np.column_stack([a, b, c]))
    >>> test.test(0, 2).pvalue < 1e-6, test.test(0, 2, [1]).pvalue > 0.01
    (True, True)
    """

    data_kind = "gaussian"
    threaded_kernels = True

    def _bind(self, data):
        return _BoundFisherZ(self, data)
