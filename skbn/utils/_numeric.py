# SPDX-License-Identifier: BSD-3-Clause
"""Small numeric helpers shared by the searches."""

from __future__ import annotations

import numpy as np

__all__ = ["significant"]


def significant(values, digits: int = 10) -> np.ndarray:
    """Round ``values`` to ``digits`` significant figures.

    Searches compare quantities that are equal in exact arithmetic but not in floating
    point (the scores of standardised columns, the two gains of a pair whose ends have no
    other parents); rounded, they tie, and a canonical order decides instead of noise.

    Examples
    --------
    >>> significant([1.0 + 1e-13, 1.0, 123456.789], 4).tolist()
    [1.0, 1.0, 123500.0]
    """
    values = np.asarray(values, dtype=float)
    scale = np.where(values == 0, 1.0, 10.0 ** np.floor(np.log10(np.abs(values) + 1e-300)))
    return np.round(values / scale, digits - 1) * scale
