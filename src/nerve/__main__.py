"""``python -m nerve`` runs the ``nerve`` command."""

import sys

from .cli import console

sys.exit(console())
