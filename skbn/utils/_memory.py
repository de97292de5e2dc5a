# SPDX-License-Identifier: BSD-3-Clause
"""Caching a learner's data-only phase on disk, as scikit-learn's ``memory=`` parameters do."""

from __future__ import annotations

from functools import cached_property

from sklearn.utils.validation import check_memory

__all__ = ["check_memory", "data_key"]


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
