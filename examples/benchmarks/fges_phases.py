# SPDX-License-Identifier: BSD-3-Clause
"""Where FGES's time goes as p grows, and the pairs that pass its screen by chance.

``FGES()`` on ALARM copies (``make_problem``, n = ``--n`` rows, seed 0), each size in its
own process after compiling the kernels on a 60-variable problem. Times the three phases
of the fit (the screen that finds the effect edges, the forward rounds, the backward
rounds) and counts the effect edges: the pairs whose single arc raises the score. A pair
of independent variables passes with probability ``P(|r| >= r_min)`` (``r_min`` from the
score's one-parameter penalty; the exact null law of the sample correlation, a t law on
``n - 2`` degrees of freedom), so such chance pairs number that probability times
``p (p - 1) / 2``. Under BIC the probability is fixed and they would grow as ``p**2``;
under the default Gaussian score, extended BIC with ``gamma = 1``, the penalty grows with
``log p`` and they stay few. The page projects both to a million variables. Run::

    python -m examples.benchmarks.fges_phases --p 2000 10000 30000 100000 \\
        --out examples/benchmarks/results/fges_phases/fges_phases.md

(about 8 minutes on 2 cores; most of it the 100,000-variable fit).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from examples.benchmarks._results import write_manifest

#: scores whose chance pairs the page tabulates: (label, gamma, penalty discount); FGES's
#: default on Gaussian data is extended BIC with gamma = 1 (``GaussianEBIC(gamma=1.0)``)
SCORES = (
    ("extended BIC, gamma 1 (the default)", 1.0, 1.0),
    ("extended BIC, gamma 0.5", 0.5, 1.0),
    ("BIC", 0.0, 1.0),
    ("BIC, penalty discount 2", 0.0, 2.0),
)


def chance_fraction(n: int, p: int, gamma: float = 1.0, discount: float = 1.0) -> tuple:
    """``(r_min, P(|r| >= r_min))`` for two independent Gaussian columns of n rows, under
    a penalty of ``discount * log(n) / 2 + gamma * log(p)`` per free parameter."""
    from scipy import stats

    per_param = discount * math.log(n) / 2.0 + gamma * math.log(p)
    r_min = math.sqrt(-math.expm1(-2.0 * per_param / n))
    t = r_min * math.sqrt(n - 2) / math.sqrt(1.0 - r_min**2)
    return r_min, float(2.0 * stats.t.sf(t, n - 2))


def measure(p: int, n: int) -> dict:
    """One FGES fit with its phases timed (run in a child process)."""
    from skbn.data import _screen
    from skbn.datasets import make_problem
    from skbn.learners import FGES, _fges
    from skbn.metrics import f1_adjacency

    spent = {"effect_edges": 0.0, "fes": 0.0, "bes": 0.0}
    counted = {}

    def timed(name):
        method = getattr(_fges._Search, name)

        def run(self, *args, **kwargs):
            start = time.perf_counter()
            out = method(self, *args, **kwargs)
            spent[name] += time.perf_counter() - start
            if name == "effect_edges":
                counted["neighbours"] = int(out[0][-1])
            return out

        setattr(_fges._Search, name, run)

    small, _ = make_problem("alarm", n_nodes=60, n_samples=200, random_state=0)
    FGES().fit(small)  # compile (or load) the kernels first
    for name in spent:
        timed(name)
    X, truth = make_problem("alarm", n_nodes=p, n_samples=n, random_state=0)
    start = time.perf_counter()
    model = FGES().fit(X)
    seconds = time.perf_counter() - start
    return {
        "p": X.shape[1],
        "n": n,
        "seconds": seconds,
        "screen_s": spent["effect_edges"],
        "forward_s": spent["fes"],
        "backward_s": spent["bes"],
        "effect_pairs": counted["neighbours"] // 2,
        "edges": model.graph_.number_of_edges(),
        "f1_adjacent": f1_adjacency(truth, model.graph_),
        # whether the screen could multiply in bfloat16 on AMX tiles (skbn[amx])
        "bfloat16": _screen.bfloat16_product() is not None,
    }


def report(rows: pd.DataFrame, page: Path) -> None:
    n = int(rows.n.iloc[0])
    amx = bool(rows.get("bfloat16", pd.Series([False])).fillna(False).astype(bool).any())
    products = (
        "bfloat16 products on AMX tiles from 16,384 variables (PyTorch installed)"
        if amx
        else "single-precision products (PyTorch not installed: no bfloat16 tiles)"
    )
    lines = [
        "# FGES: where the time goes, and the pairs that pass by chance",
        "",
        f"`FGES()` with its defaults on ALARM copies, n = {n}, seed 0, one fit per size in "
        "its own process on this 2-core machine, after compiling the kernels. The screen "
        "finds the effect edges (pairs whose single arc raises the score); the forward "
        "and backward columns are FGES's rounds. Expected chance pairs: P(|r| >= r_min) "
        "for two independent columns (the default score's one-parameter penalty, "
        "log(n)/2 + log(p); the sample correlation's exact null law) times p(p-1)/2. "
        f"The screen ran with {products}.",
        "",
        "| p | fit s | screen s | forward s | backward s | effect pairs | per variable | "
        "expected by chance | edges | F1-adjacent |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows.sort_values("p").itertuples():
        chance = chance_fraction(n, r.p)[1] * r.p * (r.p - 1) / 2
        lines.append(
            f"| {r.p:,} | {r.seconds:.1f} | {r.screen_s:.1f} | {r.forward_s:.1f} | "
            f"{r.backward_s:.1f} | {r.effect_pairs:,} | {r.effect_pairs / r.p:.1f} | "
            f"{chance:,.0f} | {r.edges:,} | {r.f1_adjacent:.3f} |"
        )
    lines += [
        "",
        "## The chance pairs at a million variables",
        "",
        "The effect edges are held as compressed rows of 4-byte neighbours, both ways "
        "(8 bytes a pair), and the forward phase rescores a variable's effect neighbours "
        "each time its parents change, so chance pairs cost memory and time. By score, at "
        f"n = {n}:",
        "",
        "| score | r_min at 100,000 | chance pairs at 100,000 | r_min at 1,000,000 | "
        "chance pairs at 1,000,000 | their effect lists |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, gamma, discount in SCORES:
        r1, f1 = chance_fraction(n, 100_000, gamma, discount)
        r2, f2 = chance_fraction(n, 1_000_000, gamma, discount)
        at_1m = f2 * 1_000_000 * 999_999 / 2
        lines.append(
            f"| {label} | {r1:.4f} | {f1 * 100_000 * 99_999 / 2:,.0f} | {r2:.4f} | "
            f"{at_1m:,.0f} | {8 * at_1m / 1e9:,.3g} GB |"
        )
    lines += [
        "",
        "## How to regenerate",
        "",
        "```bash",
        "python -m examples.benchmarks.fges_phases --p 2000 10000 30000 100000 "
        "--out examples/benchmarks/results/fges_phases/fges_phases.md",
        "```",
    ]
    page.write_text("\n".join(lines) + "\n")
    write_manifest(page)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--p", type=int, nargs="+", default=[2000, 10000, 30000, 100000])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--out", type=Path, required=True, help="the page (.md)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--report", action="store_true", help="rewrite the page from its CSV")
    args = parser.parse_args(argv)
    if args.report:
        report(pd.read_csv(args.out.with_suffix(".csv")), args.out)
        return
    if args.one is not None:
        print(json.dumps(measure(args.one, args.n)))
        return
    rows = []
    for p in args.p:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "examples.benchmarks.fges_phases",
                "--one",
                str(p),
                "--n",
                str(args.n),
                "--out",
                str(args.out),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(json.dumps(rows[-1]), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table = pd.DataFrame(rows)
    table.to_csv(args.out.with_suffix(".csv"), index=False)
    report(table, args.out)


if __name__ == "__main__":
    main()
