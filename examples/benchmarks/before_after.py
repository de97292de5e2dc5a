# SPDX-License-Identifier: BSD-3-Clause
"""Time the search learners at two commits in one run: does a refactor of the core cost time?

Each commit is checked out into a temporary git worktree, and a worker process imports skbn
from it (its own numba cache, warmed on a small problem first). The workers take turns, one
round per ``--rounds``, so a noisy machine slows both alike; each round fits every workload
once per commit and records the seconds and a fingerprint of the graph (which must agree:
a refactor that changes a result is not a timing question). The page gives, per workload,
the median seconds of each commit and the median of the per-round ratios after / before.

    python -m examples.benchmarks.before_after --before 48d9e51 --after HEAD --rounds 7 \\
        --out examples/benchmarks/results/kernel_structs/kernel_structs.md
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from examples.benchmarks._results import ROOT, command_line, write_manifest

#: (label, learner, data): the search learners the kernel refactor touches, on data of the
#: BOSS page's kinds at sizes where a fit takes long enough to time.
WORKLOADS = [
    ("BOSS('bic'), er p=300 d=4 n=1000", "BOSS", "er", 300),
    ("BOSS(), sf p=300 d=4 n=1000", "BOSS-default", "sf", 300),
    ("GRaSP('bic'), er p=100 d=4 n=1000", "GRaSP", "er", 100),
    ("BOSS(BDeu()), alarm n=5000", "BOSS-bdeu", "alarm", 37),
    ("GRaSP(BDeu()), alarm n=5000", "GRaSP-bdeu", "alarm", 37),
    ("FGES('bic'), er p=300 d=4 n=1000", "FGES", "er", 300),
    ("FGES(BDeu()), alarm n=5000", "FGES-bdeu", "alarm", 37),
]

_WORKER = r"""
import hashlib, json, sys, time
import skbn
from skbn.datasets import load_network, make_linear_gaussian
from skbn.datasets import make_erdos_renyi_dag, make_scale_free_dag
from skbn.learners import BOSS, FGES, GRaSP
from skbn.scores import BDeu

def data(kind, p, seed):
    if kind == "alarm":
        return load_network("alarm").sample(5000, random_state=seed)
    make = make_erdos_renyi_dag if kind == "er" else make_scale_free_dag
    dag = make(p, 2 * p, random_state=seed)
    X = make_linear_gaussian(dag, random_state=seed).sample(1000, random_state=seed)
    return (X - X.mean()) / X.std()

LEARNERS = {
    "BOSS": lambda s: BOSS("bic", random_state=s),
    "BOSS-default": lambda s: BOSS(random_state=s),
    "GRaSP": lambda s: GRaSP("bic", random_state=s),
    "BOSS-bdeu": lambda s: BOSS(BDeu(), random_state=s),
    "GRaSP-bdeu": lambda s: GRaSP(BDeu(), random_state=s),
    "FGES": lambda s: FGES("bic"),
    "FGES-bdeu": lambda s: FGES(BDeu()),
}
jobs = json.loads(sys.argv[1])
for key, _, kind, p in jobs:  # compile every kernel first, on a small problem
    LEARNERS[key](0).fit(data(kind, min(p, 12), 0).iloc[:, :12])
out = []
for key, label, kind, p, seed in json.loads(sys.argv[2]):
    X = data(kind, p, seed)
    t = time.perf_counter()
    graph = LEARNERS[key](seed).fit(X).graph_
    seconds = time.perf_counter() - t
    arcs = sorted(graph.edges())
    out.append(dict(workload=label, seed=seed, seconds=seconds,
                    graph=hashlib.sha1(repr(arcs).encode()).hexdigest()[:12]))
print(json.dumps(dict(rows=out, skbn=skbn.__file__)))
"""


def _worktree(rev: str, where: Path) -> Path:
    path = where / rev.replace("/", "_")
    subprocess.run(
        ["git", "worktree", "add", "--detach", "-q", str(path), rev], cwd=ROOT, check=True
    )
    return path


def _run(tree: Path, jobs: list, cache: Path) -> list[dict]:
    env = {"PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"}
    warm = [[key, label, kind, p] for label, key, kind, p in WORKLOADS]
    done = subprocess.run(
        [sys.executable, "-c", _WORKER, json.dumps(warm), json.dumps(jobs)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if not Path(result["skbn"]).is_relative_to(tree):
        raise RuntimeError(f"the worker imported {result['skbn']}, not the copy in {tree}")
    return result["rows"]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the commit before the change")
    parser.add_argument("--after", default="HEAD", help="the commit after it")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (seeds)")
    parser.add_argument("--out", required=True, help="the page to write (.md; a .csv beside)")
    parser.add_argument(
        "--report-only", action="store_true", help="rewrite the page from the CSV beside --out"
    )
    args = parser.parse_args(argv)
    out = Path(args.out)
    if args.report_only:
        manifest = json.loads(out.with_name("manifest.json").read_text(encoding="utf-8"))
        command = manifest["runs"][-1]["command"]
        page = report(pd.read_csv(out.with_suffix(".csv")), args, command)
        out.write_text(page, encoding="utf-8")
        return
    rows = []
    with tempfile.TemporaryDirectory(prefix="skbn-before-after-") as tmp:
        tmp = Path(tmp)
        trees = {"before": _worktree(args.before, tmp), "after": _worktree(args.after, tmp)}
        try:
            for r in range(args.rounds):
                jobs = [[key, label, kind, p, r] for label, key, kind, p in WORKLOADS]
                # alternate which commit goes first, so neither always runs on a cold machine
                sides = ["before", "after"] if r % 2 == 0 else ["after", "before"]
                for side in sides:
                    for row in _run(trees[side], jobs, tmp / f"cache-{side}"):
                        rows.append({"commit": side, "round": r, **row})
                print(f"round {r + 1} of {args.rounds} done", flush=True)
        finally:
            for tree in trees.values():
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)
    df = pd.DataFrame(rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out.with_suffix(".csv"), index=False)
    out.write_text(report(df, args, command_line()), encoding="utf-8")
    write_manifest(out)
    print(out.read_text(encoding="utf-8"))


def report(df: pd.DataFrame, args, command: str) -> str:
    """The page: per workload, median seconds at each commit and the ratio after / before."""
    wide = df.pivot_table(index=["workload", "round"], columns="commit", values="seconds")
    same = df.pivot_table(
        index=["workload", "round"], columns="commit", values="graph", aggfunc="first"
    )
    agree = same["after"] == same["before"]
    ratios = (wide["after"] / wide["before"]).groupby(level=0, sort=False).median()
    rows = []
    for workload, g in wide.groupby(level=0, sort=False):
        ratio = (g["after"] / g["before"]).to_numpy()
        rows.append(
            f"| {workload} | {len(g)} | {int(agree.loc[workload].sum())} of {len(g)} | "
            f"{g['before'].median():.3f} | {g['after'].median():.3f} | {np.median(ratio):.3f} "
            f"({ratio.min():.3f}-{ratio.max():.3f}) |"
        )
    return "\n".join(
        [
            "# Before and after: the search learners' time at two commits",
            "",
            f"Both commits learned the same graph in {int(agree.sum())} of {len(agree)} fits. "
            "The median of the per-round time ratios (after / before) lies between "
            f"{ratios.min():.3f} and {ratios.max():.3f} across the workloads.",
            "",
            "| workload | rounds | same graph | before: median s | after: median s | "
            "after / before: median (min-max) of the rounds |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
            "## Setup",
            "",
            f"Before: `{args.before}`; after: `{args.after}`. {args.rounds} rounds; round r "
            "fits every workload once at each commit with random_state = r (data seed r too), "
            "the two commits taking turns to go first. Each commit runs in its own process "
            "from its own worktree, every kernel compiled on a small problem before the timed "
            "fits. Command:",
            "",
            f"`{command}`",
            "",
        ]
    )


if __name__ == "__main__":
    main()
