# SPDX-License-Identifier: BSD-3-Clause
"""numba's threading layer and wait policy, quiet, under a CPU burner and inside GridSearchCV.

Every cell is its own process, started with the environment of its configuration, so each
threading layer and wait policy is loaded fresh. Three conditions:

* quiet: nothing else runs;
* burner: one busy process runs the whole time (another job on the machine);
* loaded: one busy process per core (a shared server): a fair share of the cores is then
  ``cores / (cores + 1)`` for a one-thread fit, so about 1.5x on 2 cores is the floor;
* GridSearchCV(n_jobs=2): a 4-candidate x 2-fold search over the learner in two loky
  workers (each imports skbn and starts its own numba threads); the figure is the search's
  wall time times 2 workers over its 8 fits, i.e. the time per fit and worker. Its ratio is
  taken over GridSearchCV(n_jobs=1) of the same configuration (the same search in this
  process: the fits on half the rows, the held-out scoring and the search's own overhead),
  since the bare fit is not what a search repeats.

Each figure is the best of ``--repeats`` fits after one warm-up fit (kernels compiled and
cached before any timing). Run::

    python -m examples.benchmarks.threading_layers \
        --out examples/benchmarks/results/threading/threading.md

(about 10 minutes on 2 cores). ``--quick`` runs HillClimb only, with two repeats;
``--rows`` changes ALARM's sample size (the page shows GridSearchCV at 50,000 rows too).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from examples.benchmarks._results import ROOT, result_path, write_manifest

#: name -> environment of the process. ``SKBN_SERIAL_WORK`` is the rows x variables below
#: which skbn runs the discrete score kernels on one thread (0: always on all threads, as
#: before skbn chose); loky's workers inherit it.
CONFIGS = {
    "skbn default": {},
    "numba defaults (before)": {
        "NUMBA_THREADING_LAYER": "omp",
        "OMP_WAIT_POLICY": "active",
        "SKBN_SERIAL_WORK": "0",
    },
    "passive wait, always threads": {"OMP_WAIT_POLICY": "passive", "SKBN_SERIAL_WORK": "0"},
    "workqueue, always threads": {
        "NUMBA_THREADING_LAYER": "workqueue",
        "SKBN_SERIAL_WORK": "0",
    },
    "one thread": {"NUMBA_NUM_THREADS": "1"},
}
LEARNERS = ["HillClimb", "BOSS", "PCStable", "FGES"]
CONDITIONS = ["quiet", "burner", "loaded", "GridSearchCV(n_jobs=1)", "GridSearchCV(n_jobs=2)"]
_CLEAN = (
    "SKBN_SERIAL_WORK",
    "NUMBA_THREADING_LAYER",
    "OMP_WAIT_POLICY",
    "GOMP_SPINCOUNT",
    "KMP_BLOCKTIME",
    "NUMBA_NUM_THREADS",
    "OMP_NUM_THREADS",
)


def _problem(name, n_rows=10_000):
    """The learner with a parameter to search, and its data."""
    from skbn.datasets import load_network, make_problem
    from skbn.learners import BOSS, FGES, HillClimb, PCStable

    if name == "FGES":
        X, _ = make_problem("alarm", n_nodes=370, n_samples=2_000, random_state=0)
        return FGES(), {"penalty_discount": [1.0, 1.5, 2.0, 2.5]}, X
    X = load_network("alarm").sample(n_rows, random_state=0)
    if name == "HillClimb":
        return HillClimb(), {"max_indegree": [2, 3, 4, None]}, X
    if name == "BOSS":
        return BOSS(random_state=0), {"criterion": ["bic", "aic", "bdeu", "k2"]}, X
    return PCStable(), {"alpha": [0.001, 0.01, 0.05, 0.1]}, X


def _cell(learner, condition, repeats, n_rows=10_000):
    """Run in the child process: seconds per fit."""
    from sklearn.base import clone
    from sklearn.model_selection import GridSearchCV

    est, grid, X = _problem(learner, n_rows)
    clone(est).fit(X)  # compile or load the kernels
    best = float("inf")
    for _ in range(repeats):
        if condition.startswith("GridSearchCV"):
            workers = int(condition[-2])
            search = GridSearchCV(est, grid, cv=2, n_jobs=workers)
            start = time.perf_counter()
            search.fit(X)
            n_fits = 2 * len(next(iter(grid.values())))
            best = min(best, (time.perf_counter() - start) * workers / n_fits)
        else:
            start = time.perf_counter()
            clone(est).fit(X)
            best = min(best, time.perf_counter() - start)
    import numba

    try:
        layer = numba.threading_layer()
    except ValueError:  # no parallel kernel ran (discrete PC-Stable tests on joblib threads)
        layer = "none used"
    return best, layer


def _run_cell(config, learner, condition, repeats, n_rows=10_000):
    env = {k: v for k, v in os.environ.items() if k not in _CLEAN}
    env.update(CONFIGS[config])
    burners = []
    if condition in ("burner", "loaded"):
        count = 1 if condition == "burner" else os.cpu_count() or 1
        burners = [
            subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)
        ]
    try:
        out = subprocess.run(
            # as a module from the repository root: the script imports the examples package
            [
                sys.executable,
                "-m",
                __spec__.name,
                "--cell",
                learner,
                condition,
                str(repeats),
                str(n_rows),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=1800,
        ).stdout
    finally:
        for b in burners:
            b.kill()
            b.wait()
    seconds, layer = json.loads(out.strip().splitlines()[-1])
    return seconds, layer


def _report(rows, learners, out):
    cpu = platform.processor() or platform.machine()
    lines = [
        "# Threads: numba's threading layer and wait policy",
        "",
        "<!-- generated by examples/benchmarks/threading_layers.py; edit the script -->",
        "",
        f"Machine: {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}. "
        "Seconds per fit, best of the repeats after a warm-up fit; each cell a fresh process. "
        "HillClimb, BOSS and PCStable learn ALARM from 10,000 rows; FGES learns a "
        "370-variable Gaussian problem (ten ALARM copies) from 2,000 rows. *burner*: one "
        "busy process runs beside the fit; *loaded*: one busy process per core (a fair share "
        "of the cores is then about 1.5x the quiet time on 2 cores for a one-thread fit). "
        "*GridSearchCV(n_jobs=2)*: a 4 x 2-fold "
        "search in two loky workers, wall time x 2 / 8 fits; *GridSearchCV(n_jobs=1)*: the same "
        "search in one process, wall time / 8 fits. The ratio is the cell over the same "
        "configuration's quiet figure (GridSearchCV(n_jobs=2): over its n_jobs=1 figure).",
        "",
        "Command: `python -m examples.benchmarks.threading_layers`",
        "",
        "skbn's default (`skbn._kernels._threads`): OpenMP threads that sleep when idle "
        "(`OMP_WAIT_POLICY=PASSIVE` unless set), the discrete score kernels on one thread "
        "below 4 million rows x variables (`SKBN_SERIAL_WORK`), and in a joblib or Dask worker "
        "no more numba threads than the `OMP_NUM_THREADS` the framework sets. Results do not "
        "depend on any of it. Learners without numba-parallel kernels on these problems "
        "(discrete PCStable tests on joblib threads, FGES's Gaussian scores run serially) are "
        "not listed: the threading layer does not change them.",
        "",
    ]
    sizes = sorted({r.get("rows", 10_000) for r in rows})
    for size in sizes:
        subset = [r for r in rows if r.get("rows", 10_000) == size]
        if size != 10_000:
            lines += [
                "",
                f"## GridSearchCV at {size:,} rows",
                "",
                f"The same search on ALARM at {size:,} rows (HillClimb and BOSS), where a fit "
                "is long enough for the search's own overhead (dispatch, pickling, scoring) "
                "to weigh less. Command: `python -m examples.benchmarks.threading_layers "
                f"--merge --rows {size} --repeats 2 --conditions 'GridSearchCV(n_jobs=1)' "
                "'GridSearchCV(n_jobs=2)' --learners HillClimb BOSS --configs 'skbn default' "
                "'numba defaults (before)'`.",
                "",
            ]
        lines += _table(subset, learners)
    Path(out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    write_manifest(out)


def _table(rows, learners):
    """The markdown rows of one table: a line per configuration and condition."""
    lines = []
    header = "| configuration | layer | condition | " + " | ".join(learners) + " |"
    lines += [header, "|" + "---|" * (3 + len(learners))]
    base = {
        (r["config"], r["learner"], r["condition"]): r["seconds"]
        for r in rows
        if r["condition"] in ("quiet", "GridSearchCV(n_jobs=1)")
    }
    for config in CONFIGS:
        for condition in CONDITIONS:
            cells = {
                r["learner"]: r
                for r in rows
                if (r["config"], r["condition"]) == (config, condition)
            }
            if not cells:
                continue
            layer = next(iter(cells.values()))["layer"]
            values = []
            for learner in learners:
                r = cells.get(learner)
                if r is None:
                    values.append("")
                    continue
                reference = "GridSearchCV(n_jobs=1)" if "n_jobs=2" in condition else "quiet"
                text = f"{r['seconds']:.3f}"
                if condition in (reference, "GridSearchCV(n_jobs=1)"):
                    values.append(text)  # a reference figure
                    continue
                ratio = r["seconds"] / base[(config, learner, reference)]
                values.append(f"{text} ({ratio:.1f}x)")
            lines.append(f"| {config} | {layer} | {condition} | " + " | ".join(values) + " |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cell", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument(
        "--rows", type=int, default=10_000, help="ALARM rows for HillClimb, BOSS and PCStable"
    )
    parser.add_argument("--out", default=result_path("threading"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--configs", nargs="*", default=list(CONFIGS))
    parser.add_argument("--learners", nargs="*", default=None)
    parser.add_argument("--conditions", nargs="*", default=CONDITIONS)
    parser.add_argument(
        "--merge", action="store_true", help="add to the cells of an earlier run's JSON"
    )
    parser.add_argument("--report-only", action="store_true", help="redraw the page from JSON")
    args = parser.parse_args(argv)
    if args.cell:
        learner, condition, repeats, n_rows = args.cell
        print(json.dumps(_cell(learner, condition, int(repeats), int(n_rows))))
        return
    learners = args.learners or (["HillClimb"] if args.quick else LEARNERS)
    repeats = 2 if args.quick else args.repeats
    rows = []
    saved = Path(args.out).with_suffix(".json")
    if (args.merge or args.report_only) and saved.exists():
        rows = json.loads(saved.read_text(encoding="utf-8"))
    if args.report_only:
        _report(rows, [x for x in LEARNERS if any(r["learner"] == x for r in rows)], args.out)
        return
    for config in args.configs:
        for condition in args.conditions:
            for learner in learners:
                seconds, layer = _run_cell(config, learner, condition, repeats, args.rows)
                key = (config, condition, learner, args.rows)
                rows = [
                    r
                    for r in rows
                    if (r["config"], r["condition"], r["learner"], r.get("rows", 10_000)) != key
                ]
                rows.append(
                    dict(
                        config=config,
                        condition=condition,
                        learner=learner,
                        seconds=seconds,
                        layer=layer,
                        rows=args.rows,
                    )
                )
                print(config, condition, learner, f"{seconds:.3f}", layer, flush=True)
    Path(args.out).with_suffix(".json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    _report(rows, [x for x in LEARNERS if any(r["learner"] == x for r in rows)], args.out)


if __name__ == "__main__":
    main()
