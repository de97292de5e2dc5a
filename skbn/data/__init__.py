# SPDX-License-Identifier: BSD-3-Clause
# SPDX-License-Identifier: BSD-3-Clause
"""Validated, encoded data containers for structure learning.

Every learner, score and CI test in skbn works on one of two immutable views of the
user's data, produced once by :func:`check_data`:

* :class:`DiscreteData` -- integer codes ``0 .. r_j - 1`` per column, stored column-major
  (Fortran order) as ``int16`` so that the counting kernels read one variable contiguously,
  together with the arity and the original state labels of every column;
* :class:`GaussianData` -- ``float64`` values with their means, and the covariance and
  correlation matrices computed on first use (the sufficient statistics of Gaussian scores
  and of the Fisher-z test);
* :class:`MixedData` -- both, for a frame that mixes discrete and continuous columns: the
  codes of the discrete columns and the values of the continuous ones, each in a full-width
  array indexed by column position, with a mask saying which columns are discrete.

Column kinds follow pandas dtypes: categorical, object, string, bool and integer columns are
discrete; float columns are continuous. Nothing is silently coerced: a float column where a
discrete one is needed (or the reverse) is an error that names the column and says what to do.
The one exception: when discrete data is explicitly required, float columns holding only whole
numbers are read as codes, because that is what ``KBinsDiscretizer(encode="ordinal")`` returns.

The package is split by concern: ``_limits`` (the limits, warnings and errors), ``_containers``
(the three containers), ``_schema`` (:class:`DataSchema`, the one encoder of new rows),
``_check`` (:func:`check_data`) and ``_screen`` (the blocked correlation screen).
"""

from skbn.data._check import check_data
from skbn.data._containers import CHECKED_DATA as CHECKED_DATA  # for the learners
from skbn.data._containers import DiscreteData, GaussianData, MixedData
from skbn.data._limits import (
    DENSE_COVARIANCE_MAX,
    INTEGER_STATES_WARNING,
    MAX_CATEGORIES,
    ROWS_PER_PARAMETER,
    SPARSE_OBSERVED_FRACTION,
    DataKindWarning,
    FewRowsWarning,
    MissingValuesError,
    SparselyObservedWarning,
)
from skbn.data._schema import DataSchema, EncodedRows
from skbn.data._screen import thresholded_correlations as thresholded_correlations

__all__ = [
    "DENSE_COVARIANCE_MAX",
    "DataKindWarning",
    "DataSchema",
    "DiscreteData",
    "EncodedRows",
    "FewRowsWarning",
    "GaussianData",
    "INTEGER_STATES_WARNING",
    "MissingValuesError",
    "MixedData",
    "MAX_CATEGORIES",
    "ROWS_PER_PARAMETER",
    "SPARSE_OBSERVED_FRACTION",
    "SparselyObservedWarning",
    "check_data",
]

# the public classes keep the name users see in warnings, reprs and the documentation
for _cls in (
    DataKindWarning,
    DataSchema,
    DiscreteData,
    EncodedRows,
    FewRowsWarning,
    GaussianData,
    MissingValuesError,
    MixedData,
    SparselyObservedWarning,
):
    _cls.__module__ = "skbn.data"
del _cls
