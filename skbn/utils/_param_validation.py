# SPDX-License-Identifier: BSD-3-Clause
"""Parameter validation: a thin layer over scikit-learn's private constraint machinery.

scikit-learn's ``Interval``, ``StrOptions``, ``HasMethods`` and
``validate_parameter_constraints`` are private API. Importing them here, and only here, keeps
a change in scikit-learn to a one-file fix.
"""

from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    Options,
    StrOptions,
    validate_parameter_constraints,
)

__all__ = ["HasMethods", "Interval", "Options", "StrOptions", "validate_params_of"]


def validate_params_of(obj) -> None:
    """Check ``obj``'s parameters against its ``_parameter_constraints`` (raises on error)."""
    validate_parameter_constraints(
        obj._parameter_constraints,
        obj.get_params(deep=False),
        caller_name=type(obj).__name__,
    )
