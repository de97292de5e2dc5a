# SPDX-License-Identifier: BSD-3-Clause
"""scikit-learn's search base class, the one private piece of its search machinery skbn uses.

``BaseSearchCV`` is private API; it is imported here and nowhere else, so a change in
scikit-learn is a one-file fix. skbn's structure searches inherit its attributes and
delegation (``best_estimator_``, ``score``, ``_select_best_index``) but run their fits through
skbn's resampling engine and format ``cv_results_`` themselves, in scikit-learn's format.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from sklearn.model_selection._search import BaseSearchCV

__all__ = ["BaseSearchCV", "masked_param_columns"]


def masked_param_columns(candidate_params) -> dict:
    """``param_<name>`` columns of ``cv_results_``, as scikit-learn builds them.

    A masked array per parameter (masked where a candidate lacks it), with the values' own
    dtype when they form a 1-d numeric or boolean array, else ``object``.
    """
    n = len(candidate_params)
    values = defaultdict(dict)
    for k, params in enumerate(candidate_params):
        for name, value in params.items():
            values[f"param_{name}"][k] = value
    out = {}
    for key, found in values.items():
        listed = list(found.values())
        try:
            arr = np.array(listed)
        except ValueError:
            dtype = np.dtype(object)
        else:
            dtype = arr.dtype if arr.dtype.kind != "U" and arr.ndim == 1 else np.dtype(object)
        column = np.ma.MaskedArray(np.empty(n, dtype=dtype), mask=True)
        for k, value in found.items():
            column[k] = value
        out[key] = column
    return out
