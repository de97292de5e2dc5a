# SPDX-License-Identifier: BSD-3-Clause
import gzip

import numpy as np
import pytest

from skbn.datasets import list_networks, load_network
from skbn.io import BIFError, NetworkFileError, parse_bif, read_bif, to_bif, write_bif

TINY = """network tiny {
}
variable rain {
  type discrete [ 2 ] { no, yes };
}
variable wet {
  type discrete [ 2 ] { dry, wet };
  property position = (1, 2);
}
probability ( rain ) {
  table 0.8, 0.2;
}
probability ( wet | rain ) {
  (yes) 0.1, 0.9;
  (no) 0.95, 0.05;
}
"""


def test_list_networks_has_the_24_bundled_networks():
    names = list_networks()
    assert len(names) == 24
    assert {
        "alarm",
        "asia",
        "sachs",
        "insurance",
        "child",
        "hailfinder",
        "hepar2",
        "win95pts",
        "munin",
        "pathfinder",
    } <= set(names)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::skbn.io.NetworkPortabilityWarning")  # child: pyAgrum
@pytest.mark.parametrize("name", list_networks())
def test_every_bundled_network_round_trips_through_bif(name, tmp_path):
    bn = load_network(name)
    path = tmp_path / f"{name}.bif.gz"
    write_bif(bn, path)
    back = read_bif(path)
    assert back.nodes == bn.nodes
    assert back.states == bn.states
    assert back.parents == bn.parents
    for v in bn.nodes:
        np.testing.assert_allclose(back.cpts[v], bn.cpts[v], rtol=0, atol=1e-12)
    assert back.n_parameters == bn.n_parameters


def test_rows_are_matched_by_parent_state_labels_not_order():
    bn = parse_bif(TINY)
    np.testing.assert_allclose(bn.cpts["wet"], [[0.95, 0.05], [0.1, 0.9]])
    assert bn.parents["wet"] == ("rain",)
    assert bn.name == "tiny"
    assert parse_bif(to_bif(bn)).cpts["wet"].tolist() == bn.cpts["wet"].tolist()


def test_known_figures_of_the_repository_networks():
    # arcs and free parameters as listed by the bnlearn repository
    for name, arcs, params in [
        ("asia", 8, 18),
        ("alarm", 46, 509),
        ("hepar2", 123, 1453),
        ("insurance", 52, 1008),
        ("child", 25, 230),
    ]:
        bn = load_network(name)
        assert (bn.n_arcs, bn.n_parameters) == (arcs, params), name


@pytest.mark.parametrize(
    "text, line, match",
    [
        (TINY.replace("[ 2 ] { no, yes }", "[ 3 ] { no, yes }"), 4, "declares 3 states"),
        (TINY.replace("table 0.8, 0.2;", "table 0.8, 0.7;"), 11, "do not sum to 1"),
        (TINY.replace("(no) 0.95, 0.05;", "(no) 1.5, -0.5;"), 15, "negative"),
        (TINY.replace("(yes) 0.1, 0.9;", "(maybe) 0.1, 0.9;"), 14, "'maybe' is not a state"),
        (TINY.replace("(yes) 0.1, 0.9;", "(yes) 0.1, x;"), 14, "expected a probability"),
        (TINY.replace("(yes) 0.1, 0.9;\n", ""), 13, "unspecified"),
        (TINY.replace("variable wet {", "varible wet {"), 6, "expected 'network'"),
        (TINY.replace("wet | rain", "wet | snow"), 13, "'snow' is used before"),
        (TINY.replace("table 0.8, 0.2;", "table 0.8, 0.1, 0.1;"), 11, "more than the 2 values"),
        (TINY.replace("table 0.8, 0.2;", "table 0.8;"), 11, "has 1 values, expected 2"),
        (TINY + "probability ( rain ) {\n  table 0.5, 0.5;\n}\n", 17, "second probability"),
        (TINY[: TINY.rindex("}")], 16, "end of file"),
        (TINY.replace("(yes) 0.1, 0.9;", "(yes) 0.1 0.9 0.2;"), 14, "more than the 2 values"),
        (TINY.replace("{ no, yes }", "{ no, yes ]"), 4, "expected a name"),
        (TINY.replace("rain {\n  type", "rain {\n  tipe"), 4, "expected 'type'"),
    ],
)
def test_malformed_bif_reports_the_line(text, line, match):
    with pytest.raises(BIFError, match=f"line {line}: .*{match}"):
        parse_bif(text)


def test_cycles_and_missing_blocks_are_errors():
    cyclic = TINY.replace(
        "probability ( rain ) {\n  table 0.8, 0.2;\n}",
        "probability ( rain | wet ) {\n  (dry) 0.5, 0.5;\n  (wet) 0.5, 0.5;\n}",
    )
    with pytest.raises(BIFError, match="cycle"):
        parse_bif(cyclic)
    with pytest.raises(BIFError, match="no probability block.*'wet'"):
        parse_bif(TINY[: TINY.index("probability ( wet")])


def test_default_rows_comments_and_plain_files(tmp_path):
    text = TINY.replace("(no) 0.95, 0.05;", "default 0.95, 0.05; // the rest")
    text = "/* a comment\n spanning lines */\n" + text
    path = tmp_path / "tiny.bif"
    path.write_text(text)
    bn = read_bif(path)
    np.testing.assert_allclose(bn.cpts["wet"][0], [0.95, 0.05])


def test_writer_refuses_names_bif_cannot_hold():
    bn = parse_bif(TINY)
    bn.states["rain"] = ("no rain", "yes")
    with pytest.raises(ValueError, match="'no rain' cannot be written"):
        to_bif(bn)


def test_unknown_network_suggests_close_names():
    with pytest.raises(ValueError, match="Did you mean 'alarm'"):
        load_network("alarn")
    assert load_network("ASIA.bif").name == "asia"
    with pytest.raises(TypeError):
        load_network(3)


def test_loaded_networks_are_independent_objects():
    a = load_network("asia")
    a.states.clear()
    assert load_network("asia").states["asia"] == ("yes", "no")


def _big_parent_bif(n_parents: int) -> str:
    """A 2-4 KB file declaring one binary child of ``n_parents`` binary parents."""
    parents = [f"p{k}" for k in range(n_parents)]
    text = "".join(f"variable {u} {{ type discrete [ 2 ] {{ a, b }}; }}\n" for u in parents)
    text += "variable c { type discrete [ 2 ] { a, b }; }\n"
    text += "".join(f"probability ( {u} ) {{ table 0.5, 0.5; }}\n" for u in parents)
    return text + f"probability ( c | {', '.join(parents)} ) {{ default 0.5, 0.5; }}\n"


def test_a_huge_declared_table_is_refused_before_it_is_allocated():
    # 2**33 probabilities would take 64 GiB; the reader refuses before allocating
    with pytest.raises(BIFError, match=r"line 66: the table of 'c' given 32 parents .* more than"):
        parse_bif(_big_parent_bif(32))
    # a table within the limit is still read, default rows included
    bn = parse_bif(_big_parent_bif(10))
    assert bn.cpts["c"].shape == (2,) * 11


def test_an_unclosed_comment_fails_at_once_with_its_line():
    with pytest.raises(BIFError, match="line 2: comment opened with '/\\*' is never closed"):
        parse_bif("network x { }\n" + "/* " * 50_000)


@pytest.mark.parametrize(
    "text, match",
    [
        ("", "no variable is declared"),
        ("// only a comment\n", "no variable is declared"),
        ("variable a { type discrete [ 0 ] { }; }", "line 1: variable 'a' declares 0 states"),
        (
            TINY.replace("(yes) 0.1, 0.9;", "(yes) 0.1, 0.9;\n  (yes) 0.2, 0.8;"),
            "line 15: row \\('yes',\\) of 'wet' is given twice",
        ),
    ],
)
def test_empty_stateless_and_duplicated_content_is_an_error(text, match):
    with pytest.raises(BIFError, match=match):
        parse_bif(text)


def test_broken_gzip_and_non_utf8_files_are_the_readers_errors(tmp_path):
    data = gzip.compress(TINY.encode())
    truncated = tmp_path / "truncated.bif.gz"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(BIFError, match="truncated.bif.gz: not a complete gzip file"):
        read_bif(truncated)
    latin = tmp_path / "latin.bif"
    latin.write_bytes(TINY.replace("rain", "r\xe9in", 1).encode("latin-1"))
    with pytest.raises(BIFError, match="latin.bif, line 3: byte 0xe9 is not UTF-8"):
        read_bif(latin)


def test_a_decompression_bomb_is_refused(tmp_path, monkeypatch):
    from skbn.io import _common

    monkeypatch.setattr(_common, "MAX_TEXT_BYTES", 1_000_000)
    bomb = tmp_path / "bomb.bif.gz"
    bomb.write_bytes(gzip.compress(b" " * 5_000_000))
    with pytest.raises(BIFError, match="more than 1,000,000 bytes"):
        read_bif(bomb)


def test_bif_errors_are_network_file_errors_and_moved_names_warn():
    # one hierarchy: every format's error is a NetworkFileError, BIF's included
    assert issubclass(BIFError, NetworkFileError) and issubclass(NetworkFileError, ValueError)
    with pytest.raises(NetworkFileError, match="line"):
        parse_bif("variable a { type discrete [ 2 ] { lo }; }")
    import skbn.datasets

    with pytest.warns(FutureWarning, match=r"skbn\.io\.read_bif"):
        assert skbn.datasets.read_bif is read_bif
