"""The ``nerve`` command: argument parsing over the public API, and exit codes.

Exit status 0 on success, 1 when `validate` finds problems, 2 for a user's mistake (a `NerveError`),
printed as one line; anything else is a bug and keeps its traceback.
"""

from .main import main

__all__ = ["main"]
