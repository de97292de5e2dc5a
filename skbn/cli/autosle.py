# SPDX-License-Identifier: BSD-3-Clause
"""``skbn autosle``: learn a structure-learning ensemble with Auto-SLE, optionally apply it."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from skbn.cli._common import (
    add_out,
    add_source,
    load_source,
    output_format,
    progress,
    refuse_network_file,
    save_outputs,
)

__all__ = ["add_parser", "run"]

EXAMPLE = """example:
  skbn autosle --problems 3 --max-nodes 20 --trials 3 --ensemble-size 1
"""


#: One line for ``skbn --help``.
SUMMARY = "learn a structure-learning ensemble with Auto-SLE (Optuna), optionally apply it"


def add_parser(commands) -> None:
    """Register ``autosle`` on the subparsers ``commands``."""
    auto = commands.add_parser(
        "autosle",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help=SUMMARY,
        description="Learn ensemble members greedily on generated training problems; with a "
        "data source, run the ensemble (inside PEF with --pef) on it.",
    )
    add_source(auto, n_default=1000, required=False)
    auto.add_argument("--problems", type=int, default=20, help="training problems (default: 20)")
    auto.add_argument("--max-nodes", type=int, default=100, help="largest training problem")
    auto.add_argument("--trials", type=int, default=20, help="trials per member (default: 20)")
    auto.add_argument("--ensemble-size", type=int, default=4, help="(default: 4)")
    auto.add_argument("--storage", help="Optuna storage URL, e.g. sqlite:///autosle.db")
    auto.add_argument("--study-name", help="study name (default: derived from the settings)")
    auto.add_argument("--timeout", type=float, default=None, help="seconds")
    auto.add_argument("--pef", action="store_true", help="apply the ensemble inside PEF")
    auto.add_argument("--members", type=Path, help="write the learned members (JSON)")
    add_out(auto)
    auto.add_argument("--plot", type=Path, help="draw the learned graph")


def run(args) -> None:
    """Run ``skbn autosle``."""
    from skbn.datasets import make_training_problems
    from skbn.ensemble import AutoSLEEnsemble, PEFLearner
    from skbn.utils._optuna_slots import open_storage

    open_storage(args.storage)  # a bad URL fails before the problems are generated
    output_format(args.out, args.format)
    X = None
    if args.data or args.network:  # the data are read and checked before the search
        from skbn.data import check_data

        X, truth, source = load_source(args, default_kind="gaussian")
        refuse_network_file(args.out, args.format, check_data(X).kind)
    start = time.perf_counter()
    problems = make_training_problems(
        args.problems, n_nodes=(5, args.max_nodes), random_state=args.random_state
    )
    auto = AutoSLEEnsemble(
        ensemble_size=args.ensemble_size,
        n_trials=args.trials,
        problems=problems,
        storage=args.storage,
        study_name=args.study_name,
        timeout=args.timeout,
        n_jobs=args.jobs,
        random_state=args.random_state,
        verbose=progress(args),
    )
    try:
        auto.learn_members()
    except RuntimeError as exc:  # no member found: a one-line error, not a traceback
        raise ValueError(str(exc)) from None
    print(f"learned     {len(auto.members_)} members in {time.perf_counter() - start:.1f} s")
    for (name, est), gain in zip(auto.members_, auto.gains_):
        print(f"  {name:<14} gain {gain:.4f}  {est!r}")
    print(f"training Q  {auto.quality_:.3f} (F1-adjacent + F1-arrowhead, best member per problem)")
    if args.members:
        members = [
            {"name": n, "learner": type(e).__name__, "params": e.get_params(deep=False)}
            for n, e in auto.members_
        ]
        text = json.dumps({"members": members, "gains": auto.gains_}, indent=1, default=str)
        Path(args.members).write_text(text, encoding="utf-8")
        print(f"members     written to {args.members}")
    if X is None:
        return
    if args.network and args.kind is None:
        print(
            f"note        {args.network} is sampled as a linear-Gaussian model on its graph "
            "(this command learns Gaussian networks by default; --kind discrete for its CPTs)"
        )
    ensemble = auto.to_ensemble()
    learner = PEFLearner(ensemble, n_jobs=args.jobs) if args.pef else ensemble
    learner.fit(X)
    print(f"\ndata        {source}")
    if truth is not None:
        from skbn.metrics import structure_report

        print("against the true network:")
        print(structure_report(truth, learner.graph_))
    save_outputs(
        learner.graph_, args.out, args.plot, "Auto-SLE", truth, learner=learner, format=args.format
    )
