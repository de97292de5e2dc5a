# SPDX-License-Identifier: BSD-3-Clause
"""``skbn bootstrap``: arc strengths over bootstrap resamples, or the bootstrap + poset learner."""

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
    positive_int,
    progress,
    refuse_network_file,
    save_figure,
    save_outputs,
    share,
    spec_help,
)

__all__ = ["add_parser", "run"]

EXAMPLE = """example:
  skbn bootstrap --network asia -n 2000 --resamples 10 --out asia_boot.bif
"""


#: One line for ``skbn --help``.
SUMMARY = "bootstrap arc strengths, an averaged graph or a poset-based graph"


def add_parser(commands) -> None:
    """Register ``bootstrap`` on the subparsers ``commands``."""
    boot = commands.add_parser(
        "bootstrap",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help=SUMMARY,
        description="Fit a learner on bootstrap resamples: arc strengths and their averaged "
        "graph, or with --poset Caravagna & Ramazzotti's BootstrapPosetLearner.",
    )
    add_source(boot)
    boot.add_argument("--learner", default="hc", help=spec_help() + " (default: hc)")
    boot.add_argument(
        "--resamples",
        type=positive_int,
        default=100,
        help="bootstrap resamples the learner is fitted on (with --poset: for the partial "
        "order and for the tests each) (default: 100)",
    )
    boot.add_argument("--threshold", type=share, default=0.5, help="averaging threshold, in [0, 1]")
    boot.add_argument("--poset", action="store_true", help="use BootstrapPosetLearner")
    boot.add_argument("--plot", type=Path, help="draw the arc-strength heat map")
    boot.add_argument("--graph-plot", type=Path, help="draw the resulting graph")
    add_out(boot)
    boot.add_argument("--strengths", type=Path, help="write the arc strengths (CSV)")


def run(args) -> None:
    """Run ``skbn bootstrap``."""
    from skbn.data import check_data
    from skbn.ensemble import BootstrapPosetLearner, bootstrap_edge_frequencies
    from skbn.plotting import plot_edge_strengths

    output_format(args.out, args.format)  # a bad --out fails before the resampling
    X, truth, source = load_source(args)
    kind = check_data(X, missing="allow").kind  # the learner refuses what it cannot take
    refuse_network_file(args.out, args.format, kind)
    learner = learner_from_spec(args.learner, kind, args.random_state)
    start = time.perf_counter()
    print(f"data        {source}")
    print(f"learner     {learner!r}")
    if args.poset:
        est = BootstrapPosetLearner(
            learner,
            n_poset_resamples=args.resamples,
            n_test_resamples=args.resamples,
            random_state=args.random_state,
            n_jobs=args.jobs,
            verbose=progress(args),
        ).fit(X)
        graph = est.graph_
        print(f"poset arcs  {est.poset_.number_of_edges()}, kept arcs {graph.number_of_edges()}")
        strengths_source = est
        if args.strengths:
            est.edge_pvalues_.to_csv(args.strengths, index=False)
    else:
        freqs = bootstrap_edge_frequencies(
            learner,
            X,
            n_resamples=args.resamples,
            random_state=args.random_state,
            n_jobs=args.jobs,
            verbose=progress(args),
        )
        graph = freqs.averaged_graph(args.threshold)
        strong = freqs.table[freqs.table["strength"] >= args.threshold]
        pairs = {frozenset(p) for p in zip(strong["u"], strong["v"])}
        undirected = sum(1 for u, v in graph.edges if graph.has_edge(v, u)) // 2
        directed = graph.number_of_edges() - 2 * undirected
        print(
            f"arcs        {len(pairs)} pairs with strength >= {args.threshold}: the averaged "
            f"graph has {directed} directed and {undirected} undirected edges"
        )
        shown = min(15, len(freqs.table))
        print(f"strongest   {shown} of {len(freqs.table)} arcs seen in any resample:")
        print(freqs.table.sort_values("strength", ascending=False).head(15).to_string(index=False))
        strengths_source = freqs
        if args.strengths:
            freqs.table.to_csv(args.strengths, index=False)
    print(f"done        in {time.perf_counter() - start:.1f} s")
    if args.strengths:
        print(f"strengths   written to {args.strengths}")
    if truth is not None:
        from skbn.metrics import structure_report

        print("\nagainst the true network:")
        print(structure_report(truth, graph))
    if args.plot:
        save_figure(plot_edge_strengths(strengths_source, threshold=args.threshold), args.plot)
    save_outputs(
        graph,
        args.out,
        args.graph_plot,
        "bootstrap",
        truth,
        learner=est if args.poset else None,
        format=args.format,
        data=X,
    )
