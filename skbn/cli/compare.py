# SPDX-License-Identifier: BSD-3-Clause
"""``skbn compare``: compare learners without ground truth (Intersection-Validation)."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

from skbn.cli._common import (
    add_source,
    learner_from_spec,
    load_source,
    positive_int,
    progress,
    save_figure,
    spec_help,
)

__all__ = ["add_parser", "run"]

EXAMPLE = """example:
  skbn compare --network asia -n 2000 --learners hc pc --sizes 500 1000 --subsamples 3
"""


#: One line for ``skbn --help``.
SUMMARY = "compare learners without ground truth (Intersection-Validation)"


def add_parser(commands) -> None:
    """Register ``compare`` on the subparsers ``commands``."""
    compare = commands.add_parser(
        "compare",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help=SUMMARY,
        description="Intersection-Validation: the learners' agreement graph on all rows is the "
        "reference; each learner's partial Hamming distance to it on subsamples ranks them.",
    )
    add_source(compare, n_default=1600)
    compare.add_argument(
        "--learners", nargs="+", required=True, metavar="SPEC", help=spec_help() + "; two or more"
    )
    compare.add_argument(
        "--sizes",
        nargs="+",
        type=int,
        default=None,
        help="subsample sizes (default: 100, 200, ...)",
    )
    compare.add_argument(
        "--subsamples", type=positive_int, default=10, help="per size (default: 10)"
    )
    compare.add_argument("--plot", type=Path, help="draw the PHD learning curves")
    compare.add_argument("--out", type=Path, help="write every subsample's PHD (CSV)")


def run(args) -> None:
    """Run ``skbn compare``."""
    from skbn.data import check_data
    from skbn.model_selection import intersection_validate

    X, truth, source = load_source(args)
    kind = check_data(X, missing="allow").kind  # the learner refuses what it cannot take
    if len(args.learners) < 2:
        raise ValueError("compare needs at least two learners.")
    learners = {s: learner_from_spec(s, kind, args.random_state) for s in args.learners}
    sizes = args.sizes or [100 * 2**k for k in range(12) if 100 * 2**k < len(X)]
    if not sizes:
        raise ValueError(f"no subsample size below the {len(X)} rows; pass --sizes.")
    with warnings.catch_warnings():
        # the library warns when the agreement graph is below the paper's thresholds; the
        # command says so in its own "agreement" line instead of a raw warning
        warnings.filterwarnings("ignore", message="The agreement graph has", category=UserWarning)
        result = intersection_validate(
            learners,
            X,
            sample_sizes=sizes,
            n_subsamples=args.subsamples,
            random_state=args.random_state,
            n_jobs=args.jobs,
            verbose=progress(args),
            true_graph=truth,
        )
    agreement = result.agreement
    print(f"data        {source}")
    print(
        f"agreement   {agreement.relative_size:.0%} of node pairs, "
        f"{agreement.n_connected_pairs} connected"
        + ("" if result.reliable else "  (below the paper's thresholds: do not trust it)")
    )
    print(result.summary.to_string(index=False))
    print("\nranking (1 = closest to the agreement graph):")
    print(result.ranking.to_string())
    if args.out:
        result.results.to_csv(args.out, index=False)
        print(f"results     written to {args.out}")
    if args.plot:
        from skbn.plotting import plot_interval_curves

        save_figure(plot_interval_curves(result), args.plot)
