# SPDX-License-Identifier: BSD-3-Clause
"""The limits, warnings and errors of the data checks, and how they name columns."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: Largest number of categories a discrete column may have (codes are stored as int16 and
#: the counting kernels index parent configurations with int64 mixed-radix indices).
MAX_CATEGORIES = 2**15

#: Above this many continuous columns the scores never form the whole (p, p) covariance matrix
#: (15,000 columns already take 1.8 GB): they ask for blocks of it, computed from the centred
#: columns, and screen pairs by correlation a block of columns at a time.
DENSE_COVARIANCE_MAX = 15_000

#: An integer column with more distinct values than this is read as discrete with a warning
#: (is it a count or a measurement?); so are float columns that all hold whole numbers with at
#: most this many values in more than twice this many rows (bin codes?), read as continuous.
INTEGER_STATES_WARNING = 20

#: A learned Gaussian family with ``k`` parents has ``k + 2`` parameters (intercept,
#: coefficients, noise variance); with fewer than this many rows per parameter in its
#: largest family, a fit warns with :class:`FewRowsWarning`.
ROWS_PER_PARAMETER = 2

#: A column observed in fewer than this fraction of the rows warns with
#: :class:`SparselyObservedWarning` when missing values are allowed.
SPARSE_OBSERVED_FRACTION = 0.05

_MAX_NAMES_SHOWN = 8


class FewRowsWarning(UserWarning):
    """A learned Gaussian graph has parent sets too large for the number of rows.

    With continuous data a regression on ``k`` parents fits ``n`` rows better and better as
    ``k`` approaches ``n``, and a likelihood score such as Gaussian BIC keeps rewarding
    parents until the residual variance reaches its floor: 50 rows can give in-degrees of 49.
    Fits warn when the largest family has fewer than :data:`ROWS_PER_PARAMETER` rows per
    parameter; the message names the family and the remedies (the default score
    ``GaussianEBIC``, a larger penalty, ``max_indegree``, more rows).

    Examples
    --------
    >>> import warnings
    >>> from skbn.datasets import make_erdos_renyi_dag, make_linear_gaussian
    >>> from skbn.learners import HillClimb
    >>> dag = make_erdos_renyi_dag(60, 30, random_state=0)
    >>> X = make_linear_gaussian(dag, random_state=0).sample(30, random_state=0)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = HillClimb("bic").fit(X)
    >>> any(issubclass(w.category, FewRowsWarning) for w in caught)
    True
    """


class SparselyObservedWarning(UserWarning):
    """A column is observed in only a few rows of data with missing values.

    Such a column's families could be learned from those few rows alone, which any parent
    set fits perfectly: the available-case scores do not score a family with parents
    observed in fewer than :data:`SPARSE_OBSERVED_FRACTION` of the rows, so score-based
    learners leave the column without parents and children (CI tests on so few rows rarely
    reject independence either). The message names the columns and how many rows observe
    each; drop them, or collect them on more rows.

    Examples
    --------
    >>> import warnings, pandas as pd
    >>> X = pd.DataFrame({"a": ["x", "y"] * 50, "b": ["u", "v", "u"] + [None] * 97})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = check_data(X, missing="allow")
    >>> caught[0].category.__name__
    'SparselyObservedWarning'
    """


class DataKindWarning(UserWarning):
    """The kind skbn gave a column (discrete or continuous) may not be the one you meant.

    The message names the columns and says how to state the kind explicitly, which also
    silences the warning.

    Examples
    --------
    >>> import warnings, pandas as pd
    >>> X = pd.DataFrame({"age": range(30), "sex": ["f", "m"] * 15})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = check_data(X)
    >>> caught[0].category.__name__
    'DataKindWarning'
    """


class MissingValuesError(ValueError):
    """Missing values where complete data is required (a :class:`ValueError`).

    The estimator that asked for complete data may reword it (naming the learners that take
    missing values, from their own flags).

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.data import MissingValuesError, check_data
    >>> try:
    ...     check_data(pd.DataFrame({"a": ["x", None, "y"]}), missing="error")
    ... except MissingValuesError as error:
    ...     print(str(error)[:48])
    Columns 'a' contain missing values (NaN/None/pd.
    """


def _missing_message(names, observed=None) -> str:
    """Word the error for missing values where they are refused, naming the columns."""
    if observed is not None:
        names = [n for n, ok in zip(names, observed.all(axis=0)) if not ok]
    return (
        f"Columns {_show(list(names))} contain missing values (NaN/None/pd.NA), and complete "
        "data is required here: drop or impute them first (e.g. "
        "sklearn.impute.SimpleImputer), or use a learner that learns from them (the "
        "missing-data guide lists them)."
    )


def _show(names: Sequence[str]) -> str:
    """Format column names for an error message, shortening long lists."""
    shown = ", ".join(repr(str(n)) for n in names[:_MAX_NAMES_SHOWN])
    if len(names) > _MAX_NAMES_SHOWN:
        shown += f", ... ({len(names)} columns in all)"
    return shown


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a
