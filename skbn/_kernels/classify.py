# SPDX-License-Identifier: BSD-3-Clause
"""The class posterior of a discrete Bayesian network, row by row.

Only the families that hold the class (its own and its children's) depend on its value, so
``log p(c, x) = const + sum over those families of log P(x_j | pa_j)`` with the class set to
``c``. The families come flattened in a :data:`Families` tuple: ``nodes[f]`` is a family's
child, its parents are ``parents[parent_ptr[f]:parent_ptr[f + 1]]`` with mixed-radix
``strides`` (the first parent most significant, as
:func:`skbn._kernels.discrete.config_index`), and its ``(q, r[f])`` table of
log-probabilities is ``tables[table_ptr[f]:table_ptr[f + 1]]`` in C order.
"""

from collections import namedtuple

import numpy as np
from numba import njit, prange

#: The class's families, flattened (see the module's docstring).
Families = namedtuple(
    "Families", ["nodes", "parent_ptr", "parents", "strides", "table_ptr", "tables", "r"]
)


@njit(cache=True, nogil=True, inline="always")
def _family_value(codes, i, target, c, f, families):
    parent_ptr, parents, strides = families.parent_ptr, families.parents, families.strides
    j = families.nodes[f]
    index = 0
    for m in range(parent_ptr[f], parent_ptr[f + 1]):
        k = parents[m]
        v = c if k == target else codes[i, k]
        index += v * strides[m]
    x = c if j == target else codes[i, j]
    return families.tables[families.table_ptr[f] + index * families.r[f] + x]


@njit(cache=True, nogil=True, inline="always")
def _row_joint(codes, i, target, out, families):
    """Fill ``out[i]``, leaving out families impossible under every class.

    Such a family (a zero of a maximum-likelihood table) says nothing about the class.
    """
    n_classes = out.shape[1]
    for c in range(n_classes):
        out[i, c] = 0.0
    for f in range(families.nodes.shape[0]):
        possible = False
        for c in range(n_classes):
            if _family_value(codes, i, target, c, f, families) > -np.inf:
                possible = True
                break
        if not possible:
            continue
        for c in range(n_classes):
            out[i, c] += _family_value(codes, i, target, c, f, families)


@njit(cache=True, nogil=True)
def class_log_joint_serial(codes, target, n_classes, families):
    """:func:`class_log_joint` on the calling thread."""
    n = codes.shape[0]
    out = np.empty((n, n_classes))
    for i in range(n):
        _row_joint(codes, i, target, out, families)
    return out


@njit(cache=True, parallel=True)
def class_log_joint(codes, target, n_classes, families):
    """``out[i, c]``: log of the class's families at row ``i`` with the class set to ``c``.

    Rows run on numba's threads; the result equals :func:`class_log_joint_serial`'s.
    """
    n = codes.shape[0]
    out = np.empty((n, n_classes))
    for i in prange(n):
        _row_joint(codes, i, target, out, families)
    return out
