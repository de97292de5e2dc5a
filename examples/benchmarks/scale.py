# SPDX-License-Identifier: BSD-3-Clause
"""Scale curve of Gaussian structure learning: 1,000 to 100,000 variables.

Problems are copies of ALARM joined by 10% random arcs, linear-Gaussian data (``make_problem``,
the Auto-SLE recipe), n = ``--n`` rows. Every (method, p, seed) runs in its own process, which
generates the data and fits; the parent samples the resident memory of that process and its
children every 0.2 s (the peak includes the data, n * p * 8 bytes) and stops it at
``--limit`` seconds. A peer that misses the limit at some p is not tried at larger p.

Methods: skbn's FGES and PEFLearner with their defaults, causal-learn's PC (Fisher-z,
stable) and GES (BIC), and XGES (``xges`` from PyPI, its default ``alpha=2``) where they
finish. XGES pins its own numpy and numba, so it runs in its own virtualenv
(``python -m venv .xges && .xges/bin/pip install xges``), named by ``--xges-python``; the
cell saves the data, the XGES process times its fit alone and returns its CPDAG. Times are
of the fit alone.

Usage (the commands behind examples/benchmarks/results/scale/scale.md)::

    python -m examples.benchmarks.scale --p 1000 2000 10000 --methods skbn-fges skbn-pef \
        xges --xges-python .xges/bin/python --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --p 1000 --seeds 0 --limit 300 \
        --methods causallearn-pc causallearn-ges --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --p 30000 --seeds 0 --limit 1200 \
        --methods skbn-fges skbn-pef xges --xges-python .xges/bin/python \\
        --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --p 100000 --seeds 0 --limit 2400 \
        --methods skbn-fges skbn-pef --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --p 1000 2000 --seeds 0 --limit 900 \
        --methods skbn-boss --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --p 5000 --seeds 0 --limit 1500 \
        --methods skbn-boss skbn-fges --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --p 10000 --seeds 0 --limit 3300 \
        --methods skbn-boss --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --report examples/benchmarks/results/scale/scale.csv \
        --page examples/benchmarks/results/scale/scale.md --note "$NOTE"
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from examples.benchmarks._results import ROOT, result_path, write_manifest

METHODS = ["skbn-fges", "skbn-pef", "skbn-boss", "causallearn-pc", "causallearn-ges", "xges"]
COLUMNS = [
    "method", "p_target", "n", "seed", "finished", "peak_gb", "seconds", "f1_adjacent",
    "f1_arrowhead", "shd", "edges", "true_arcs", "p", "limit", "error",
]  # fmt: skip
LABELS = {
    "skbn-fges": "skbn FGES()",
    "skbn-boss": "skbn BOSS()",
    "skbn-pef": "skbn PEFLearner()",
    "causallearn-pc": "causal-learn pc(fisherz, stable)",
    "causallearn-ges": "causal-learn ges(BIC)",
    "xges": "XGES(alpha=2) (xges 0.1.6, Python)",
}
#: run inside XGES's virtualenv: fit on the saved data, print the seconds, save the CPDAG
_XGES_SCRIPT = """
import json, sys, time
import numpy as np
from xges import XGES
X = np.load(sys.argv[1])
start = time.perf_counter()
model = XGES()
pdag = model.fit(X, verbose=0)
seconds = time.perf_counter() - start
np.save(sys.argv[2], pdag.to_adjacency_matrix().astype(np.int8))
print(json.dumps({"seconds": seconds}))
"""


def _causallearn_graph(G, names):
    from skbn.graph import from_adjacency

    G = np.asarray(G)
    p = len(names)
    A = np.zeros((p, p), dtype=np.int8)
    tail = G == -1
    head = G == 1
    # causal-learn: G[i, j] == -1 and G[j, i] == 1 is i -> j; -1 both ways is i - j
    A[tail & head.T] = 1
    both = tail & tail.T
    A[both] = 1
    return from_adjacency(A, names, kind="pdag")


def cell(method: str, p: int, n: int, seed: int) -> dict:
    """Generate the problem and fit one method; the measurements of the fit."""
    from skbn.datasets import make_problem
    from skbn.metrics import f1_adjacency, f1_arrowhead, shd

    X, truth = make_problem("alarm", n_nodes=p, n_samples=n, random_state=seed)
    seconds = None
    start = time.perf_counter()
    if method == "skbn-fges":
        from skbn.learners import FGES

        graph = FGES().fit(X).graph_
    elif method == "skbn-boss":
        from skbn.learners import BOSS

        graph = BOSS(random_state=seed).fit(X).graph_
    elif method == "skbn-pef":
        from skbn.ensemble import PEFLearner

        graph = PEFLearner(random_state=seed).fit(X).graph_
    elif method == "causallearn-pc":
        from causallearn.search.ConstraintBased.PC import pc

        cg = pc(X.to_numpy(), 0.05, indep_test="fisherz", stable=True, show_progress=False)
        graph = _causallearn_graph(cg.G.graph, list(X.columns))
    elif method == "causallearn-ges":
        from causallearn.search.ScoreBased.GES import ges

        record = ges(X.to_numpy(), score_func="local_score_BIC")
        graph = _causallearn_graph(record["G"].graph, list(X.columns))
    elif method == "xges":
        from skbn.graph import from_adjacency

        python = os.environ.get("SKBN_XGES_PYTHON")
        if not python:
            raise ValueError("xges needs --xges-python (the python of a virtualenv with xges)")
        with tempfile.TemporaryDirectory() as tmp:
            np.save(Path(tmp, "X.npy"), X.to_numpy())
            done = subprocess.run(
                [python, "-c", _XGES_SCRIPT, str(Path(tmp, "X.npy")), str(Path(tmp, "A.npy"))],
                capture_output=True,
                text=True,
                check=True,
            )
            A = np.load(Path(tmp, "A.npy"))
        # XGES returns its CPDAG: A[i, j] = 1 alone is i -> j, both ways is i - j
        graph = from_adjacency(A, list(X.columns), kind="cpdag")
        seconds = json.loads(done.stdout.strip().splitlines()[-1])["seconds"]
    else:
        raise ValueError(f"unknown method {method!r}; choose from {METHODS}")
    if seconds is None:  # XGES times itself, without saving and loading the data
        seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "f1_adjacent": f1_adjacency(truth, graph),
        "f1_arrowhead": f1_arrowhead(truth, graph),
        "shd": shd(truth, graph),
        "edges": graph.number_of_edges(),
        "true_arcs": truth.number_of_edges(),
        "p": X.shape[1],
    }


def run_cell(method, p, n, seed, limit) -> dict:
    """Run :func:`cell` in a child process, sampling its tree's memory; None values on a miss."""
    import psutil

    # as a module from the repository root: the script imports the examples package
    cmd = [sys.executable, "-m", __spec__.name, "--cell", method, str(p), str(n), str(seed)]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )
    root = psutil.Process(proc.pid)
    peak, start = 0, time.perf_counter()
    while proc.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
            peak = max(peak, sum(q.memory_info().rss for q in tree))
        except psutil.Error:
            pass
        if time.perf_counter() - start > limit:
            for q in [*root.children(recursive=True), root]:
                try:
                    q.kill()
                except psutil.Error:
                    pass
            proc.wait()
            return {"finished": False, "peak_gb": peak / 1e9}
        time.sleep(0.2)
    out, err = proc.communicate()
    if proc.returncode != 0:
        print(err[-2000:], file=sys.stderr)
        return {"finished": False, "peak_gb": peak / 1e9, "error": err.strip().splitlines()[-1]}
    return {"finished": True, "peak_gb": peak / 1e9, **json.loads(out.strip().splitlines()[-1])}


def grid(args) -> None:
    out = Path(args.out)
    done, failed = set(), set()
    if out.exists():
        old = pd.read_csv(out)
        done = set(zip(old.method, old.p_target, old.seed))
        failed = {(m, p) for m, p, f in zip(old.method, old.p_target, old.finished) if not f}
    for p in args.p:
        for method in args.methods:
            if any(m == method and q <= p for m, q in failed):
                continue  # missed the limit at a smaller p
            for seed in args.seeds:
                if (method, p, seed) in done:
                    continue
                result = run_cell(method, p, args.n, seed, args.limit)
                row = {"method": method, "p_target": p, "n": args.n, "seed": seed, **result}
                row["limit"] = args.limit
                # one column order for every row, finished or not (rows are appended)
                frame = pd.DataFrame([row]).reindex(columns=COLUMNS)
                frame.to_csv(out, mode="a", header=not out.exists(), index=False)
                print(json.dumps(row), flush=True)
                if not result["finished"]:
                    failed.add((method, p))
                    break


def _usage_commands() -> list:
    """The commands of the module docstring's usage block, one line each."""
    block = __doc__.split("::", 1)[1].strip()
    return [" ".join(cmd.split()) for cmd in block.replace("\\\n", " ").splitlines()]


def report(csv: Path, page: Path, note: str = "") -> None:
    """Write the scale page and its figure from the CSV."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = pd.read_csv(csv)
    ok = table[table.finished.astype(bool)]
    stats = ok.groupby(["method", "p_target"]).agg(
        p=("p", "first"),
        seeds=("seed", "size"),
        seconds=("seconds", "mean"),
        seconds_sd=("seconds", "std"),
        peak_gb=("peak_gb", "max"),
        f1_adjacent=("f1_adjacent", "mean"),
        f1_adjacent_sd=("f1_adjacent", "std"),
        f1_arrowhead=("f1_arrowhead", "mean"),
        shd=("shd", "mean"),
        edges=("edges", "mean"),
        true_arcs=("true_arcs", "first"),
    )
    lines = [
        "# Scale: 1,000 to 100,000 Gaussian variables",
        "",
        "Copies of ALARM joined by 10% random arcs, linear-Gaussian data, n = "
        f"{int(table.n.iloc[0])}; every fit in its own process on a 2-core machine; time is "
        "the fit alone; peak memory is the process tree's resident memory sampled every "
        "0.2 s, data included. Means over the seeds run (sd in brackets). " + note,
        "",
        "| method | p | seeds | seconds | peak GB | F1-adjacent | F1-arrowhead | SHD | "
        "edges (true) | time / skbn FGES |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (method, p_target), r in stats.iterrows():
        base = (
            stats.loc[("skbn-fges", p_target), "seconds"]
            if (
                "skbn-fges",
                p_target,
            )
            in stats.index
            else np.nan
        )
        sd = 0.0 if np.isnan(r.seconds_sd) else r.seconds_sd
        f1sd = 0.0 if np.isnan(r.f1_adjacent_sd) else r.f1_adjacent_sd
        lines.append(
            f"| {LABELS[method]} | {int(r.p):,} | {int(r.seeds)} | {r.seconds:,.1f} ({sd:.1f}) | "
            f"{r.peak_gb:.2f} | {r.f1_adjacent:.3f} ({f1sd:.3f}) | {r.f1_arrowhead:.3f} | "
            f"{r.shd:,.0f} | {r.edges:,.0f} ({int(r.true_arcs):,}) | {r.seconds / base:.2f} |"
        )
    both = [
        p
        for p in sorted(stats.index.get_level_values("p_target").unique())
        if ("skbn-fges", p) in stats.index and ("skbn-pef", p) in stats.index
    ]
    if both:
        lines += ["", "## Does PEF pay off?", ""]
        for p in both:
            f, e = stats.loc[("skbn-fges", p)], stats.loc[("skbn-pef", p)]
            lines.append(
                f"- p = {int(f.p):,}: PEFLearner() takes {e.seconds / f.seconds:.1f}x the time "
                f"of one FGES() on all variables, with F1-adjacent {e.f1_adjacent:.3f} against "
                f"{f.f1_adjacent:.3f} ({e.f1_adjacent - f.f1_adjacent:+.3f}) and peak memory "
                f"{e.peak_gb:.1f} GB against {f.peak_gb:.1f} GB."
            )
    missed = table[~table.finished.astype(bool)]
    if len(missed):
        lines += ["", "Did not finish within the limit (and so were not tried at larger p):", ""]
        for r in missed.itertuples():
            why = getattr(r, "error", None)
            extra = f" ({why})" if isinstance(why, str) else f" ({r.limit:.0f} s limit"
            if not isinstance(why, str) and ("skbn-fges", r.p_target) in stats.index:
                ours = stats.loc[("skbn-fges", r.p_target), "seconds"]
                extra += f"; more than {r.limit / ours:.0f}x skbn FGES()'s {ours:.1f} s"
            extra += "" if isinstance(why, str) else ")"
            lines.append(f"- {LABELS[r.method]} at p = {r.p_target:,}, seed {r.seed}{extra}")
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for method, sub in stats.groupby(level="method"):
        ps = sub["p"].to_numpy()
        axes[0].loglog(ps, sub["seconds"], marker="o", label=LABELS[method])
        axes[1].loglog(ps, sub["peak_gb"], marker="o", label=LABELS[method])
        axes[2].semilogx(ps, sub["f1_adjacent"], marker="o", label=LABELS[method])
    for ax, label in zip(axes, ["seconds", "peak GB (process tree)", "F1-adjacent"]):
        ax.set_xlabel("variables")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    figure = page.with_name(page.stem + ".png")
    fig.savefig(figure, dpi=110)
    lines += ["", f"![Time, memory and F1-adjacent against the number of variables]({figure.name})"]
    # the findings first, the commands that made them last
    lines += ["", "## How to regenerate", "", "```bash", *_usage_commands(), "```"]
    page.write_text("\n".join(lines) + "\n")
    write_manifest(page)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cell", nargs=4, metavar=("METHOD", "P", "N", "SEED"))
    parser.add_argument("--methods", nargs="+", default=METHODS, choices=METHODS)
    parser.add_argument("--p", nargs="+", type=int, default=[1000, 2000, 10000, 30000, 100000])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1])
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per fit")
    parser.add_argument("--out", default=result_path("scale", "scale.csv"))
    parser.add_argument("--report", type=Path, help="write the page from this CSV, run nothing")
    parser.add_argument("--page", type=Path, default=result_path("scale"))
    parser.add_argument("--note", default="", help="a sentence on the run's conditions")
    parser.add_argument("--xges-python", help="python of a virtualenv where xges is installed")
    args = parser.parse_args(argv)
    if args.xges_python:
        os.environ["SKBN_XGES_PYTHON"] = str(Path(args.xges_python).absolute())
    if args.cell:
        method, p, n, seed = args.cell
        print(json.dumps(cell(method, int(p), int(n), int(seed))))
        return
    if args.report:
        report(args.report, args.page, args.note)
        return
    grid(args)


if __name__ == "__main__":
    main()
