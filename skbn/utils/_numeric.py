# SPDX-License-Identifier: BSD-3-Clause
"""Small numeric helpers shared by the searches."""

from __future__ import annotations

import numpy as np

__all__ = ["mutual_information_of_joints", "significant"]


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
    finite = np.isfinite(values)
    safe = np.where(finite, values, 0.0)
    scale = np.where(safe == 0, 1.0, 10.0 ** np.floor(np.log10(np.abs(safe) + 1e-300)))
    # infinite values (a family a score rules out) stay as they are
    return np.where(finite, np.round(safe / scale, digits - 1) * scale, values)


def mutual_information_of_joints(joint: np.ndarray) -> np.ndarray:
    """Mutual information (nats) of each joint distribution ``joint[m]`` of shape (r, k).

    Examples
    --------
    >>> mutual_information_of_joints(np.array([[[0.5, 0.0], [0.0, 0.5]]])).round(4).tolist()
    [0.6931]
    """
    py = joint.sum(axis=2, keepdims=True)
    ph = joint.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(joint > 0, joint * np.log(joint / (py * ph)), 0.0)
    return terms.sum(axis=(1, 2))
