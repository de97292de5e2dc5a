# SPDX-License-Identifier: BSD-3-Clause
"""Record causal-learn's RCIT/RCoT and momentchi2's tails (the oracle of skbn's RCoT/RCIT).

Run from the repository root (needs causal-learn 0.1.4.8 and its momentchi2):

    python -m tests.data.make_rcit_oracle

Random Fourier features are random: to compare like for like, each case seeds NumPy's
global generator with ``seed`` before causal-learn draws its features, and the test
redraws the same features from ``numpy.random.RandomState(seed)`` in causal-learn's order
(the conditioning set's, then x's, then y's; weights, then offsets), so only the
statistic and the null's tail are compared. momentchi2's ``lpb4`` calls ``np.math``, gone
in NumPy 2: the recorder puts ``math`` there while it runs, so that the stored LPB values
are momentchi2's own (causal-learn, unpatched, falls back to HBE).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SIZES = [200, 500, 1000]
KINDS = ["independent", "chain", "nonlinear"]


def case_data(seed: int, n: int, kind: str, k: int) -> np.ndarray:
    """``n`` rows: x, y and ``k`` conditioning variables."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, max(k, 1)))
    s = z[:, :k].sum(axis=1) if k else z[:, 0]
    e = rng.normal(size=(n, 2))
    if kind == "independent":
        return np.column_stack([e[:, 0], e[:, 1], z[:, :k]])
    if kind == "chain":
        x = s + 0.5 * e[:, 0]
        return np.column_stack([x, x + 0.5 * e[:, 1], z[:, :k]])
    return np.column_stack([np.sin(2 * s) + 0.3 * e[:, 0], s**2 + 0.3 * e[:, 1], z[:, :k]])


def weight_sets(count: int = 60):
    """Random weights and quantiles of a weighted chi-square sum, body and tails."""
    rng = np.random.default_rng(7)
    for _ in range(count):
        w = rng.gamma(0.5, 1.0, size=int(rng.integers(4, 30))) + 1e-3
        q = w.sum() + math.sqrt(2 * np.sum(w**2)) * rng.uniform(-1.2, 5.0)
        if q > 0:
            yield w, float(q)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "rcit_oracle.json"))
    args = parser.parse_args()
    np.math = math  # momentchi2's lpb4 under NumPy 2
    import causallearn
    from causallearn.utils.RCIT.RCIT import RCIT, RIT
    from momentchi2 import hbe, lpb4, sw

    cases = []
    seed = 0
    for n in SIZES:
        for kind in KINDS:
            for k in (0, 1, 2):
                for rcit in (False, True) if k else (False,):
                    for approx in ("lpd4", "hbe", "gamma"):
                        seed += 1
                        data = case_data(seed, n, kind, k)
                        np.random.seed(seed)  # noqa: NPY002 - causal-learn draws from it
                        if k == 0:
                            p, sta = RIT(approx=approx).compute_pvalue(data[:, :1], data[:, 1:2])
                        else:
                            test = RCIT(approx=approx, rcit=rcit)
                            p, sta = test.compute_pvalue(data[:, :1], data[:, 1:2], data[:, 2:])
                        cases.append(
                            dict(
                                seed=seed,
                                n=n,
                                kind=kind,
                                k=k,
                                rcit=rcit,
                                approx=approx,
                                data_sum=float(data.sum()),
                                statistic=float(sta),
                                pvalue=float(p),
                            )
                        )
    tails = [
        dict(
            weights=w.tolist(),
            q=q,
            lpb4=float(1 - lpb4(w, q)),
            hbe=float(1 - hbe(w, q)),
            gamma=float(1 - sw(w, q)),
        )
        for w, q in weight_sets()
    ]
    meta = {
        "causal-learn": causallearn.__version__
        if hasattr(causallearn, "__version__")
        else "0.1.4.8",
        "numpy": np.__version__,
    }
    Path(args.out).write_text(
        json.dumps({"meta": meta, "cases": cases, "tails": tails}, indent=0), encoding="utf-8"
    )
    print(f"{len(cases)} cases, {len(tails)} tails -> {args.out}")


if __name__ == "__main__":
    main()
