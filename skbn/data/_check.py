# SPDX-License-Identifier: BSD-3-Clause
"""check_data: a user's frame or array into a checked-data container, once."""

from __future__ import annotations

import warnings
from typing import Literal

import numpy as np
import pandas as pd
from scipy import sparse

from skbn.data._containers import (
    CHECKED_DATA,
    DiscreteData,
    GaussianData,
    MixedData,
    _as_mixed,
)
from skbn.data._limits import (
    _MAX_NAMES_SHOWN,
    INTEGER_STATES_WARNING,
    MAX_CATEGORIES,
    SPARSE_OBSERVED_FRACTION,
    DataKindWarning,
    MissingValuesError,
    SparselyObservedWarning,
    _missing_message,
    _show,
)
from skbn.utils._warnings import stack_level


def _column_kind(dtype) -> str:
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


def _factorize(name: str, series: pd.Series) -> tuple[np.ndarray, tuple]:
    """Codes (``-1`` where missing) and sorted categories of a discrete column."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.cat.codes.to_numpy(), tuple(series.cat.categories)
    values = series.to_numpy()
    if values.dtype.kind not in "biu":
        # strings: factorising a plain object array is about twice as fast as going through
        # pandas' string arrays, and its -1 sentinel finds missing values at no extra cost
        values = series.to_numpy(dtype=object)
    hint = "each argument must be a string or a number (a hashable scalar): X[col].astype(str)."
    try:
        # hashing first, sorting the distinct values after: pandas sorts a mix of tuples and
        # strings only with a warning (and a mix it cannot order not at all)
        codes, uniques = pd.factorize(values, sort=False)
        objects = uniques if uniques.dtype.kind == "O" else ()  # numbers need no look
        bad = next((u for u in objects if not pd.api.types.is_scalar(u)), None)
        if bad is None:
            order, uniques = pd.factorize(uniques, sort=True)
    except TypeError as exc:
        raise TypeError(
            f"Column {name!r} holds values that cannot be used as categories ({exc}): {hint}"
        ) from None
    if bad is not None:
        raise TypeError(
            f"Column {name!r} holds a value that cannot be a category, {bad!r} "
            f"({type(bad).__name__}): {hint}"
        )
    if len(uniques) == 0:  # every cell missing: the caller says the column has no value
        return np.full(len(values), -1, dtype=np.int64), ()
    codes = np.where(codes >= 0, order[np.maximum(codes, 0)], -1)
    return codes, tuple(uniques.tolist() if hasattr(uniques, "tolist") else uniques)


def _check_categories(name: str, categories: tuple, max_categories: int) -> None:
    if len(categories) > max_categories:
        raise ValueError(
            f"Column {name!r} has {len(categories)} categories, more than the {max_categories} "
            "the counting kernels support. Is it an identifier or a continuous variable? "
            "Drop it, or discretise it (e.g. sklearn.preprocessing.KBinsDiscretizer)."
        )


def _warn_if_many_integer_states(frame: pd.DataFrame, discrete, encoded) -> None:
    many = [
        name
        for name in discrete
        if pd.api.types.is_integer_dtype(frame[name].dtype)
        and not pd.api.types.is_bool_dtype(frame[name].dtype)
        and len(encoded[name][1]) > INTEGER_STATES_WARNING
    ]
    if many:
        counts = ", ".join(f"{n!r}: {len(encoded[n][1])}" for n in many[:_MAX_NAMES_SHOWN])
        warnings.warn(
            f"Integer columns with more than {INTEGER_STATES_WARNING} distinct values are read "
            f"as discrete variables with one state per value ({counts}). If they are "
            "measurements, cast them with X[cols].astype(float) (on the command line, "
            "--continuous col1,col2), or bin them as well (sklearn.preprocessing."
            "KBinsDiscretizer; on the command line, --continuous col1,col2 --bins 5); to keep "
            "them as categories say so with X[cols].astype('category') (--discrete col1,col2),"
            " which also silences this warning.",
            DataKindWarning,
            stacklevel=stack_level(),
        )


def _warn_if_identifiers(frame: pd.DataFrame, discrete, encoded) -> None:
    """Warn about string/object columns whose values are nearly all distinct (identifiers).

    Integer columns have their own warning; categorical columns are declared on purpose.
    """
    n = len(frame)
    suspects = [
        name
        for name in discrete
        if not isinstance(frame[name].dtype, pd.CategoricalDtype)
        and not pd.api.types.is_integer_dtype(frame[name].dtype)
        and not pd.api.types.is_bool_dtype(frame[name].dtype)
        and len(encoded[name][1]) > INTEGER_STATES_WARNING
        and len(encoded[name][1]) > n / 2
    ]
    if suspects:
        counts = ", ".join(
            f"{m!r}: {len(encoded[m][1])} values in {n} rows" for m in suspects[:_MAX_NAMES_SHOWN]
        )
        warnings.warn(
            f"Columns with a distinct value in most rows look like identifiers ({counts}). "
            "As variables they have one state per value: nothing can be learned from them, "
            "and tests on them need tables of states x states cells. Drop them, or say they "
            "are categories with X[cols].astype('category'), which also silences this warning.",
            DataKindWarning,
            stacklevel=stack_level(),
        )


def _warn_if_codes(frame: pd.DataFrame, continuous, values: np.ndarray, mixed: bool) -> None:
    """Warn when every float column holds a few whole numbers: bin codes read as Gaussian.

    Only with more than twice :data:`INTEGER_STATES_WARNING` rows: in fewer rows a few distinct
    values say nothing. Missing values (NaN) are ignored. ``mixed``: discrete columns are
    there too, so the floats would be the continuous half of a conditional-Gaussian network.
    """
    if len(values) <= 2 * INTEGER_STATES_WARNING:
        return
    head = values[:50]
    if not np.all(np.mod(head[~np.isnan(head)], 1) == 0):
        return
    columns = [values[:, j] for j in range(len(continuous))]
    columns = [c[~np.isnan(c)] for c in columns]
    if not all(np.all(np.mod(c, 1) == 0) for c in columns):
        return
    if not all(len(np.unique(c)) <= INTEGER_STATES_WARNING for c in columns):
        return
    # a float column of whole numbers is usually an integer column with blank cells, which
    # astype(int) refuses; pandas' nullable "Int64" keeps them missing
    holed = bool(np.isnan(values).any())
    to_int = "'Int64'" if holed else "int"
    if mixed:
        cast = ", ".join(f"{n!r}: {to_int}" for n in continuous[:3])
        warnings.warn(
            f"The float columns {_show(continuous)} hold whole numbers with at most "
            f"{INTEGER_STATES_WARNING} distinct values (bin codes, such as "
            "KBinsDiscretizer(encode='ordinal') returns?), and float columns are continuous, "
            "so they are learned as Gaussian beside the discrete columns (a "
            "conditional-Gaussian network). To treat them as categories cast them, e.g. "
            f"X.astype({{{cast}}}); to keep them continuous, pass a conditional-Gaussian score "
            "(e.g. criterion='bic-cg') or test (ci_test='mi_cg').",
            DataKindWarning,
            stacklevel=stack_level(),
        )
        return
    warnings.warn(
        f"Every column holds whole numbers with at most {INTEGER_STATES_WARNING} distinct "
        "values (bin codes, such as KBinsDiscretizer(encode='ordinal') returns?), and float "
        "columns are continuous, so a Gaussian model is learned on them. To treat them as "
        "categories give the learner a discrete score or test (e.g. criterion='bdeu' or "
        f"skbn.scores.BIC()), or cast them with X.astype({to_int}); to keep the Gaussian "
        "model, pass a Gaussian score (e.g. criterion='bic-g').",
        DataKindWarning,
        stacklevel=stack_level(),
    )


def check_data(
    X,
    *,
    kind: Literal["auto", "discrete", "gaussian", "mixed"] = "auto",
    max_categories: int = MAX_CATEGORIES,
    missing: Literal["error", "allow"] = "error",
) -> DiscreteData | GaussianData | MixedData:
    """Validate ``X`` and encode it once for the kernels.

    Parameters
    ----------
    X : DataFrame, array-like of shape (n_samples, n_features), or checked data
        The data. DataFrame column names become node names; arrays get ``x0, x1, ...``.
        Categorical, object, string, bool and integer columns are discrete; float columns are
        continuous. Already checked data is returned unchanged (if of the requested kind).
    kind : {"auto", "discrete", "gaussian", "mixed"}, default="auto"
        The kind of data required. ``"auto"`` infers it from the column types: a frame with
        both discrete and continuous columns gives :class:`MixedData`. ``"mixed"`` gives
        :class:`MixedData` whatever the columns (all of one kind is a special case).
    max_categories : int, default=2**15
        Largest number of categories accepted in a discrete column.
    missing : {"error", "allow"}, default="error"
        What to do with missing values (NaN, None, ``pd.NA``). ``"error"`` refuses them,
        naming the columns; ``"allow"`` keeps them (code ``-1`` in a discrete column, NaN in a
        continuous one) for the methods that handle them -- testwise deletion in the CI
        tests, available-case scores, :class:`~skbn.learners.StructuralEM` -- but still
        refuses a column with fewer than 2 observed values.

    Returns
    -------
    DiscreteData, GaussianData or MixedData
        The validated, encoded data.

    Raises
    ------
    TypeError
        If ``X`` is not tabular or holds values of an unsupported type.
    ValueError
        On missing values (unless allowed), infinite values, fewer than 2 rows, no columns,
        duplicate column names, too many categories, or columns of the wrong kind; the
        message names the columns.

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.data import check_data
    >>> data = check_data(pd.DataFrame({"a": ["x", "y", "x"], "b": [1, 0, 1]}))
    >>> data
    DiscreteData(n_samples=3, n_features=2, max_arity=2)
    >>> data.codes[:, 0], data.states[0]
    (array([0, 1, 0], dtype=int16), ('x', 'y'))
    >>> check_data([[0.5, 1.0], [1.5, -2.0]]).names
    ('x0', 'x1')
    """
    if kind not in ("auto", "discrete", "gaussian", "mixed"):
        raise ValueError(f"kind must be 'auto', 'discrete', 'gaussian' or 'mixed', got {kind!r}.")
    if missing not in ("error", "allow"):
        raise ValueError(f"missing must be 'error' or 'allow', got {missing!r}.")
    if not 2 <= max_categories <= MAX_CATEGORIES:
        raise ValueError(
            f"max_categories must be between 2 and {MAX_CATEGORIES} (discrete codes are "
            f"16-bit integers), got {max_categories!r}."
        )
    if isinstance(X, CHECKED_DATA) and missing == "error" and X.has_missing:
        raise MissingValuesError(_missing_message(X.names, X.observed))
    if isinstance(X, MixedData):
        if kind in ("discrete", "gaussian"):
            want = "discrete" if kind == "discrete" else "continuous"
            other = np.flatnonzero(X.discrete if kind == "gaussian" else ~X.discrete)
            raise ValueError(
                f"All columns must be {want}, but columns "
                f"{_show([X.names[j] for j in other])} are not; use a score or test for "
                "mixed data (e.g. criterion='bic', ci_test='mi_cg')."
            )
        return X
    if kind == "mixed" and isinstance(X, (DiscreteData, GaussianData)):
        return _as_mixed(X)
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

    # from the dtypes, once per distinct dtype: taking each column as a Series costs tens of
    # seconds with a million columns
    by_dtype: dict = {}
    kinds = {}
    for name, dtype in frame.dtypes.items():
        if dtype not in by_dtype:
            by_dtype[dtype] = _column_kind(dtype)
        kinds[name] = by_dtype[dtype]
    bad = [n for n, k in kinds.items() if k == "unsupported"]
    if bad:
        raise TypeError(
            f"Columns {_show(bad)} have unsupported dtypes "
            f"({', '.join(sorted({str(frame[n].dtype) for n in bad}))}); "
            "use numeric, bool, string or categorical columns."
        )
    continuous = [n for n, k in kinds.items() if k == "continuous"]
    discrete = [n for n, k in kinds.items() if k == "discrete"]
    if not continuous:
        values = None
    elif not discrete:  # every column: no take (a frame of one block per column is slow)
        values = frame.to_numpy(dtype=np.float64)
    else:
        values = frame[continuous].to_numpy(dtype=np.float64)
    # discrete columns are encoded once, here; a -1 code marks a missing value
    encoded = {name: _factorize(name, frame[name]) for name in discrete}
    n_observed = {name: int((codes >= 0).sum()) for name, (codes, _) in encoded.items()}
    if continuous:
        n_observed.update(zip(continuous, (~np.isnan(values)).sum(axis=0).tolist()))
    if missing == "error":
        incomplete = [n for n in frame.columns if n_observed[n] < n_rows]
        if incomplete:
            raise MissingValuesError(_missing_message(incomplete))
    else:
        too_few = [n for n in frame.columns if n_observed[n] < 2]
        if too_few:
            raise ValueError(
                f"Columns {_show(too_few)} have fewer than 2 observed values (all the others "
                "are missing): nothing can be learned about them. Drop them."
            )
        sparse = [n for n in frame.columns if n_observed[n] < SPARSE_OBSERVED_FRACTION * n_rows]
        if sparse:
            counts = ", ".join(f"{n!r}: {n_observed[n]}" for n in sparse[:_MAX_NAMES_SHOWN])
            warnings.warn(
                f"Columns {_show(sparse)} are observed in fewer than "
                f"{SPARSE_OBSERVED_FRACTION:.0%} of the {n_rows} rows ({counts}); their "
                "families are learned from those rows only. Drop them unless they matter.",
                SparselyObservedWarning,
                stacklevel=stack_level(),
            )
    if continuous:
        bad_inf = [n for n, bad in zip(continuous, np.isinf(values).any(axis=0)) if bad]
        if bad_inf:
            raise ValueError(f"Columns {_show(bad_inf)} contain infinite values.")
        # covariances are sums of n products of deviations (each at most twice the largest
        # absolute value): they must fit in float64, without copying the data to check it
        if not len(values):
            top = bottom = np.zeros(len(continuous))
        elif all(n_observed[n] == n_rows for n in continuous):
            top, bottom = values.max(axis=0), values.min(axis=0)  # np.abs would copy the data
        else:
            top, bottom = np.nanmax(values, axis=0), np.nanmin(values, axis=0)
        largest = np.maximum(top, -bottom)
        limit = np.sqrt(np.finfo(np.float64).max / (4.0 * max(len(values), 1)))
        huge = [n for n, m in zip(continuous, largest) if m > limit]
        if huge:
            raise ValueError(
                f"Columns {_show(huge)} hold values so large (up to "
                f"{largest.max():.3g}) that their "
                "variance overflows float64. Rescale them first (e.g. sklearn.preprocessing."
                "StandardScaler, or divide by a power of ten); the learned structure does not "
                "depend on the scale of a column."
            )
        # and the squares of the deviations must stay normal numbers: below about 1e-146 a
        # column's variance and covariances lose their digits to underflow, and it reads as
        # constant
        spread = top - bottom
        least = np.sqrt(np.finfo(np.float64).tiny) * 2.0**26
        tiny = [n for n, d in zip(continuous, spread) if 0 < d < least]
        if tiny:
            raise ValueError(
                f"Columns {_show(tiny)} vary so little (by {spread[spread > 0].min():.3g} "
                "at most) that their variance underflows float64. Rescale them first (e.g. "
                "sklearn.preprocessing.StandardScaler, or multiply by a power of ten); the "
                "learned structure does not depend on the scale of a column."
            )

    if kind == "auto":
        kind = "mixed" if continuous and discrete else "gaussian" if continuous else "discrete"
        if kind in ("gaussian", "mixed"):
            _warn_if_codes(frame, continuous, values, mixed=kind == "mixed")

    names = tuple(frame.columns)
    if kind == "mixed":
        return _mixed_data(frame, names, continuous, discrete, values, encoded, max_categories)
    if kind == "discrete":
        # Integer-valued float columns are codes (KBinsDiscretizer(encode="ordinal") returns
        # them as floats): accepted when discrete data is asked for, never in "auto" mode.
        fractional = [
            n for n in continuous if not np.all(np.mod(frame[n].dropna().to_numpy(), 1) == 0)
        ]
        if fractional:
            raise ValueError(
                f"Discrete data is required, but columns {_show(fractional)} hold non-integer "
                "floats. Discretise them (sklearn.preprocessing.KBinsDiscretizer(encode="
                "'ordinal') in a Pipeline), or model them as continuous with a score or test "
                "for mixed data (criterion='bic', 'aic', 'ebic' or 'loglik'; ci_test='mi_cg')."
            )
        for n in continuous:
            encoded[n] = _factorize(n, frame[n].astype("Int64"))
        codes = np.empty((n_rows, n_cols), dtype=np.int16, order="F")
        states = []
        for j, name in enumerate(names):
            column, st = encoded[name]
            _check_categories(name, st, max_categories)
            codes[:, j] = column
            states.append(st)
        arities = np.array([len(s) for s in states], dtype=np.int64)
        _warn_if_many_integer_states(frame, discrete, encoded)
        _warn_if_identifiers(frame, discrete, encoded)
        return DiscreteData(codes, arities, tuple(states), names)

    if discrete:
        raise ValueError(
            f"Continuous (Gaussian) data is required, but columns {_show(discrete)} are "
            "discrete (categorical/object/bool/integer). Cast numeric ones with "
            "X.astype(float) (on the command line, --kind gaussian), or model both kinds "
            "with a score or test for mixed data "
            "(criterion='bic', 'aic', 'ebic' or 'loglik'; ci_test='mi_cg')."
        )
    return GaussianData(values, names)


def _mixed_data(frame, names, continuous, discrete, values, encoded, max_categories) -> MixedData:
    """Encode a frame with discrete and continuous columns as :class:`MixedData`."""
    n, p = frame.shape
    codes = np.zeros((n, p), dtype=np.int16, order="F")
    floats = np.zeros((n, p), dtype=np.float64, order="F")
    is_discrete = np.array([name in encoded for name in names], dtype=bool)
    states: list[tuple] = []
    position = {name: k for k, name in enumerate(continuous)}
    for j, name in enumerate(names):
        if is_discrete[j]:
            column, st = encoded[name]
            _check_categories(name, st, max_categories)
            codes[:, j] = column
            states.append(st)
        else:
            floats[:, j] = values[:, position[name]]
            states.append(())
    arities = np.array([len(s) if d else 1 for s, d in zip(states, is_discrete)], dtype=np.int64)
    _warn_if_many_integer_states(frame, discrete, encoded)
    _warn_if_identifiers(frame, discrete, encoded)
    return MixedData(codes, arities, tuple(states), floats, is_discrete, names)
