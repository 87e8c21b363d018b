"""``python -m nerve`` runs the ``nerve`` command."""

import sys

from .cli import main

sys.exit(main())
