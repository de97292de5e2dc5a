# SPDX-License-Identifier: BSD-3-Clause
"""``skbn pef``: a large Gaussian network by partition, estimation and fusion."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from skbn.cli._common import (
    add_out,
    add_source,
    learner_from_spec,
    load_source,
    output_format,
    progress,
    refuse_network_file,
    save_figure,
    save_outputs,
    spec_help,
)

__all__ = ["add_parser", "run"]

EXAMPLE = """example:
  skbn pef --network alarm --nodes 200 -n 2000 --out pef.json
"""


#: One line for ``skbn --help``.
SUMMARY = "learn a large Gaussian network by partition, estimation and fusion"


def add_parser(commands) -> None:
    """Register ``pef`` on the subparsers ``commands``."""
    pef = commands.add_parser(
        "pef",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help=SUMMARY,
        description="PEFLearner: cluster the variables, learn each cluster, fuse the pieces.",
    )
    add_source(pef, n_default=1000)
    pef.add_argument(
        "--learner",
        default="fges",
        help=spec_help() + "; or 'sle-paper' for the Auto-SLE paper's ensemble (default: fges)",
    )
    pef.add_argument("--plot", type=Path, help="draw the cluster sizes")
    pef.add_argument("--graph-plot", type=Path, help="draw the fused graph (small networks)")
    add_out(pef)


def run(args) -> None:
    """Run ``skbn pef``."""
    from skbn.data import check_data
    from skbn.ensemble import PEFLearner, StructureLearningEnsemble
    from skbn.metrics import structure_report
    from skbn.plotting import plot_cluster_sizes

    output_format(args.out, args.format)  # a bad --out fails before the learning
    X, truth, source = load_source(args, default_kind="gaussian")
    refuse_network_file(args.out, args.format, check_data(X, missing="allow").kind)
    if args.network and args.kind is None:
        print(
            f"note        {args.network} is sampled as a linear-Gaussian model on its graph "
            "(this command learns Gaussian networks by default; --kind discrete for its CPTs)"
        )
    if args.learner == "sle-paper":
        estimator = StructureLearningEnsemble.from_paper()
    else:
        estimator = learner_from_spec(args.learner, "gaussian", args.random_state)
    start = time.perf_counter()
    pef = PEFLearner(
        estimator, n_jobs=args.jobs, random_state=args.random_state, verbose=progress(args)
    ).fit(X)
    times = ", ".join(f"{k} {v:.1f} s" for k, v in pef.fit_times_.items())
    print(f"data        {source}")
    print(f"clusters    {len(pef.clusters_)}: sizes {sorted(map(len, pef.clusters_))[::-1]}")
    print(f"fusion      {pef.n_cross_arcs_} arcs added between clusters")
    print(f"time        {time.perf_counter() - start:.1f} s ({times})")
    if truth is not None:
        print("\nagainst the true network:")
        print(structure_report(truth, pef.graph_))
    if args.plot:
        save_figure(plot_cluster_sizes(pef), args.plot)
    save_outputs(
        pef.graph_, args.out, args.graph_plot, "PEF", truth, learner=pef, format=args.format
    )
