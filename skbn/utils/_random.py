# SPDX-License-Identifier: BSD-3-Clause
"""Seeds: the one bound and the one way every estimator draws the seeds it hands on.

A seed drawn here seeds a ``numpy.random.RandomState``, a scikit-learn estimator's
``random_state``, a numba kernel (int64) and an Optuna sampler alike, so it stays below
``2**31 - 1``. Draws consume the generator exactly as ``rng.randint(MAX_SEED)`` (one seed) or
``rng.randint(MAX_SEED, size=n)`` (several) did, so seeded results are unchanged.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["MAX_SEED", "draw_seed", "spawn_seeds"]

#: Seeds are drawn from ``0 .. MAX_SEED - 1``.
MAX_SEED = int(np.iinfo(np.int32).max)


def draw_seed(rng) -> int:
    """One seed from ``rng`` (a ``RandomState``; None or an int are turned into one).

    Examples
    --------
    >>> draw_seed(0) == draw_seed(0)
    True
    """
    return int(check_random_state(rng).randint(MAX_SEED))


def spawn_seeds(random_state, n: int) -> list[int]:
    """``n`` seeds drawn from ``random_state`` (the caller's, before any work).

    Examples
    --------
    >>> len(spawn_seeds(0, 3))
    3
    """
    return check_random_state(random_state).randint(MAX_SEED, size=n).tolist()
