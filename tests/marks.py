# SPDX-License-Identifier: BSD-3-Clause
"""Random endpoint matrices for the tests of the PAG kernels."""

import itertools

import numpy as np

from skbn.graph import ARROW, CIRCLE, TAIL


def random_marks(rng: np.random.Generator, p: int, density: float, probs) -> np.ndarray:
    """A ``p x p`` endpoint matrix: each pair adjacent with probability ``density``.

    Its two marks are drawn independently from arrowhead, tail and circle with the
    probabilities ``probs``; the result need not be a legal PAG.
    """
    M = np.zeros((p, p), dtype=np.int8)
    for u, v in itertools.combinations(range(p), 2):
        if rng.random() < density:
            M[u, v], M[v, u] = rng.choice([ARROW, TAIL, CIRCLE], 2, p=probs)
    return M
