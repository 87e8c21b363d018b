"""``python -m nerve`` runs the ``nerve`` command."""

import sys

from .cli.main import main

sys.exit(main())
