# SPDX-License-Identifier: BSD-3-Clause
"""``python -m skbn.cli`` runs the ``skbn`` command."""

from skbn.cli import main

raise SystemExit(main())
