# SPDX-License-Identifier: BSD-3-Clause
"""``skbn fit-parameters GRAPH DATA --out model.bif``: a network from a structure and data."""

from __future__ import annotations

from pathlib import Path

from skbn.cli._common import NETWORK_FORMATS, read_csv_checked, read_graph_arg

__all__ = ["add_parser", "run"]

EXAMPLE = """example:
  skbn networks sample asia -n 5000 --out asia.csv
  skbn learn asia.csv --out learned.json
  skbn fit-parameters learned.json asia.csv --out asia_learned.bif
"""


#: One line for ``skbn --help``.
SUMMARY = "fit a network's parameters on a graph and write it (BIF, NET, XDSL)"


def add_parser(commands) -> None:
    """Register ``fit-parameters`` on the subparsers ``commands``."""
    import argparse

    fit = commands.add_parser(
        "fit-parameters",
        help=SUMMARY,
        description="Estimate the conditional probability tables of a graph's nodes from a "
        "CSV file and write the network, ready for pgmpy, pyAgrum, GeNIe or Hugin. A CPDAG "
        "is first extended to a DAG (every extension has the same likelihood).",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    fit.add_argument("graph", help="the structure: a graph or network file, or a bundled name")
    fit.add_argument("data", type=Path, help="CSV file whose columns are the graph's nodes")
    fit.add_argument(
        "--out", type=Path, required=True, help="the network file (.bif, .bif.gz, .net, .xdsl)"
    )
    fit.add_argument(
        "--format",
        choices=NETWORK_FORMATS,
        default=None,
        help="when the suffix does not say",
    )
    fit.add_argument(
        "--method",
        choices=("bayes", "mle"),
        default="bayes",
        help="bayes: posterior mean under a BDeu-style prior (default); mle: relative frequencies",
    )
    fit.add_argument(
        "--iss",
        type=float,
        default=1.0,
        help="equivalent sample size of the bayes prior (default: 1)",
    )


def run(args) -> None:
    """Run ``skbn fit-parameters``."""
    from skbn.io import network_format, write_network
    from skbn.parameters import fit_network

    fmt = network_format(args.out, args.format)  # before any work
    graph = read_graph_arg(args.graph, "GRAPH")
    X = read_csv_checked(args.data)
    columns = [str(c) for c in X.columns]
    absent = [str(v) for v in graph.nodes if str(v) not in columns]
    if absent:
        shared = len(graph) - len(absent)
        raise ValueError(
            f"{args.data} has no column for {len(absent)} of the graph's {len(graph)} nodes "
            f"({', '.join(absent[:6])}{', ...' if len(absent) > 6 else ''})"
            + ("; it shares no column with the graph at all" if shared == 0 else "")
            + f". Its columns: {', '.join(columns[:6])}{', ...' if len(columns) > 6 else ''}."
        )
    extra = [c for c in columns if c not in graph]
    if extra:  # a data set may hold more columns than the graph
        X = X[[c for c in columns if c in graph]]
    network = fit_network(graph, X, method=args.method, equivalent_sample_size=args.iss)
    write_network(network, args.out, format=fmt)
    print(f"graph       {args.graph}: {len(graph)} nodes, {network.n_arcs} arcs")
    print(
        f"data        {args.data}: {len(X)} rows"
        + (f", ignored columns {extra[:5]}" if extra else "")
    )
    print(f"parameters  {network.n_parameters} ({args.method})")
    print(f"network     written to {args.out} ({fmt.upper()})")
