# SPDX-License-Identifier: BSD-3-Clause
import matplotlib.pyplot as plt
import networkx as nx
import pytest

from skbn.graph import dag_to_cpdag, plot_graph, read_graph, to_dot, write_graph


@pytest.mark.parametrize("suffix", [".graphml", ".json"])
def test_graph_round_trip_keeps_edges_and_kind(tmp_path, suffix):
    g = dag_to_cpdag(nx.DiGraph([("a", "b"), ("b", "c"), ("d", "c")]))
    path = tmp_path / f"g{suffix}"
    write_graph(g, path)
    back = read_graph(path)
    assert list(back.nodes) == list(g.nodes)
    assert set(back.edges()) == set(g.edges())
    assert back.graph["kind"] == "cpdag"


def test_dot_writes_undirected_edges_once(tmp_path):
    g = nx.DiGraph([("a", "b"), ("b", "a"), ("c", "b")])
    text = to_dot(g)
    assert text.count("dir=none") == 1 and '"c" -> "b";' in text
    write_graph(g, tmp_path / "g.dot")
    assert (tmp_path / "g.dot").read_text().startswith("digraph {")
    with pytest.raises(ValueError, match="DOT is not supported"):
        read_graph(tmp_path / "g.dot")


def test_io_errors(tmp_path):
    with pytest.raises(ValueError, match="suffix"):
        write_graph(nx.DiGraph(), tmp_path / "g.xyz")
    with pytest.raises(FileNotFoundError):
        read_graph(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="not a node-link JSON"):
        read_graph(tmp_path / "bad.json")


def test_plot_against_truth_colours_every_category(tmp_path):
    truth = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "d")])
    learned = nx.DiGraph([("a", "b"), ("c", "b"), ("a", "d")])
    learned.add_node("c")
    learned.add_node("d")
    ax = plot_graph(learned, truth=truth, title="learned vs truth")
    labels = sorted(t.get_text() for t in ax.get_legend().get_texts())
    assert labels == ["correct", "false positive", "missing", "wrong orientation"]
    out = tmp_path / "plot.png"
    ax.figure.savefig(out)
    assert out.stat().st_size > 5000
    plt.close(ax.figure)


def test_plot_cpdag_without_truth_draws_on_given_axes():
    fig, ax = plt.subplots()
    cpdag = dag_to_cpdag(nx.DiGraph([("a", "b"), ("b", "c")]))
    assert plot_graph(cpdag, ax=ax) is ax
    # no truth to colour against; the legend only says what an edge without an arrowhead is
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "undirected (either orientation)"
    ]
    plt.close(fig)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("list.json", b"[1, 2]", "expected an object with 'nodes'"),
        ("latin.json", b'{"nodes": [{"id": "\xe9"}]}', r"not UTF-8 text \(byte 0xe9"),
        ("cut.graphml", b'<?xml version="1.0"?><graphml><graph><node id="a"/>', "GraphML"),
    ],
)
def test_unreadable_graph_files_are_value_errors_naming_the_file(tmp_path, name, content, message):
    # these were AttributeError, UnicodeDecodeError and xml ParseError tracebacks in the CLI
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message) as info:
        read_graph(path)
    assert name in str(info.value)


def test_the_cli_reports_an_unreadable_graph_in_one_line(tmp_path, capsys):
    from skbn.cli import main

    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skbn: error:") and "Traceback" not in err


@pytest.mark.parametrize("suffix", [".graphml", ".json", ".dot"])
def test_nodes_that_only_differ_by_type_are_refused_on_writing(tmp_path, suffix):
    g = nx.DiGraph(kind="dag")
    g.add_edge(1, "1")  # read back from any file, both would be the node "1"
    with pytest.raises(ValueError, match="nodes 1 and '1' have the same name as text"):
        write_graph(g, tmp_path / f"g{suffix}")
    assert not (tmp_path / f"g{suffix}").exists()
    g = nx.DiGraph([(1, 2)], kind="dag")  # int names alone are fine
    write_graph(g, tmp_path / f"h{suffix}")
