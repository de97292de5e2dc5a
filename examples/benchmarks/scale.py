# SPDX-License-Identifier: BSD-3-Clause
"""Scale curve of Gaussian structure learning: 1,000 to 100,000 variables.

Problems are copies of ALARM joined by 10% random arcs, linear-Gaussian data (``make_problem``,
the Auto-SLE recipe), n = ``--n`` rows. Every (method, p, seed) runs in its own process, which
generates the data and fits; the parent samples the resident memory of that process and its
children every 0.2 s (the peak includes the data, n * p * 8 bytes) and stops it at
``--limit`` seconds. A peer that misses the limit at some p is not tried at larger p.
A cell that finished or missed the limit is a row of ``--out``, so a run stopped part-way
resumes where it stopped (a cell that ended on an error runs again), and with
``--checkpoint`` FGES's correlation screen is saved block by block, so that a fit stopped
part-way (a million variables take longer than a session) resumes its screen where it
stopped, its earlier blocks' seconds added to the fit's time;
``--log`` names a file where each cell writes its progress as it goes (the phases of a long
FGES fit, with the process's memory).

Methods: skbn's FGES and PEFLearner with their defaults, causal-learn's PC (Fisher-z,
stable) and GES (BIC), and XGES (``xges`` from PyPI, its default ``alpha=2``) where they
finish. XGES pins its own numpy and numba, so it runs in its own virtualenv
(``python -m venv .xges && .xges/bin/pip install xges``), named by ``--xges-python``; the
cell saves the data, the XGES process times its fit alone and returns its CPDAG. Times are
of the fit alone.

The ``skbn-fges-int8`` rows run in a virtualenv with ``pip install -e .[amx]`` (PyTorch) on
a CPU without AMX tiles (``skbn-fges-amx``: with them).

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
    python -m examples.benchmarks.scale --graph er4 --p 2000 5000 10000 --seeds 0 \
        --limit 1200 --methods skbn-boss skbn-fges \
        --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --graph sf4 --p 2000 5000 --seeds 0 \
        --limit 1200 --methods skbn-boss skbn-fges \
        --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --graph sf4 --p 10000 --seeds 0 \
        --limit 5400 --methods skbn-boss --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --p 1000000 --seeds 0 --limit 9000 \
        --methods skbn-fges-int8 --log scale_1m.log --checkpoint scale_1m_screen \
        --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --p 10000 30000 100000 --seeds 0 --limit 1200 \
        --methods skbn-fges-int8 --out examples/benchmarks/results/scale/scale.csv
    python -m examples.benchmarks.scale --report examples/benchmarks/results/scale/scale.csv \
        --page examples/benchmarks/results/scale/scale.md --note "$NOTE"
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd

from examples.benchmarks._results import ROOT, result_path, write_manifest

METHODS = [
    "skbn-fges",
    "skbn-fges-amx",
    "skbn-fges-int8",
    "skbn-pef",
    "skbn-boss",
    "causallearn-pc",
    "causallearn-ges",
    "xges",
]
COLUMNS = [
    "method",
    "p_target",
    "n",
    "seed",
    "finished",
    "peak_gb",
    "seconds",
    "f1_adjacent",
    "f1_arrowhead",
    "shd",
    "edges",
    "true_arcs",
    "p",
    "limit",
    "error",
    "graph",
]
#: workloads: ALARM copies (the main table), random DAGs of average degree 4 (BOSS's table)
GRAPHS = {
    "alarm": "ALARM copies",
    "er4": "Erdos-Renyi, degree 4",
    "sf4": "scale-free, degree 4",
}
LABELS = {
    "skbn-fges": "skbn FGES()",
    "skbn-fges-amx": "skbn FGES(), skbn[amx]",
    "skbn-fges-int8": "skbn FGES(), skbn[amx] without AMX (int8 screen)",
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


def problem(graph: str, p: int, n: int, seed: int):
    """The data and true DAG of a workload: ALARM copies, or a random DAG of average degree 4
    (Erdos-Renyi ``er4`` or scale-free ``sf4``) with linear-Gaussian data, standardised (as
    on the BOSS page)."""
    from skbn.datasets import (
        make_erdos_renyi_dag,
        make_linear_gaussian,
        make_problem,
        make_scale_free_dag,
    )

    if graph == "alarm":
        return make_problem("alarm", n_nodes=p, n_samples=n, random_state=seed)
    make = {"er4": make_erdos_renyi_dag, "sf4": make_scale_free_dag}[graph]
    dag = make(p, 2 * p, random_state=seed)
    X = make_linear_gaussian(dag, random_state=seed).sample(n, random_state=seed)
    return (X - X.mean()) / X.std(), dag


def _progress(message: str) -> None:
    """A time-stamped line on stderr (the grid's log), with this process's memory."""
    import psutil

    rss = psutil.Process().memory_info().rss / 1e9
    print(f"{time.strftime('%H:%M:%S')} {message} (RSS {rss:.2f} GB)", file=sys.stderr, flush=True)


def cell(method: str, p: int, n: int, seed: int, workload: str = "alarm") -> dict:
    """Generate the problem and fit one method; the measurements of the fit."""
    from skbn.metrics import f1_adjacency, f1_arrowhead, shd

    _progress(f"{method}, {workload}, p = {p:,}, seed {seed}: generating the data")
    X, truth = problem(workload, p, n, seed)
    if method.startswith("skbn-"):
        # compile the kernels first (once per install, from numba's cache after): the time
        # below is the fit's alone, whether or not this process found them compiled
        small, _ = problem(workload, 60, 200, seed)
        _fit(method, small, seed)
    # the true DAG waits for the scoring as its arc list: a networkx graph of a million
    # nodes is over a gigabyte, which the fit's peak memory should not carry
    nodes, arcs = list(truth.nodes), list(truth.edges)
    del truth
    gc.collect()
    _progress(f"{X.shape[1]:,} variables, {X.shape[0]:,} rows: fitting")
    seconds = None
    spent = []  # seconds of the screen's blocks saved by an earlier run of this cell
    start = time.perf_counter()
    checkpoint = os.environ.get("SKBN_SCALE_CHECKPOINT")
    if checkpoint and method in ("skbn-fges-int8", "skbn-fges"):
        from unittest import mock

        from skbn.data import _containers

        precision, block = ("int8", 2048) if method == "skbn-fges-int8" else ("single", 1024)
        where = Path(checkpoint) / f"{method}-{workload}-{p}-{seed}"
        screen = _checkpointed_screen(where, precision, block, spent)
        with mock.patch.object(_containers, "thresholded_correlations", screen):
            graph = _fit(method, X, seed, verbose=True)
    elif method.startswith("skbn-"):
        graph = _fit(method, X, seed, verbose=True)
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
        seconds = time.perf_counter() - start + sum(spent)
    _progress(f"fitted in {seconds:.1f} s ({sum(spent):.0f} s of it by earlier runs); scoring")
    truth = nx.DiGraph()
    truth.add_nodes_from(nodes)
    truth.add_edges_from(arcs)
    return {
        "seconds": seconds,
        "f1_adjacent": f1_adjacency(truth, graph),
        "f1_arrowhead": f1_arrowhead(truth, graph),
        "shd": shd(truth, graph),
        "edges": graph.number_of_edges(),
        "true_arcs": truth.number_of_edges(),
        "p": X.shape[1],
    }


def _checkpointed_screen(directory: Path, precision: str, block: int, spent: list):
    """A stand-in for the correlation screen that saves each block of rows in ``directory``.

    Run again on the same data (the cell regenerates it from its seed), it loads the
    blocks saved and screens from the first block not saved, so a screen longer than a
    session goes on in the next. ``spent`` receives the seconds the loaded blocks took
    when they ran, which the cell adds to the fit's time. ``precision`` and ``block`` are
    fixed so that every run cuts the same blocks with the same products.
    """
    from skbn.data._screen import screen_blocks

    def screen(Z, r_min, block_=None, scale=None, precision_="auto", means=None):
        directory.mkdir(parents=True, exist_ok=True)
        saved = {}
        for path in sorted(directory.glob("rows_*.npz")):
            with np.load(path) as f:
                if float(f["r_min"]) != r_min or int(f["p"]) != Z.shape[1]:
                    raise ValueError(f"{path} is from another problem: empty {directory}")
                saved[int(f["a0"])] = (int(f["a1"]), f["rows"], f["cols"], f["values"])
                spent.append(float(f["seconds"]))
        start = 0
        while start in saved:  # the blocks saved in a row from the first
            start = saved[start][0]
        if saved:
            _progress(f"screen: {len(saved):,} blocks loaded, {sum(spent):.0f} s; from {start:,}")
        parts = [saved[a0][1:] for a0 in sorted(saved) if a0 < start]
        clock = time.perf_counter()
        blocks = screen_blocks(Z, r_min, block, scale, precision, means, start=start)
        for a0, a1, rows, cols, values in blocks:
            seconds = time.perf_counter() - clock
            np.savez(
                directory / f"rows_{a0:09d}.npz",
                a0=a0,
                a1=a1,
                rows=rows,
                cols=cols,
                values=values,
                seconds=seconds,
                r_min=r_min,
                p=Z.shape[1],
            )
            parts.append((rows, cols, values))
            if a0 // block % 16 == 0:
                _progress(f"screen: columns {a0:,} to {a1:,} of {Z.shape[1]:,} done")
            clock = time.perf_counter()
        rows, cols, values = (np.concatenate([part[k] for part in parts]) for k in range(3))
        order = np.lexsort((cols, rows))
        return rows[order], cols[order], values[order]

    return screen


def _fges(X, verbose: bool):
    """``FGES().fit(X).graph_``; with ``verbose`` the phases are logged as they end."""
    from contextlib import redirect_stdout

    from skbn.learners import FGES, _fges

    if not verbose:
        return FGES().fit(X).graph_
    screen = _fges._Search.effect_edges

    def logged(self):
        out = screen(self)
        _progress(f"FGES screen done: {int(out[0][-1]):,} effect pairs")
        return out

    _fges._Search.effect_edges = logged
    try:
        with redirect_stdout(sys.stderr):  # FGES's per-round lines
            return FGES(verbose=1).fit(X).graph_
    finally:
        _fges._Search.effect_edges = screen


#: FGES's methods and the low-precision products each lets the screen use
_SCREENS = {
    "skbn-fges": None,
    "skbn-fges-amx": "bfloat16_product",
    "skbn-fges-int8": "int8_product",
}


def _check_screen(method: str) -> None:
    """Refuse an FGES method whose low-precision products this machine does not have."""
    from skbn.data import _screen

    product = _SCREENS.get(method)
    if product is not None and getattr(_screen, product)() is None:
        needs = "AMX tiles" if method == "skbn-fges-amx" else "AVX2 (oneDNN int8 products)"
        raise ValueError(
            f"{method} needs PyTorch on a CPU with {needs}: run it from a virtualenv with "
            "pip install skbn[amx], or leave it out of --methods"
        )


def _fit(method: str, X, seed: int, verbose: bool = False):
    """Fit one of skbn's methods with its defaults; the learned graph.

    ``skbn-fges`` screens in single precision whatever is installed; ``skbn-fges-amx`` is
    the same fit where PyTorch runs bfloat16 products on AMX tiles (``skbn[amx]``, used
    from 16,384 columns), and ``skbn-fges-int8`` where PyTorch runs int8 products with
    oneDNN (on AVX2: ``skbn[amx]`` on a CPU without AMX); each refuses to run without its
    products. With ``verbose``, FGES's phases are logged as they end (on stderr, so the
    grid's log shows a long fit's progress).
    """
    if method in _SCREENS:
        from unittest import mock

        from skbn.data import _screen

        _check_screen(method)
        off = [name for name in ("bfloat16_product", "int8_product") if name != _SCREENS[method]]
        with mock.patch.multiple(_screen, **{name: lambda: None for name in off}):
            return _fges(X, verbose)
    if method == "skbn-boss":
        from skbn.learners import BOSS

        return BOSS(random_state=seed).fit(X).graph_
    from skbn.ensemble import PEFLearner

    return PEFLearner(random_state=seed).fit(X).graph_


def run_cell(method, p, n, seed, limit, graph="alarm", log=None) -> dict:
    """Run :func:`cell` in a child process, sampling its tree's memory; None values on a miss.

    The child's progress lines (stderr) go to ``log``, appended as they come, when given.
    """
    import psutil

    # as a module from the repository root: the script imports the examples package
    cmd = [sys.executable, "-m", __spec__.name, "--cell", method, str(p), str(n), str(seed)]
    cmd += ["--graph", graph]
    err_file = open(log, "a+") if log else tempfile.TemporaryFile("w+")  # noqa: SIM115
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err_file, text=True, cwd=ROOT)
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
            err_file.close()
            return {"finished": False, "peak_gb": peak / 1e9}
        time.sleep(0.2)
    out, _ = proc.communicate()
    err_file.seek(0)
    err = err_file.read()[-20000:]  # the log's end: this cell's lines
    err_file.close()
    if proc.returncode != 0:
        print(err[-2000:], file=sys.stderr)
        return {"finished": False, "peak_gb": peak / 1e9, "error": err.strip().splitlines()[-1]}
    return {"finished": True, "peak_gb": peak / 1e9, **json.loads(out.strip().splitlines()[-1])}


def grid(args) -> None:
    out = Path(args.out)
    done, failed = set(), set()
    if out.exists():
        old = _read(out)
        old = old[old.graph == args.graph]
        # a cell that stopped on an error (not on the time limit) runs again
        crashed = old.error.notna() & ~old.finished.astype(bool)
        done = set(zip(old.method[~crashed], old.p_target[~crashed], old.seed[~crashed]))
        failed = {
            (m, p)
            for m, p, f, c in zip(old.method, old.p_target, old.finished, crashed)
            if not f and not c
        }
    for p in args.p:
        for method in args.methods:
            if any(m == method and q <= p for m, q in failed):
                continue  # missed the limit at a smaller p
            for seed in args.seeds:
                if (method, p, seed) in done:
                    continue
                result = run_cell(method, p, args.n, seed, args.limit, args.graph, args.log)
                row = {"method": method, "p_target": p, "n": args.n, "seed": seed, **result}
                row["graph"] = args.graph
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

    everything = _read(csv)
    table = everything[everything.graph == "alarm"]
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
        f"# Scale: 1,000 to {int(stats.index.get_level_values('p_target').max()):,} Gaussian "
        "variables",
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
            f"{r.shd:,.0f} | {r.edges:,.0f} ({int(r.true_arcs):,}) | "
            + ("|" if np.isnan(base) else f"{r.seconds / base:.2f} |")
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
    lines += _random_dag_section(everything[everything.graph != "alarm"])
    growth = _growth(stats)
    if growth:
        lines += [
            "",
            "## Growth",
            "",
            "Least-squares slopes of log time against log p over the sizes from "
            f"{GROWTH_FROM:,} variables up, and of log peak memory from {MEMORY_GROWTH_FROM:,} "
            "up (below 15,000 columns the scores hold the whole covariance matrix, above it "
            "they do not, so memory is not one curve across that size); time ~ p^b:",
            "",
        ]
        for method, (lo, hi, b_time, b_mem) in growth.items():
            memory = f"peak memory p^{b_mem:.2f}" if b_mem == b_mem else "peak memory: one size"
            lines.append(
                f"- {LABELS[method]}, {lo:,} to {hi:,} variables: time p^{b_time:.2f}, {memory}"
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
    fig, axes = plt.subplots(1, 3, figsize=(13, 5))
    for method, sub in stats.groupby(level="method"):
        ps = sub["p"].to_numpy()
        time_label, memory_label = LABELS[method], LABELS[method]
        if method in growth:
            time_label += f" (p^{growth[method][2]:.2f} from {GROWTH_FROM:,})"
            if growth[method][3] == growth[method][3]:
                memory_label += f" (p^{growth[method][3]:.2f} from {MEMORY_GROWTH_FROM:,})"
        axes[0].loglog(ps, sub["seconds"], marker="o", label=time_label)
        axes[1].loglog(ps, sub["peak_gb"], marker="o", label=memory_label)
        axes[2].semilogx(ps, sub["f1_adjacent"], marker="o", label=LABELS[method])
    for ax, label in zip(axes, ["seconds", "peak GB (process tree)", "F1-adjacent"]):
        ax.set_xlabel("variables")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    for ax in axes[:2]:  # below the axes: inside, they would hide the largest sizes
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    fig.tight_layout()
    figure = page.with_name(page.stem + ".png")
    fig.savefig(figure, dpi=110)
    lines += ["", f"![Time, memory and F1-adjacent against the number of variables]({figure.name})"]
    # the findings first, the commands that made them last
    lines += ["", "## How to regenerate", "", "```bash", *_usage_commands(), "```"]
    page.write_text("\n".join(lines) + "\n")
    write_manifest(page)


def _read(csv: Path) -> pd.DataFrame:
    """The results, with the workload of rows written before it was recorded (ALARM)."""
    table = pd.read_csv(csv)
    if "graph" not in table:
        table["graph"] = "alarm"
    table["graph"] = table["graph"].fillna("alarm")
    return table


def _random_dag_section(table: pd.DataFrame) -> list:
    """BOSS() against FGES() on the random-DAG workloads, same data per row."""
    ok = table[table.finished.astype(bool)]
    if not len(ok):
        return []
    lines = [
        "",
        "## BOSS() and FGES() on random DAGs of average degree 4",
        "",
        "Linear-Gaussian data (n = 1,000, standardised) from Erdos-Renyi and scale-free DAGs "
        "with 2p arcs, one seed, the same data for both learners (each fit in its own "
        "process, as above).",
        "",
        "| graph | p | method | seconds | peak GB | F1-adjacent | F1-arrowhead | SHD | "
        "F1-adjacent - FGES's |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for (graph, _), sub in ok.groupby(["graph", "p_target"], sort=True):
        fges = sub[sub.method == "skbn-fges"]
        for r in sub.sort_values("method").itertuples():
            gap = r.f1_adjacent - fges.f1_adjacent.mean() if len(fges) else np.nan
            # empty for FGES itself, and where FGES has no finished row to compare with
            gap_text = "" if r.method == "skbn-fges" or np.isnan(gap) else f"{gap:+.3f}"
            lines.append(
                f"| {GRAPHS[graph]} | {int(r.p):,} | {LABELS[r.method]} | {r.seconds:,.1f} | "
                f"{r.peak_gb:.2f} | {r.f1_adjacent:.3f} | {r.f1_arrowhead:.3f} | "
                f"{r.shd:,.0f} | {gap_text} |"
            )
    missed = table[~table.finished.astype(bool)]
    for r in missed.itertuples():
        why = getattr(r, "error", None)
        stopped = (
            f"stopped with {why.strip()} ({r.peak_gb:.1f} GB at the peak)"
            if isinstance(why, str)
            else f"did not finish within {r.limit:,.0f} s ({r.peak_gb:.1f} GB when stopped)"
        )
        lines.append(f"\n{LABELS[r.method]} on {GRAPHS[r.graph]} at p = {r.p_target:,} {stopped}.")
    return lines


#: time's growth exponent is fitted over the sizes from here up (the issue's goal is
#: stated from 10,000 variables)
GROWTH_FROM = 10_000
#: memory's from here up: up to DENSE_COVARIANCE_MAX (15,000) columns the Gaussian scores
#: hold the whole covariance matrix, which would bend the fit
MEMORY_GROWTH_FROM = 30_000


def _slope(sub: pd.DataFrame, column: str, smallest: int) -> float:
    sub = sub[sub["p"] >= smallest]
    if len(sub) < 2:
        return np.nan
    logp = np.log(sub["p"].to_numpy(dtype=float))
    return float(np.polyfit(logp, np.log(sub[column].to_numpy(dtype=float)), 1)[0])


def _growth(stats: pd.DataFrame) -> dict:
    """Per method with two or more sizes from :data:`GROWTH_FROM` variables: the smallest
    and largest size and the log-log slopes of time (from :data:`GROWTH_FROM`) and of peak
    memory (from :data:`MEMORY_GROWTH_FROM`; NaN with fewer than two sizes there)."""
    out = {}
    for method, sub in stats.groupby(level="method"):
        big = sub[sub["p"] >= GROWTH_FROM]
        if len(big) < 2:
            continue
        out[method] = (
            int(big["p"].min()),
            int(big["p"].max()),
            _slope(sub, "seconds", GROWTH_FROM),
            _slope(sub, "peak_gb", MEMORY_GROWTH_FROM),
        )
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cell", nargs=4, metavar=("METHOD", "P", "N", "SEED"))
    parser.add_argument("--methods", nargs="+", default=METHODS, choices=METHODS)
    parser.add_argument("--p", nargs="+", type=int, default=[1000, 2000, 10000, 30000, 100000])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument(
        "--graph", choices=list(GRAPHS), default="alarm", help="the workload (see problem())"
    )
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1])
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per fit")
    parser.add_argument("--out", default=result_path("scale", "scale.csv"))
    parser.add_argument("--report", type=Path, help="write the page from this CSV, run nothing")
    parser.add_argument("--page", type=Path, default=result_path("scale"))
    parser.add_argument("--note", default="", help="a sentence on the run's conditions")
    parser.add_argument("--xges-python", help="python of a virtualenv where xges is installed")
    parser.add_argument(
        "--checkpoint",
        type=Path,
        help="save FGES's correlation screen block by block in this folder, and resume it "
        "from there when the run is started again (a fit longer than a session)",
    )
    parser.add_argument(
        "--log", help="append each cell's progress lines (time-stamped, with memory) here"
    )
    args = parser.parse_args(argv)
    if args.xges_python:
        os.environ["SKBN_XGES_PYTHON"] = str(Path(args.xges_python).absolute())
    if args.checkpoint:
        os.environ["SKBN_SCALE_CHECKPOINT"] = str(args.checkpoint.absolute())
    if args.cell:
        method, p, n, seed = args.cell
        print(json.dumps(cell(method, int(p), int(n), int(seed), args.graph)))
        return
    if args.report:
        report(args.report, args.page, args.note)
        return
    for method in args.methods:
        try:
            _check_screen(method)
        except ValueError as error:
            parser.error(str(error))
    grid(args)


if __name__ == "__main__":
    main()
