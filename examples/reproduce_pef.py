# SPDX-License-Identifier: BSD-3-Clause
"""PEF on large block networks (the Auto-SLE paper's Tables V-VI setting, on skbn).

Block networks built with ``replicate_network`` from bundled networks to about 1,000 variables
(several seeds) and about 10,000 variables (one seed), linear-Gaussian, n = 1,000, rescaled.
Methods: P/FGES and P/PCStable (PEFLearner around FGES / PCStable), and FGES and PCStable on
the whole problem (1,000-variable problems only). Reported: F1-adjacent, F1-arrowhead (both on
CPDAGs), SHD and time.

Usage::

    python -m examples.reproduce_pef --seeds 3          # examples/benchmarks/results/pef/pef.md
    python -m examples.reproduce_pef --seeds 0 --large 0 --huge 30000   # the sparse route only

``--huge`` adds one P/FGES run on a problem above ``MAX_DENSE_VARIABLES`` (PEF's sparse route),
with the time of each phase and the peak memory of the whole process tree (workers included).
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import sys
import threading
import time
from pathlib import Path

import pandas as pd

from examples.benchmarks._results import result_path, write_manifest
from skbn.datasets import make_problem
from skbn.ensemble import PEFLearner, _pef
from skbn.learners import FGES, PCStable
from skbn.metrics import structure_report

NETWORKS = ["alarm", "asia", "child", "hailfinder", "pigs"]
#: PC-Stable's conditioning sets are capped (our choice): on pigs blocks some nodes have many
#: neighbours and unlimited enumeration ran for minutes per cluster.
MAX_COND = 3
#: The paper's P/fGES and P/PC-Stable F1-adjacent on Alarm-1000 (Table V), for comparison.
PAPER_ALARM_1000 = {"P/FGES": 0.68, "P/PCStable": 0.76}


class TreeMemory:
    """Peak resident memory of this process and its descendants, sampled every 0.2 s (Linux)."""

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    @staticmethod
    def _tree_rss() -> int:
        children, rss = {}, {}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(pid))
                rss[int(pid)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            except (OSError, IndexError, ValueError):
                continue
        total, stack = 0, [os.getpid()]
        while stack:
            pid = stack.pop()
            total += rss.get(pid, 0)
            stack.extend(children.get(pid, []))
        return total

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            self.peak = max(self.peak, self._tree_rss())

    def __enter__(self):
        if os.path.isdir("/proc"):
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()


def run(method, X, truth, jobs):
    est = {
        "P/FGES": lambda: PEFLearner(FGES("bic"), n_jobs=jobs),
        "P/PCStable": lambda: PEFLearner(PCStable(max_cond_size=MAX_COND), n_jobs=jobs),
        "FGES": lambda: FGES("bic"),
        "PCStable": lambda: PCStable(max_cond_size=MAX_COND),
    }[method]()
    start = time.perf_counter()
    est.fit(X)
    seconds = time.perf_counter() - start
    r = structure_report(truth, est.graph_)
    return dict(
        method=method,
        f1_adjacency=r["f1_adjacency"],
        f1_arrowhead=r["f1_arrowhead"],
        shd=r["shd"],
        seconds=seconds,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument(
        "--large", type=int, default=10_000, help="size of the one large problem (0 to skip)"
    )
    parser.add_argument(
        "--huge", type=int, default=0, help="size of one P/FGES run on PEF's sparse route"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=1000, help="size of the block problems")
    parser.add_argument("--networks", nargs="+", default=NETWORKS)
    parser.add_argument("--out", default=result_path("pef"))
    args = parser.parse_args()
    out = Path(args.out)
    rows = []
    for network in args.networks:
        for seed in range(args.seeds):
            X, truth = make_problem(network, n_nodes=args.nodes, n_samples=1000, random_state=seed)
            for method in ("P/FGES", "P/PCStable", "FGES", "PCStable"):
                row = run(method, X, truth, args.jobs)
                rows.append(dict(network=network, p=X.shape[1], seed=seed, **row))
                print(
                    f"{network:<11} p={X.shape[1]} seed={seed} {method:<11} "
                    f"F1-adj {row['f1_adjacency']:.3f} F1-arrow {row['f1_arrowhead']:.3f} "
                    f"{row['seconds']:.1f} s",
                    flush=True,
                )
    large_line = ""
    if args.large:
        X, truth = make_problem("alarm", n_nodes=args.large, n_samples=1000, random_state=0)
        for method in ("P/FGES", "P/PCStable"):
            row = run(method, X, truth, args.jobs)
            rows.append(dict(network="alarm", p=X.shape[1], seed=0, **row))
            print(
                f"alarm p={X.shape[1]} {method} F1-adj {row['f1_adjacency']:.3f} "
                f"{row['seconds']:.1f} s",
                flush=True,
            )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024
        large_line = (
            f"The {X.shape[1]}-variable problem ran in this process; its peak "
            f"resident memory so far: {peak:.1f} GB."
        )
    huge_lines = []
    if args.huge:
        start = time.perf_counter()
        X, truth = make_problem("alarm", n_nodes=args.huge, n_samples=1000, random_state=0)
        made = time.perf_counter() - start
        with TreeMemory() as memory:
            start = time.perf_counter()
            pef = PEFLearner(FGES("bic"), n_jobs=args.jobs).fit(X)
            seconds = time.perf_counter() - start
        r = structure_report(truth, pef.graph_)
        times = ", ".join(f"{k} {v:.0f} s" for k, v in pef.fit_times_.items())
        sizes = sorted(len(c) for c in pef.clusters_)
        print(
            f"huge p={X.shape[1]} route={pef.route_} {seconds:.0f} s ({times}) F1-adj "
            f"{r['f1_adjacency']:.3f} F1-arrow {r['f1_arrowhead']:.3f} SHD {r['shd']}",
            flush=True,
        )
        huge_lines = [
            f"## PEF's sparse route: one {X.shape[1]:,}-variable problem",
            "",
            f"Alarm copies joined by 10% random arcs, linear-Gaussian, n = 1,000 (sampled in "
            f'{made:.0f} s). `PEFLearner(FGES("bic"), n_jobs={args.jobs})` took the '
            f"{pef.route_} route ({'above' if pef.route_ == 'sparse' else 'at most'} "
            f"{_pef.MAX_DENSE_VARIABLES:,} variables): "
            f"{seconds:.0f} s in all ({times}); {len(sizes)} clusters of {sizes[0]} to "
            f"{sizes[-1]} variables; peak resident memory of the process and its workers "
            f"{memory.peak / 2**30:.1f} GB.",
            "",
            "| F1-adjacent | F1-arrowhead | SHD | arcs learned | true arcs |",
            "|---:|---:|---:|---:|---:|",
            f"| {r['f1_adjacency']:.3f} | {r['f1_arrowhead']:.3f} | {r['shd']} | "
            f"{pef.graph_.number_of_edges()} | {truth.number_of_edges()} |",
            "",
        ]
        rows.append(
            dict(
                network="alarm",
                p=X.shape[1],
                seed=0,
                method="P/FGES (sparse route)",
                f1_adjacency=r["f1_adjacency"],
                f1_arrowhead=r["f1_arrowhead"],
                shd=r["shd"],
                seconds=seconds,
            )
        )
    frame = pd.DataFrame(rows)
    frame.to_csv(out.with_suffix(".csv"), index=False)
    command = ("python -m examples.reproduce_pef " + shlex.join(sys.argv[1:])).strip()
    if not args.seeds and not args.large:  # the sparse-route run alone
        head = ["# PEF at scale", "", f"Regenerate with `{command}` (n_jobs={args.jobs}).", ""]
        out.write_text("\n".join(head + huge_lines[2:]), encoding="utf-8")
        print(out.read_text())
        return
    frame = frame[frame["method"] != "P/FGES (sparse route)"]
    table = frame.groupby(["network", "p", "method"], sort=False)[
        ["f1_adjacency", "f1_arrowhead", "shd", "seconds"]
    ].agg(["mean", "std"])
    lines = [
        "# PEF: partition, estimation, fusion",
        "",
        f"Regenerate with `{command}` (n_jobs={args.jobs}).",
        "",
        "Linear-Gaussian block networks (copies of the named network joined by 10% random "
        f"arcs), n = 1,000, columns standardised; ~{args.nodes:,} variables, "
        f"{args.seeds} seed(s) each"
        + (f", plus one ~{args.large:,}-variable problem" if args.large else "")
        + (". Mean (std) over seeds. " if args.seeds > 1 else ". ")
        + "The paper's Table V reports, on Alarm-1000, F1-adjacent 0.68 for P/fGES and 0.76 "
        f"for P/PC-Stable. PC-Stable tests conditioning sets of at most {MAX_COND} variables.",
        "",
        "| network | p | method | F1-adjacent | F1-arrowhead | SHD | time (s) |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for (network, p, method), r in table.iterrows():
        lines.append(
            f"| {network} | {p} | {method} | {r[('f1_adjacency', 'mean')]:.3f}"
            + (
                f" ({r[('f1_adjacency', 'std')]:.3f})"
                if not pd.isna(r[("f1_adjacency", "std")])  # one seed: no spread
                else ""
            )
            + f" | {r[('f1_arrowhead', 'mean')]:.3f} | "
            f"{r[('shd', 'mean')]:.0f} | {r[('seconds', 'mean')]:.1f} |"
        )
    lines += ["", large_line, "", *huge_lines]
    out.write_text("\n".join(lines), encoding="utf-8")
    write_manifest(out)
    print(out.read_text())


if __name__ == "__main__":
    main()
