# SPDX-License-Identifier: BSD-3-Clause
"""Validated, encoded data containers for structure learning.

Every learner, score and CI test in skbn works on one of two immutable views of the
user's data, produced once by :func:`check_data`:

* :class:`DiscreteData` -- integer codes ``0 .. r_j - 1`` per column, stored column-major
  (Fortran order) as ``int32`` so that the counting kernels read one variable contiguously,
  together with the arity and the original state labels of every column;
* :class:`GaussianData` -- ``float64`` values with their means, and the covariance and
  correlation matrices computed on first use (the sufficient statistics of Gaussian scores
  and of the Fisher-z test).

Column kinds follow pandas dtypes: categorical, object, string, bool and integer columns are
discrete; float columns are continuous. Nothing is silently coerced: a float column where a
discrete one is needed (or the reverse) is an error that names the column and says what to do.
The one exception: when discrete data is explicitly required, float columns holding only whole
numbers are read as codes, because that is what ``KBinsDiscretizer(encode="ordinal")`` returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Literal

import numpy as np
import pandas as pd
from scipy import sparse

__all__ = ["DiscreteData", "GaussianData", "check_data", "MAX_CATEGORIES"]

#: Largest number of categories a discrete column may have (codes are stored as int32 and
#: the counting kernels index parent configurations with int64 mixed-radix indices).
MAX_CATEGORIES = 2**15

_MAX_NAMES_SHOWN = 8


def _show(names: Sequence[str]) -> str:
    """Format column names for an error message, shortening long lists."""
    shown = ", ".join(repr(str(n)) for n in names[:_MAX_NAMES_SHOWN])
    if len(names) > _MAX_NAMES_SHOWN:
        shown += f", ... ({len(names)} columns in all)"
    return shown


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


class DiscreteData:
    """Discrete data encoded as integer codes, one column per variable.

    Build it with :func:`check_data`; the arrays are read-only.

    Attributes
    ----------
    codes : ndarray of shape (n_samples, n_features), dtype int32, Fortran order
        ``codes[i, j]`` is the index of row ``i``'s value in ``states[j]``.
    arities : ndarray of shape (n_features,), dtype int64
        Number of states of each column (``len(states[j])``).
    states : tuple of tuple
        The state labels of each column, in code order.
    names : tuple of str
        Column (node) names.
    """

    kind = "discrete"

    def __init__(
        self,
        codes: np.ndarray,
        arities: np.ndarray,
        states: tuple[tuple, ...],
        names: tuple[str, ...],
    ) -> None:
        self.codes = _readonly(np.asfortranarray(codes, dtype=np.int32))
        self.arities = _readonly(np.asarray(arities, dtype=np.int64))
        self.states = tuple(tuple(s) for s in states)
        self.names = tuple(names)

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return self.codes.shape[0]

    @property
    def n_features(self) -> int:
        """Number of columns (variables)."""
        return self.codes.shape[1]

    @cached_property
    def constant_columns(self) -> tuple[str, ...]:
        """Names of the columns that take a single value in the data."""
        first = self.codes[0]
        const = np.all(self.codes == first, axis=0)
        return tuple(n for n, c in zip(self.names, const) if c)

    def to_frame(self) -> pd.DataFrame:
        """Decode back to a DataFrame of categorical columns."""
        return pd.DataFrame(
            {
                name: pd.Categorical.from_codes(self.codes[:, j], categories=list(st))
                for j, (name, st) in enumerate(zip(self.names, self.states))
            }
        )

    def __repr__(self) -> str:
        return (
            f"DiscreteData(n_samples={self.n_samples}, n_features={self.n_features}, "
            f"max_arity={int(self.arities.max())})"
        )


class GaussianData:
    """Continuous data as a float64 matrix, with its sufficient statistics on demand.

    Build it with :func:`check_data`; the arrays are read-only.

    Attributes
    ----------
    values : ndarray of shape (n_samples, n_features), dtype float64
    names : tuple of str
        Column (node) names.
    """

    kind = "gaussian"

    def __init__(self, values: np.ndarray, names: tuple[str, ...]) -> None:
        self.values = _readonly(np.ascontiguousarray(values, dtype=np.float64))
        self.names = tuple(names)

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return self.values.shape[0]

    @property
    def n_features(self) -> int:
        """Number of columns (variables)."""
        return self.values.shape[1]

    @cached_property
    def means(self) -> np.ndarray:
        """Column means, shape (n_features,)."""
        return _readonly(self.values.mean(axis=0))

    @cached_property
    def covariance(self) -> np.ndarray:
        """Maximum-likelihood covariance matrix (divisor ``n``), shape (p, p)."""
        centred = self.values - self.means
        return _readonly(centred.T @ centred / self.n_samples)

    @cached_property
    def correlation(self) -> np.ndarray:
        """Pearson correlation matrix, shape (p, p); constant columns get 0 off the diagonal."""
        sd = np.sqrt(np.diag(self.covariance))
        safe = np.where(sd > 0, sd, 1.0)
        corr = self.covariance / np.outer(safe, safe)
        corr[sd == 0, :] = 0.0
        corr[:, sd == 0] = 0.0
        np.fill_diagonal(corr, 1.0)
        return _readonly(corr)

    @cached_property
    def constant_columns(self) -> tuple[str, ...]:
        """Names of the columns that take a single value in the data."""
        const = np.all(self.values == self.values[0], axis=0)
        return tuple(n for n, c in zip(self.names, const) if c)

    def to_frame(self) -> pd.DataFrame:
        """Return the values as a DataFrame."""
        return pd.DataFrame(self.values, columns=list(self.names))

    def __repr__(self) -> str:
        return f"GaussianData(n_samples={self.n_samples}, n_features={self.n_features})"


def _column_kind(series: pd.Series) -> str:
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return "discrete"
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_integer_dtype(dtype):
        return "discrete"
    if pd.api.types.is_float_dtype(dtype):
        return "continuous"
    if pd.api.types.is_string_dtype(dtype) or pd.api.types.is_object_dtype(dtype):
        return "discrete"
    return "unsupported"


def _as_frame(X) -> pd.DataFrame:
    if isinstance(X, pd.DataFrame):
        if X.columns.duplicated().any():
            dup = list(dict.fromkeys(X.columns[X.columns.duplicated()]))
            raise ValueError(
                f"Duplicate column names {_show(dup)}: every column is a node of the network "
                "and needs a unique name. Rename the columns before fitting."
            )
        names = [str(c) for c in X.columns]
        if len(set(names)) != len(names):
            raise ValueError(
                "Column names collide once converted to str "
                f"({_show([n for n in names if names.count(n) > 1])}); rename the columns."
            )
        frame = X.copy(deep=False)
        frame.columns = names
        return frame
    if isinstance(X, pd.Series):
        raise ValueError(
            "Expected 2-D data (one column per variable), got a pandas Series. "
            "Use series.to_frame() to pass a single column."
        )
    if sparse.issparse(X):
        raise TypeError(
            "Sparse data was passed, but skbn needs dense data: convert it with X.toarray()."
        )
    if isinstance(X, (str, bytes, dict, set)) or np.ndim(X) == 0:
        raise TypeError(f"Expected a pandas DataFrame or a 2-D array, got {type(X).__name__}.")
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(
            f"Expected 2-D data (rows x variables), got an array with {arr.ndim} dimension(s). "
            "Reshape a single variable with X.reshape(-1, 1)."
        )
    if arr.dtype.kind == "c":
        raise ValueError("Complex data not supported; use real numbers, strings or bools.")
    if arr.dtype.kind not in "biufOUS":
        raise TypeError(f"Unsupported array dtype {arr.dtype}; use numbers, strings or bools.")
    names = [f"x{j}" for j in range(arr.shape[1])]
    return pd.DataFrame({n: arr[:, j] for j, n in enumerate(names)}, columns=names)


def _encode_column(name: str, series: pd.Series, max_categories: int) -> tuple[np.ndarray, tuple]:
    if isinstance(series.dtype, pd.CategoricalDtype):
        categories = tuple(series.cat.categories)
        codes = series.cat.codes.to_numpy()
    else:
        try:
            codes, uniques = pd.factorize(series, sort=True)
        except TypeError as exc:
            raise TypeError(
                f"Column {name!r} holds values that cannot be used as categories ({exc}); "
                "use hashable scalars such as strings or numbers, e.g. X[col].astype(str)."
            ) from None
        categories = tuple(uniques.tolist() if hasattr(uniques, "tolist") else uniques)
    if len(categories) > max_categories:
        raise ValueError(
            f"Column {name!r} has {len(categories)} categories, more than the {max_categories} "
            "the counting kernels support. Is it an identifier or a continuous variable? "
            "Drop it, or discretise it (e.g. sklearn.preprocessing.KBinsDiscretizer)."
        )
    return codes.astype(np.int32, copy=False), categories


def check_data(
    X,
    *,
    kind: Literal["auto", "discrete", "gaussian"] = "auto",
    max_categories: int = MAX_CATEGORIES,
) -> DiscreteData | GaussianData:
    """Validate ``X`` and encode it once for the kernels.

    Parameters
    ----------
    X : DataFrame, array-like of shape (n_samples, n_features), DiscreteData or GaussianData
        The data. DataFrame column names become node names; arrays get ``x0, x1, ...``.
        Categorical, object, string, bool and integer columns are discrete; float columns are
        continuous. Already checked data is returned unchanged (if of the requested kind).
    kind : {"auto", "discrete", "gaussian"}, default="auto"
        The kind of data required. ``"auto"`` infers it from the column types and refuses a
        mix of discrete and continuous columns.
    max_categories : int, default=2**15
        Largest number of categories accepted in a discrete column.

    Returns
    -------
    DiscreteData or GaussianData
        The validated, encoded data.

    Raises
    ------
    TypeError
        If ``X`` is not tabular or holds values of an unsupported type.
    ValueError
        On missing or infinite values, fewer than 2 rows, no columns, duplicate column names,
        too many categories, or columns of the wrong kind; the message names the columns.

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.data import check_data
    >>> data = check_data(pd.DataFrame({"a": ["x", "y", "x"], "b": [1, 0, 1]}))
    >>> data
    DiscreteData(n_samples=3, n_features=2, max_arity=2)
    >>> data.codes[:, 0], data.states[0]
    (array([0, 1, 0], dtype=int32), ('x', 'y'))
    >>> check_data([[0.5, 1.0], [1.5, -2.0]]).names
    ('x0', 'x1')
    """
    if kind not in ("auto", "discrete", "gaussian"):
        raise ValueError(f"kind must be 'auto', 'discrete' or 'gaussian', got {kind!r}.")
    if isinstance(X, (DiscreteData, GaussianData)):
        if kind == "discrete" and isinstance(X, GaussianData):
            raise ValueError(
                "Discrete data is required, but continuous data was given; discretise it "
                "first (e.g. sklearn.preprocessing.KBinsDiscretizer(encode='ordinal'))."
            )
        if kind == "gaussian" and isinstance(X, DiscreteData):
            raise ValueError(
                "Continuous (Gaussian) data is required, but discrete data was given; use a "
                "discrete score or CI test instead."
            )
        return X

    frame = _as_frame(X)
    n_rows, n_cols = frame.shape
    if n_cols == 0:
        raise ValueError(
            f"Found 0 feature(s) (shape=({n_rows}, 0)) while a minimum of 1 is required: "
            "X needs at least one column (variable)."
        )
    if n_rows < 2:
        raise ValueError(
            f"Found {n_rows} sample(s) (shape=({n_rows}, {n_cols})) while a minimum of 2 is "
            "required to learn a structure."
        )

    kinds = {name: _column_kind(frame[name]) for name in frame.columns}
    bad = [n for n, k in kinds.items() if k == "unsupported"]
    if bad:
        raise TypeError(
            f"Columns {_show(bad)} have unsupported dtypes "
            f"({', '.join(sorted({str(frame[n].dtype) for n in bad}))}); "
            "use numeric, bool, string or categorical columns."
        )
    missing = [n for n in frame.columns if frame[n].isna().any()]
    if missing:
        raise ValueError(
            f"Columns {_show(missing)} contain missing values (NaN/None). skbn does not "
            "impute: drop or impute them first (e.g. sklearn.impute.SimpleImputer)."
        )
    continuous = [n for n, k in kinds.items() if k == "continuous"]
    discrete = [n for n, k in kinds.items() if k == "discrete"]
    if continuous:
        values = frame[continuous].to_numpy(dtype=np.float64)
        bad_inf = [n for n, ok in zip(continuous, np.isfinite(values).all(axis=0)) if not ok]
        if bad_inf:
            raise ValueError(f"Columns {_show(bad_inf)} contain infinite values.")

    if kind == "auto":
        if continuous and discrete:
            raise ValueError(
                f"X mixes continuous columns ({_show(continuous)}) with discrete columns "
                f"({_show(discrete)}); skbn's scores and tests need one kind. Discretise the "
                "continuous ones (sklearn.preprocessing.KBinsDiscretizer(encode='ordinal') in a "
                "Pipeline) or cast the discrete ones to float."
            )
        kind = "gaussian" if continuous else "discrete"

    names = tuple(frame.columns)
    if kind == "discrete":
        # Integer-valued float columns are codes (KBinsDiscretizer(encode="ordinal") returns
        # them as floats): accepted when discrete data is asked for, never in "auto" mode.
        fractional = [n for n in continuous if not np.all(np.mod(frame[n].to_numpy(), 1) == 0)]
        if fractional:
            raise ValueError(
                f"Discrete data is required, but columns {_show(fractional)} hold non-integer "
                "floats. Discretise them (sklearn.preprocessing.KBinsDiscretizer(encode="
                "'ordinal') in a Pipeline)."
            )
        if continuous:
            frame = frame.copy()
            for n in continuous:
                frame[n] = frame[n].astype(np.int64)
        codes = np.empty((n_rows, n_cols), dtype=np.int32, order="F")
        states = []
        for j, name in enumerate(names):
            codes[:, j], st = _encode_column(name, frame[name], max_categories)
            states.append(st)
        arities = np.array([len(s) for s in states], dtype=np.int64)
        return DiscreteData(codes, arities, tuple(states), names)

    if discrete:
        raise ValueError(
            f"Continuous (Gaussian) data is required, but columns {_show(discrete)} are "
            "discrete (categorical/object/bool/integer). Cast numeric ones with "
            "X.astype(float), or use a discrete score or CI test."
        )
    return GaussianData(frame.to_numpy(dtype=np.float64), names)
