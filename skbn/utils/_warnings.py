# SPDX-License-Identifier: BSD-3-Clause
"""Warnings that point at the user's line, not at skbn's."""

from __future__ import annotations

import contextlib
import inspect
import os
import warnings

#: skbn's folder (this file is skbn/utils/_warnings.py)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
#: contextlib's frames sit between a context manager of skbn's and its caller
_CONTEXTLIB = os.path.abspath(contextlib.__file__)


def _inside(filename: str) -> bool:
    path = os.path.abspath(filename)
    return path.startswith(_PACKAGE) or path == _CONTEXTLIB


def stack_level() -> int:
    """The ``stacklevel`` at which the caller's ``warnings.warn`` names a line outside skbn.

    ``warnings.warn(..., stacklevel=stack_level())`` names the line of user code (or of
    the library, scikit-learn's cross-validation say, that called skbn).
    """
    frame = inspect.currentframe()
    level = 0
    try:
        frame = frame.f_back  # the function that asks
        while frame is not None and _inside(frame.f_code.co_filename):
            frame = frame.f_back
            level += 1
    finally:
        del frame
    return level + 1


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn`` at the first line outside skbn."""
    warnings.warn(message, category, stacklevel=stack_level())
