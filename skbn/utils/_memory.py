# SPDX-License-Identifier: BSD-3-Clause
"""Caching a learner's data-only phase on disk, as scikit-learn's ``memory=`` parameters do."""

from __future__ import annotations

import os
from functools import cached_property

from sklearn.utils.validation import check_memory

__all__ = ["check_allocation", "check_memory", "data_key", "physical_memory"]


def data_key(data) -> tuple:
    """What defines a checked-data container, for a cache key.

    The constructor's fields only: the ``cached_property`` values a container fills in on
    demand (masks, sufficient statistics) depend on what has run before, so keying on them
    would make the same data miss the cache.
    """
    kind = type(data)
    fields = {
        name: value
        for name, value in vars(data).items()
        if not isinstance(getattr(kind, name, None), cached_property)
    }
    return kind.__name__, tuple(sorted(fields.items()))


def physical_memory() -> int | None:
    """Bytes of memory this machine has (None where the system does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def check_allocation(n_bytes: float, what: str, fix: str) -> None:
    """Refuse, before allocating, what would need more memory than the machine has.

    Parameters
    ----------
    n_bytes : float
        What the allocation would take.
    what : str
        The parameters that ask for it (the error's subject).
    fix : str
        What to do instead.

    Examples
    --------
    >>> from skbn.utils._memory import check_allocation
    >>> check_allocation(1e3, "n_samples=100", "draw fewer rows")  # fits: nothing happens
    """
    total = physical_memory()
    if total is not None and n_bytes > total:
        raise ValueError(
            f"{what} needs about {n_bytes / 2**30:.1f} GiB, more than this machine's "
            f"{total / 2**30:.1f} GiB of memory; {fix}."
        )
