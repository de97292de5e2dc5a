# SPDX-License-Identifier: BSD-3-Clause
"""What scores and CI tests share: binding a parameter object to checked data."""

from __future__ import annotations

import numpy as np

from skbn.data import check_data
from skbn.utils._param_validation import validate_params_of

__all__ = ["check_data_for", "DataBound"]


def check_data_for(obj, X):
    """Validate ``obj``'s parameters, then check ``X`` for the data kind it needs.

    The error names the object, e.g. "BDeu needs discrete data: ...". Missing values are
    kept: the object decides what it can do with them.
    """
    validate_params_of(obj)
    try:
        return check_data(X, kind=obj.data_kind, missing="allow")
    except ValueError as exc:
        raise ValueError(f"{type(obj).__name__} needs {obj.data_kind} data: {exc}") from None


class DataBound:
    """Base of objects bound to one data set: sizes, names and name-or-index lookup."""

    def __init__(self, data) -> None:
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
