# SPDX-License-Identifier: BSD-3-Clause
"""Network files and other libraries' models.

* :func:`read_network` / :func:`write_network`: BIF, Hugin NET and GeNIe XDSL, the format
  from the file's suffix (``format=`` overrides it); one reader and writer per format too.
* :func:`read_table`: a CSV file of data, with the missing-value policy of ``skbn learn``
  (only empty cells and named tokens are missing); :func:`format_of` tells a network file
  from a graph file by its suffix.
* :func:`to_pgmpy` / :func:`from_pgmpy` and :func:`to_pyagrum` / :func:`from_pyagrum`: the
  same network as a pgmpy or pyAgrum model, for their inference (``skbn[interop]``).

Graphs without parameters are read and written by :func:`skbn.graph.read_graph` and
:func:`skbn.graph.write_graph` (GraphML, JSON, DOT). A fitted learner's ``network_`` and
:func:`skbn.parameters.fit_network` give the networks to write.
"""

from skbn.io._bif import BIFError, parse_bif, read_bif, to_bif, write_bif
from skbn.io._common import MAX_TABLE_ENTRIES, NetworkFileError, NetworkPortabilityWarning
from skbn.io._files import NETWORK_FORMATS, format_of, network_format, read_network, write_network
from skbn.io._interop import from_pgmpy, from_pyagrum, to_pgmpy, to_pyagrum
from skbn.io._net import parse_net, read_net, to_net, write_net
from skbn.io._table import (
    MISSING_LOOKALIKES,
    ManyStatesWarning,
    MissingLookalikeWarning,
    read_table,
)
from skbn.io._xdsl import parse_xdsl, read_xdsl, to_xdsl, write_xdsl

__all__ = [
    "BIFError",
    "MAX_TABLE_ENTRIES",
    "MISSING_LOOKALIKES",
    "ManyStatesWarning",
    "MissingLookalikeWarning",
    "NETWORK_FORMATS",
    "NetworkFileError",
    "NetworkPortabilityWarning",
    "format_of",
    "from_pgmpy",
    "from_pyagrum",
    "network_format",
    "parse_bif",
    "parse_net",
    "parse_xdsl",
    "read_bif",
    "read_net",
    "read_network",
    "read_table",
    "read_xdsl",
    "to_bif",
    "to_net",
    "to_pgmpy",
    "to_pyagrum",
    "to_xdsl",
    "write_bif",
    "write_net",
    "write_network",
    "write_xdsl",
]
