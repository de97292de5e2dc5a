# SPDX-License-Identifier: BSD-3-Clause
"""The version of skbn, in one place (the package and the command line read it)."""

__version__ = "0.1.0.dev0"
