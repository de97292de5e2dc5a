# SPDX-License-Identifier: BSD-3-Clause
"""Record causal-learn's KCI statistics and p-values (the oracle of ``skbn.ci_tests.KCI``).

Run from the repository root (needs causal-learn 0.1.4.8):

    python -m tests.data.make_kci_oracle

Each case draws a small continuous data set from ``numpy.random.default_rng(seed)`` by
:func:`case_data` (independent noise, linear, and nonlinear chains and forks through the
conditioning variables, 100 to 600 rows, so both of the authors' sample-size width rules
are met), standardises it, and tests its first column against its second given the next
``k`` (``k`` from 0 to 3) with causal-learn's ``KCI_UInd`` / ``KCI_CInd`` under the Gamma
null, at the empirical width rule, the median rule or a fixed width. The statistic and
p-value are written to ``kci_oracle.json`` with the sum of the data, so that a change of
numpy's generator shows as a failed check rather than as a wrong comparison.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from scipy import stats

HERE = Path(__file__).resolve().parent
SIZES = [100, 150, 250, 400, 600]
KINDS = ["independent", "linear", "nonlinear", "fork"]
WIDTHS = ["empirical", "median", 0.8]


def case_data(seed: int, n: int, kind: str, k: int) -> np.ndarray:
    """``n`` rows: columns x, y and ``k`` conditioning variables (plus nothing else)."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, max(k, 1)))
    s = z[:, :k].sum(axis=1) if k else z[:, 0]
    e = rng.normal(size=(n, 2))
    if kind == "independent":
        x, y = e[:, 0], e[:, 1]
    elif kind == "linear":
        x = s + e[:, 0]
        y = 0.5 * x + e[:, 1] if k == 0 else s + e[:, 1]
    elif kind == "nonlinear":
        x = np.sin(2 * s) + 0.3 * e[:, 0]
        y = (x**2 if k == 0 else s**2) + 0.3 * e[:, 1]
    else:  # fork with a direct dependence left: x -> y besides the common cause
        x = np.tanh(s) + 0.5 * e[:, 0]
        y = np.cos(s) + 0.6 * x + 0.5 * e[:, 1]
    return np.column_stack([x, y, z[:, :k]])


def cases() -> list[dict]:
    out = []
    seed = 0
    for n in SIZES:
        for kind in KINDS:
            for k in range(4):
                for width in WIDTHS:
                    out.append({"seed": seed, "n": n, "kind": kind, "k": k, "width": width})
                    seed += 1
    return out


def record(case: dict) -> dict:
    from causallearn.utils.KCI.KCI import KCI_CInd, KCI_UInd

    raw = case_data(case["seed"], case["n"], case["kind"], case["k"])
    # causal-learn's unconditional median rule reads the data before standardising it, its
    # other rules after; handing it standardised data makes every width the same as skbn's
    data = stats.zscore(raw, ddof=1, axis=0)
    width = case["width"]
    options = {"est_width": width} if isinstance(width, str) else {"est_width": "manual"}
    if case["k"] == 0:
        if not isinstance(width, str):
            options.update(kwidthx=width, kwidthy=width)
        pvalue, statistic = KCI_UInd(**options).compute_pvalue(data[:, [0]], data[:, [1]])
    else:
        if not isinstance(width, str):
            options.update(kwidthx=width, kwidthy=width, kwidthz=width)
        pvalue, statistic = KCI_CInd(**options).compute_pvalue(
            data[:, [0]], data[:, [1]], data[:, 2:]
        )
    return {
        **case,
        "data_sum": float(raw.sum()),
        "statistic": float(statistic),
        "pvalue": float(pvalue),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "kci_oracle.json"))
    args = parser.parse_args()
    from importlib.metadata import version

    records = [record(case) for case in cases()]
    payload = {
        "source": f"causal-learn {version('causal-learn')}, Gamma null",
        "cases": records,
    }
    Path(args.out).write_text(json.dumps(payload, indent=1) + "\n")
    print(f"{len(records)} cases -> {args.out}")


if __name__ == "__main__":
    main()
