"""The names of the tagging schemes nerve knows, and their aliases: what ``--scheme`` takes.

Apart from `nerve.model.schemes` (whose `SCHEMES` are dataclasses, one per name here) so that the
parsers, ``nerve --help`` included, list the schemes without importing `dataclasses`.
"""

from __future__ import annotations

__all__ = ["ALIASES", "NAMES", "SUPPORTED_SCHEMES"]

#: Each scheme by its canonical name, in the order of `nerve.model.schemes.SCHEMES`.
NAMES = ("IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BMES")
#: Other names of three of them.
ALIASES = {"BIO": "IOB2", "BIOES": "IOBES", "BIOLU": "BILOU"}
#: What ``--scheme`` and ``scheme=`` take (``auto``: inferred from the tags).
SUPPORTED_SCHEMES = ("auto", *NAMES, *ALIASES)
