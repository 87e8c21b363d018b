"""Which format a file or directory is in, from its name and its first bytes.

In: a path. Out: the name of a format nerve reads (`sniff_format`): ``conll`` unless the file is
JSON of a known shape, a HIPE or CoNLL-U file, or brat standoff. A directory is brat standoff,
unless its files are not ``.ann``/``.txt`` files, or its ``.txt`` files (and no ``.ann``) hold
token and tag columns: then it is a directory of CoNLL files.

`unlike` turns a reader's error on a file that looks like another format than the one it was
read as into one that says so, and what fixes it: ``--format``, or, when the gold and the
predictions are in two formats, converting them into one.
"""

from __future__ import annotations

import os
import re

from ..errors import InputError
from .sources import read_head

__all__ = ["looks_like_columns", "sniff_format", "unlike"]

_LABEL_STUDIO = re.compile(rb'"(annotations|completions|predictions)"\s*:\s*\[|"data"\s*:\s*\{')
_SPACY_JSONL = re.compile(rb'"(_input_hash|token_start)"\s*:|"ents"\s*:\s*\[')
_DOCCANO = re.compile(rb'"labels?"\s*:\s*\[\s*[\[\]]|"start_offset"\s*:')
_TAG = re.compile(rb"O|[BIESLUM][-_]\S+|\S+[-_][BIESLUM]")
_HEAD = 1 << 16


def looks_like_columns(head: bytes) -> bool:
    """Whether a file's first bytes are lines of token and tag columns (most ending in a tag)."""
    lines = head.splitlines()[:200]
    if len(head) == _HEAD:
        lines = lines[:-1]  # cut short
    rows = [line.split() for line in lines if line.strip() and not line.startswith(b"-DOCSTART-")]
    if not rows or any(len(row) < 2 for row in rows):
        return False
    return 2 * sum(1 for row in rows if _TAG.fullmatch(row[-1])) >= len(rows)


def _directory(path: str) -> str:
    """brat, unless the files are no ``.ann``/``.txt`` files, or ``.txt`` files of columns: CoNLL."""
    names = sorted(os.path.join(root, n) for root, _, found in os.walk(path) for n in found)
    if not names or any(n.endswith(".ann") for n in names):
        return "brat"
    texts = [n for n in names if n.endswith(".txt")]
    if not texts:
        return "conll"
    try:
        return "conll" if all(looks_like_columns(read_head(n, _HEAD)) for n in texts[:3]) else "brat"
    except InputError:
        return "brat"  # the reader names the file


def sniff_format(path: str) -> str:
    """Guess a file's format from its name and first bytes; ``conll`` unless it is JSON or brat.

    A ``.ann`` file is brat standoff, and so is a directory, unless it holds CoNLL files (see the
    module; ``--pattern`` or ``--format conll`` say so in any case).
    """
    if os.path.isdir(path):
        return _directory(path)
    if path.endswith(".ann"):
        return "brat"
    if path.endswith(".conllu"):
        return "conllu"
    if path.endswith(".spacy"):
        return "spacy"
    if not os.path.isfile(path):
        return "jsonl" if path.endswith(".jsonl") else "conll"  # the reader says what is wrong
    head = read_head(path, _HEAD).lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head and path.endswith(".json"):
        return "json"  # empty: no documents
    if head.startswith(b"TOKEN\t"):
        return "hipe"
    if head.startswith((b"{", b"[")) and re.search(rb'"sentences"\s*:\s*\[\s*\[', head):
        return "nested"
    if head.startswith((b"{", b"[")) and re.search(rb'"(gold|pred)"\s*:\s*\[\s*\[\s*"', head):
        return "eval4ner"
    if head.startswith((b"{", b"[")) and _LABEL_STUDIO.search(head):
        return "labelstudio"
    if head.startswith(b"{") and _SPACY_JSONL.search(head):
        return "spacy-jsonl"
    if head.startswith(b"{") and _DOCCANO.search(head):
        return "doccano"
    if path.endswith(".jsonl"):
        return "jsonl"
    if head.startswith(b"{"):
        return "nervaluate" if head.startswith((b'{"true"', b'{"pred"')) else "jsonl"
    if not head.startswith(b"["):
        return "conll"
    if b'"predicted"' in head:
        return "nereval"
    stripped = head[1:].lstrip()
    return "nervaluate" if stripped.startswith(b"[") else "json"


def _looks(path: str) -> str | None:
    """The format ``path`` looks like, where it looks like one: ``conll`` only for columns."""
    try:
        if not os.path.isfile(path):
            return None
        found = sniff_format(path)
        if found == "conll" and not looks_like_columns(read_head(path, _HEAD)):
            return None
    except InputError:
        return None
    return found


def unlike(err: InputError, fmt: str, gold: str, pred: str | None) -> InputError:
    """``err`` (a reader's, on ``gold`` or ``pred`` read as ``fmt``), saying what its file looks like.

    Where the file looks like another format: the ``--format`` that reads it, or, when the gold
    and the predictions look like two formats, how to give them in one.
    """
    looks = _looks(err.source) if err.source in (gold, pred) else None
    if looks is None or looks == fmt:
        return err
    detail = f"{err.detail}; the file looks like {looks}, not {fmt}"
    other = pred if err.source == gold else gold
    theirs = _looks(other) if other is not None and other != err.source else None
    if theirs is not None and theirs != looks:
        detail += (
            f", and {other} like {theirs}: gold and predictions are read in one format; convert both "
            "to JSONL (nerve convert FILE OUT --to jsonl)"
        )
    else:
        detail += f": pass --format {looks}"
    return InputError(err.source, err.line, detail)
