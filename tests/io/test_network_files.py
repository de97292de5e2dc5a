# SPDX-License-Identifier: BSD-3-Clause
"""BIF, Hugin NET and GeNIe XDSL: round trips, other libraries' readers, bad files."""

import gzip
import tracemalloc
import warnings

import numpy as np
import pytest

from skbn.datasets import DiscreteBayesianNetwork, list_networks, load_network
from skbn.io import (
    NetworkFileError,
    network_format,
    parse_bif,
    parse_net,
    parse_xdsl,
    read_network,
    to_net,
    to_xdsl,
    write_network,
)

FORMATS = ["bif", "net", "xdsl"]


def assert_same_network(a: DiscreteBayesianNetwork, b: DiscreteBayesianNetwork, atol=1e-15):
    assert sorted(a.nodes) == sorted(b.nodes)
    for v in a.nodes:
        assert a.states[v] == b.states[v], v
        assert a.parents[v] == b.parents[v], v
        np.testing.assert_allclose(a.cpts[v], b.cpts[v], rtol=0, atol=atol, err_msg=v)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::skbn.io.NetworkPortabilityWarning")  # child: pyAgrum
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", list_networks())
def test_bundled_networks_round_trip(tmp_path, name, fmt):
    bn = load_network(name)
    path = tmp_path / f"{name}.{fmt}"
    write_network(bn, path)
    back = read_network(path)
    assert_same_network(bn, back)
    if fmt != "xdsl":  # XDSL lists parents first; the others keep the node order
        assert back.nodes == bn.nodes


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_changed_probability_or_state_label_is_seen(tmp_path, fmt):
    """The round-trip check above can fail: edit one number or label in the file."""
    bn = load_network("asia")
    path = tmp_path / f"asia.{fmt}"
    write_network(bn, path)
    text = path.read_text()
    assert "0.98" in text  # P(xray=yes | either=yes)
    edited = tmp_path / f"edited.{fmt}"
    edited.write_text(text.replace("0.98", "0.97").replace("0.02", "0.03"))
    with pytest.raises(AssertionError):
        assert_same_network(bn, read_network(edited))
    relabelled = tmp_path / f"relabelled.{fmt}"
    relabelled.write_text(text.replace("yes", "ja"))
    with pytest.raises(AssertionError):
        assert_same_network(bn, read_network(relabelled))


def _pgmpy_reader(fmt):
    readwrite = pytest.importorskip("pgmpy.readwrite")
    return {"bif": readwrite.BIFReader, "net": readwrite.NETReader, "xdsl": readwrite.XDSLReader}[
        fmt
    ]


def _pgmpy_probability(cpd, child, state, config):
    return cpd.get_value(**{child: state, **config})


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::skbn.io.NetworkPortabilityWarning")  # child: pyAgrum
@pytest.mark.parametrize(
    ("name", "fmt"),
    # not water's NET file: pgmpy's NET parser takes over 30 s on its tables, and pyAgrum
    # reads that file below
    [
        (n, f)
        for n in ["child", "insurance", "alarm", "water"]
        for f in FORMATS
        if (n, f) != ("water", "net")
    ],
)
def test_pgmpy_reads_our_files_with_the_same_tables(tmp_path, name, fmt):
    bn = load_network(name)
    path = tmp_path / f"{name}.{fmt}"
    write_network(bn, path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = _pgmpy_reader(fmt)(str(path)).get_model()
    rng = np.random.default_rng(0)
    for v in bn.nodes:
        cpd = model.get_cpds(v)
        assert [str(u) for u in cpd.variables[1:]] == list(bn.parents[v])
        assert [str(s) for s in cpd.state_names[v]] == list(bn.states[v])
        table = bn.cpts[v]
        for _ in range(3):  # random cells, looked up by state names in pgmpy
            index = tuple(int(rng.integers(k)) for k in table.shape)
            config = {u: bn.states[u][k] for u, k in zip(bn.parents[v], index[:-1])}
            expected = table[index]
            got = _pgmpy_probability(cpd, v, bn.states[v][index[-1]], config)
            assert got == pytest.approx(expected, abs=1e-12), (v, config)


@pytest.mark.parametrize("fmt", ["bif", "net"])
@pytest.mark.parametrize("name", ["asia", "alarm", "hepar2", "water"])
def test_pyagrum_reads_our_files_with_the_same_tables(tmp_path, name, fmt):
    gum = pytest.importorskip("pyagrum")
    bn = load_network(name)
    path = tmp_path / f"{name}.{fmt}"
    write_network(bn, path)
    loaded = gum.loadBN(str(path))
    rng = np.random.default_rng(1)
    for v in bn.nodes:
        assert list(loaded.variable(v).labels()) == list(bn.states[v])
        assert {loaded.variable(j).name() for j in loaded.parents(v)} == set(bn.parents[v])
        table = bn.cpts[v]
        for _ in range(3):
            index = tuple(int(rng.integers(k)) for k in table.shape)
            config = {u: bn.states[u][k] for u, k in zip(bn.parents[v], index[:-1])}
            row = loaded.cpt(v)[config] if config else loaded.cpt(v).toarray()
            # pyAgrum stores probabilities in single precision in text files' parse
            assert row[index[-1]] == pytest.approx(table[index], abs=1e-7)


def test_net_reader_accepts_hugin_features():
    text = """
    % a comment
    net { node_size = (80 40); name = "demo"; }
    discrete node a { label = "A node"; position = (10 20); states = ("x \\"1\\"" "y"); }
    node b { states = ("lo" "hi"); subtype = label; }
    potential ( a ) { data = ( 0.3 0.7 ); }
    potential ( b | a ) { data = (( 0.1 0.9 )   % a = x
                                  ( 0.6 0.4 )); % a = y
    }
    """
    bn = parse_net(text)
    assert bn.name == "demo"
    assert bn.states["a"] == ('x "1"', "y")
    assert bn.cpts["b"].tolist() == [[0.1, 0.9], [0.6, 0.4]]
    # read, yes; written back, no: other readers (pyAgrum) do not take the escaped quote
    with pytest.raises(ValueError, match="State of 'a' 'x \"1\"' cannot be written to Hugin"):
        to_net(bn)
    plain = parse_net(text.replace('"x \\"1\\""', '"x1"'))
    assert_same_network(plain, parse_net(to_net(plain)))


def test_names_other_formats_cannot_hold_are_handled_when_converting(tmp_path):
    from skbn.io import read_network, write_network

    bn = DiscreteBayesianNetwork(
        {"a": ["lo", "hi"], "b": ["x", "z"]},
        {"a": [], "b": ["a"]},
        {"a": np.array([0.3, 0.7]), "b": np.array([[0.1, 0.9], [0.8, 0.2]])},
        name='my "first" net',
    )
    write_network(bn, tmp_path / "m.net")
    assert read_network(tmp_path / "m.net").name == "my _first_ net"
    # a NET network named with spaces converts to BIF (the name is a label, made a word)
    write_network(read_network(tmp_path / "m.net"), tmp_path / "m.bif")
    assert read_network(tmp_path / "m.bif").name == "my__first__net"
    pyagrum = pytest.importorskip("pyagrum")
    for name in ("m.net", "m.bif"):
        loaded = pyagrum.loadBN(str(tmp_path / name))
        assert sorted(loaded.variable(i).name() for i in loaded.nodes()) == ["a", "b"]


def test_xdsl_reader_reads_deterministic_nodes_and_parents_order():
    text = """<?xml version="1.0"?>
    <smile version="1.0" id="t"><nodes>
      <cpt id="a"><state id="a0"/><state id="a1"/><probabilities>0.5 0.5</probabilities></cpt>
      <cpt id="b"><state id="b0"/><state id="b1"/><state id="b2"/>
        <probabilities>0.2 0.3 0.5</probabilities></cpt>
      <cpt id="c"><state id="c0"/><state id="c1"/><parents>a b</parents>
        <probabilities>0.1 0.9 0.2 0.8 0.3 0.7 0.4 0.6 0.5 0.5 0.6 0.4</probabilities></cpt>
      <deterministic id="d"><state id="no"/><state id="yes"/><parents>a</parents>
        <resultingstates>yes no</resultingstates></deterministic>
    </nodes></smile>"""
    bn = parse_xdsl(text)
    # the last parent (b) varies fastest, the node's own states fastest of all
    assert bn.cpts["c"][0, 1].tolist() == [0.2, 0.8]
    assert bn.cpts["c"][1, 0].tolist() == [0.4, 0.6]
    assert bn.cpts["d"].tolist() == [[0.0, 1.0], [1.0, 0.0]]
    assert_same_network(bn, parse_xdsl(to_xdsl(bn)))


@pytest.mark.parametrize(
    "text, message",
    [
        ('node a { states = ("x" "y"); }', "has no potential"),
        ('node a { states = ("x" "x"); } potential (a) { data = (0.5 0.5); }', "distinct"),
        ('node a { states = ("x" "y"); } potential (a) { data = (0.5 0.6); }', "sums to 1.1"),
        ('node a { states = ("x" "y"); } potential (a) { data = (0.5); }', "has 1 values"),
        ('node a { states = ("x" "y"); } potential (a | b) { data = (0.5 0.5); }', "undeclared"),
        ("continuous node a { }", "not supported"),
        ('node a { states = ("x" "y"); } potential (a) { data = (0.5 0.5) }', "expected ';'"),
        ('net { name = "n"; } \n\n node a { states = ("x" "y") ; } $', "line 3"),
        ("node a { states = " + "(" * 500 + "1", "nested"),
        (
            'node a { states = ("x" "y"); } node b { states = ("x" "y"); }'
            " potential (a | b) { data = ((0.5 0.5) (0.5 0.5)); }"
            " potential (b | a) { data = ((0.5 0.5) (0.5 0.5)); }",
            "directed cycle",
        ),
    ],
)
def test_net_reader_errors_name_the_problem(text, message):
    with pytest.raises(NetworkFileError, match=message):
        parse_net(text)


@pytest.mark.parametrize(
    "text, message",
    [
        ("<smile><nodes>", "well-formed"),
        ("<net/>", "root element"),
        ('<smile><nodes><noisymax id="a"/></nodes></smile>', "noisy-MAX"),
        ('<smile><nodes><equation id="a"/></nodes></smile>', "equation"),
        (
            '<smile><nodes><cpt id="b"><state id="x"/><parents>a</parents>'
            "<probabilities>1</probabilities></cpt></nodes></smile>",
            "not declared before",
        ),
        (
            '<!DOCTYPE x [<!ENTITY a "aaaa">]><smile><nodes/></smile>',
            "entities",
        ),
    ],
)
def test_xdsl_reader_errors_name_the_problem(text, message):
    with pytest.raises(NetworkFileError, match=message):
        parse_xdsl(text)


@pytest.mark.parametrize("lead", ["padding", "comment"])
def test_xdsl_entities_are_refused_wherever_they_are(lead):
    # after 100,001 characters of padding, or of a comment, a declaration is still one
    head = " " * 100_001 if lead == "padding" else "<!--" + "x" * 100_001 + "-->"
    text = (
        '<?xml version="1.0"?>' + head + '<!DOCTYPE smile [<!ENTITY s "yes">]>'
        '<smile><nodes><cpt id="a"><state id="&s;"/><state id="no"/>'
        "<probabilities>0.5 0.5</probabilities></cpt></nodes></smile>"
    )
    with pytest.raises(NetworkFileError, match="entities"):
        parse_xdsl(text)


def test_huge_declared_tables_are_refused_before_allocation():
    parents = [f"p{k}" for k in range(30)]
    nodes = "".join(f'node {p} {{ states = ("a" "b"); }}\n' for p in parents + ["c"])
    text = nodes + f"potential (c | {' '.join(parents)}) {{ data = (0.5 0.5); }}"
    tracemalloc.start()
    with pytest.raises(NetworkFileError, match="would hold 2,147,483,648 probabilities"):
        parse_net(text)
    xdsl = "<smile><nodes>" + "".join(
        f'<cpt id="{p}"><state id="a"/><state id="b"/><probabilities>0.5 0.5</probabilities></cpt>'
        for p in parents
    )
    xdsl += f'<cpt id="c"><state id="a"/><state id="b"/><parents>{" ".join(parents)}</parents>'
    xdsl += "<probabilities>0.5 0.5</probabilities></cpt></nodes></smile>"
    with pytest.raises(NetworkFileError, match="would hold"):
        parse_xdsl(xdsl)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50e6  # nothing of the declared size (16 GiB of float64) was allocated


def test_gzip_files_are_read(tmp_path):
    bn = load_network("cancer")
    for fmt in FORMATS:
        plain = tmp_path / f"c.{fmt}"
        write_network(bn, plain)
        packed = tmp_path / f"c.{fmt}.gz"
        packed.write_bytes(gzip.compress(plain.read_bytes()))
        assert_same_network(bn, read_network(packed))


def test_format_is_checked_before_any_work(tmp_path):
    assert network_format("a.BIF") == "bif"
    assert network_format("a.net.gz") == "net"
    with pytest.raises(ValueError, match="graph format"):
        network_format("learned.graphml")
    with pytest.raises(ValueError, match="format='bif'"):
        write_network(load_network("asia"), tmp_path / "asia.txt")
    with pytest.raises(ValueError, match="not a network format"):
        network_format("a.bif", format="uai")
    assert not list(tmp_path.iterdir())


def test_writing_a_graph_says_how_to_get_a_network(tmp_path):
    graph = load_network("asia").graph
    for fmt in FORMATS:
        with pytest.raises(TypeError, match="fit_network"):
            write_network(graph, tmp_path / f"g.{fmt}")
    from skbn.io import write_bif

    with pytest.raises(TypeError, match="network_"):
        write_bif(graph, tmp_path / "g.bif")


def test_names_that_are_not_identifiers_are_refused_for_net_and_xdsl():
    bn = DiscreteBayesianNetwork({"blood pressure": ["lo", "hi"]}, {}, {"blood pressure": [1, 0]})
    for writer in (to_net, to_xdsl):
        with pytest.raises(ValueError, match="blood pressure"):
            writer(bn)


def test_an_interop_library_below_the_floor_is_named_with_its_version(monkeypatch):
    from importlib import metadata

    from skbn.datasets import load_network
    from skbn.io import to_pgmpy

    real = metadata.version
    monkeypatch.setattr(
        metadata, "version", lambda name: "0.1.26" if name == "pgmpy" else real(name)
    )
    with pytest.raises(ImportError, match=r"pgmpy 1\.0 or newer, and 0\.1\.26 is installed"):
        to_pgmpy(load_network("asia"))


def test_a_nameless_network_is_written_as_bif_that_pyagrum_reads(tmp_path):
    from skbn.io import parse_bif, write_network

    bn = parse_bif(
        "variable a { type discrete [ 2 ] { lo, hi }; } probability ( a ) { table 0.25, 0.75; }"
    )
    assert bn.name == "network"  # no network block: the reader's name
    path = tmp_path / "nameless.bif"
    write_network(bn, path)
    assert path.read_text().startswith("network unnamed {")
    gum = pytest.importorskip("pyagrum")
    assert gum.loadBN(str(path)).size() == 1


@pytest.mark.parametrize("name", ["m.net.gz", "m.xdsl.gz", "m.BIF.GZ", "m.bif.gz"])
def test_a_gz_suffix_writes_gzip_in_every_format(tmp_path, name):
    from skbn.io import read_network, write_network

    bn = load_network("asia")
    path = tmp_path / name
    write_network(bn, path)
    raw = path.read_bytes()
    assert raw[:2] == b"\x1f\x8b"  # gzip's magic number
    plain = tmp_path / name[: -len(".gz")]
    write_network(bn, plain)
    assert gzip.decompress(raw) == plain.read_bytes()  # the same text, compressed
    back = read_network(path)
    assert back.n_arcs == bn.n_arcs and back.n_parameters == bn.n_parameters


@pytest.mark.parametrize("suffix", [".bif", ".net", ".xdsl"])
def test_a_utf8_byte_order_mark_is_read_past(tmp_path, suffix):
    from skbn.io import read_network, write_network

    bn = load_network("asia")
    plain = tmp_path / f"plain{suffix}"
    write_network(bn, plain)
    marked = tmp_path / f"marked{suffix}"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    back = read_network(marked)
    assert back.nodes == read_network(plain).nodes and back.n_arcs == bn.n_arcs


def test_xdsl_in_the_encoding_it_declares(tmp_path):
    from skbn.io import read_network, write_network

    write_network(load_network("asia"), tmp_path / "a.xdsl")
    text = (tmp_path / "a.xdsl").read_text(encoding="utf-8")
    # GeNIe's usual header, with a state name outside ASCII
    latin = text.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace(
        'id="yes"', 'id="y\xe9s"'
    )
    (tmp_path / "latin.xdsl").write_bytes(latin.encode("latin-1"))
    assert "y\xe9s" in read_network(tmp_path / "latin.xdsl").states["asia"]
    wide = text.replace('encoding="UTF-8"', 'encoding="UTF-16"')
    (tmp_path / "wide.xdsl").write_bytes(wide.encode("utf-16"))
    assert read_network(tmp_path / "wide.xdsl").n_arcs == 8
    # the entity refusal holds in any encoding
    evil = wide.replace("<smile", '<!DOCTYPE smile [<!ENTITY s "yes">]>\n<smile', 1)
    (tmp_path / "evil.xdsl").write_bytes(evil.encode("utf-16"))
    with pytest.raises(ValueError, match="document type declarations"):
        read_network(tmp_path / "evil.xdsl")
    unknown = text.replace('encoding="UTF-8"', 'encoding="NO-SUCH-CODEC"')
    (tmp_path / "unknown.xdsl").write_text(unknown, encoding="utf-8")
    with pytest.raises(ValueError, match="names the encoding 'NO-SUCH-CODEC'"):
        read_network(tmp_path / "unknown.xdsl")


@pytest.mark.parametrize("fmt", ["bif", "net"])
def test_an_oversized_table_is_refused_while_reading_in_bounded_memory(fmt):
    # 4 MB of "1" where two values are declared: the tokens are read one at a time and the
    # table is refused at its third value (the readers used to hold every token first:
    # ~1.4 GB and 10 s for 10 MB of BIF on a 2-core machine)
    payload = " ".join(["1"] * 2_000_000)
    if fmt == "bif":
        text = (
            "variable a { type discrete [ 2 ] { x, y }; }\n"
            f"probability ( a ) {{ table {payload.replace(' ', ',')}; }}\n"
        )
        read, match = parse_bif, "table of 'a' has more than the 2 values"
    else:
        text = f'node a {{ states = ("x" "y"); }}\npotential (a) {{ data = ({payload}); }}\n'
        read, match = parse_net, "data of 'a' has more than the 2 numbers"
    tracemalloc.start()
    with pytest.raises(NetworkFileError, match=f"line 2: the {match}"):
        read(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 5e6  # a few tokens, not two million of them


@pytest.mark.slow
def test_the_bif_writer_warns_for_exactly_the_bundled_networks_pyagrum_cannot_read(tmp_path):
    # the portability rule against pyAgrum itself on the 24 bundled networks
    import pyagrum as gum

    from skbn.io import NetworkPortabilityWarning

    for name in list_networks():
        path = tmp_path / f"{name}.bif"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            write_network(load_network(name), path)
        warned = any(w.category is NetworkPortabilityWarning for w in caught)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                gum.loadBN(str(path))
            read = True
        except Exception:  # noqa: BLE001 - pyAgrum's own error types
            read = False
        assert warned == (not read), name
