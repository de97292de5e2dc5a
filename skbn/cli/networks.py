# SPDX-License-Identifier: BSD-3-Clause
"""``skbn networks list`` and ``skbn networks sample NAME``: the bundled networks."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from skbn.cli._common import positive_int, save_figure

__all__ = ["add_parser", "run"]


#: One line for ``skbn --help``.
SUMMARY = "list the bundled networks or sample data from one"


def add_parser(commands) -> None:
    """Register ``networks`` on the subparsers ``commands``."""
    networks = commands.add_parser(
        "networks",
        help=SUMMARY,
        description="The bnlearn repository networks shipped with skbn.",
    )
    actions = networks.add_subparsers(dest="action", metavar="ACTION", required=True)
    lister = actions.add_parser(
        "list",
        help="list the bundled networks",
        epilog="example:\n  skbn networks list --details\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    lister.add_argument(
        "--details",
        action="store_true",
        help="also show nodes, arcs and free parameters (parses every file)",
    )
    sample = actions.add_parser(
        "sample",
        help="sample data from a bundled network",
        description="Draw rows from a bundled network by forward sampling, print a summary, "
        "and optionally write the data and a picture of the network.",
        epilog="example:\n  skbn networks sample alarm -n 1000 --out alarm.csv --plot alarm.png\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sample.add_argument("name", help="network name, see 'skbn networks list'")
    sample.add_argument(
        "-n", "--n-samples", type=positive_int, default=1000, help="number of rows (default: 1000)"
    )
    sample.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")
    sample.add_argument(
        "--out", type=Path, help="write the data to this CSV file (.csv, or .csv.gz etc.)"
    )
    sample.add_argument("--plot", type=Path, help="draw the network to this image (PNG, SVG)")


def _list(details: bool) -> None:
    from skbn.datasets import list_networks, load_network

    if not details:
        print("\n".join(list_networks()))
        return
    print(f"{'network':<12}{'nodes':>7}{'arcs':>7}{'parameters':>12}")
    for name in list_networks():
        bn = load_network(name)
        print(f"{name:<12}{len(bn.nodes):>7}{bn.n_arcs:>7}{bn.n_parameters:>12}")


def _sample(args) -> None:
    import pandas as pd

    from skbn.datasets import load_network

    if args.out is not None:  # a name that is not CSV fails before any work (main: the folder)
        name = args.out.name.lower()
        if not name.endswith((".csv", ".csv.gz", ".csv.bz2", ".csv.xz", ".csv.zip")):
            raise ValueError(
                f"--out {args.out}: networks sample writes CSV; give a name ending in .csv "
                "(or .csv.gz, .csv.bz2, .csv.xz, .csv.zip for a compressed one)."
            )
    bn = load_network(args.name)
    start = time.perf_counter()
    X = bn.sample(args.n_samples, random_state=args.random_state)
    elapsed = time.perf_counter() - start
    arities = [len(bn.states[v]) for v in bn.nodes]
    indegree = max((len(p) for p in bn.parents.values()), default=0)
    print(f"network     {bn.name}")
    print(f"nodes       {len(bn.nodes)} (states per node {min(arities)}-{max(arities)})")
    print(f"arcs        {bn.n_arcs} (largest parent set {indegree})")
    print(f"parameters  {bn.n_parameters}")
    print(f"sampled     {len(X)} rows in {elapsed:.3f} s (random_state={args.random_state})")
    with pd.option_context("display.max_columns", 8, "display.width", 100):
        print(X.head())
    if args.out:
        X.to_csv(args.out, index=False)
        print(f"data        written to {args.out}")
    if args.plot:
        from skbn.plotting import plot_graph

        title = f"{bn.name}: {len(bn.nodes)} nodes, {bn.n_arcs} arcs"
        save_figure(plot_graph(bn.graph, title=title), args.plot)


def run(args) -> None:
    """Run ``skbn networks ...``."""
    if args.action == "list":
        _list(args.details)
    else:
        _sample(args)
