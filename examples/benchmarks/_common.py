# SPDX-License-Identifier: BSD-3-Clause
"""Helpers shared by the benchmark scripts: timing and optional-peer detection."""

from __future__ import annotations

import statistics
import time
import warnings
from collections.abc import Callable


def timed(fn: Callable, repeats: int, slow_seconds: float):
    """Run ``fn`` up to ``repeats`` times; return (median seconds, last result, runs).

    A run slower than ``slow_seconds`` ends the repeats: slow peers are timed once.
    """
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
        if times[-1] > slow_seconds:
            break
    return statistics.median(times), result, len(times)


def available(module: str) -> bool:
    """Whether an optional peer library can be imported (its warnings silenced)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            __import__(module)
        return True
    except ImportError:
        return False
