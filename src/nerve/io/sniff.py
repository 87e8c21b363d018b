"""Which format a file or directory is in, from its name and its first bytes.

In: a path. Out: the name of a format nerve reads (`sniff_format`): ``conll`` unless the file is
JSON of a known shape, a HIPE or CoNLL-U file, or brat standoff.
"""

from __future__ import annotations

import os
import re

from .sources import read_head

__all__ = ["sniff_format"]

_LABEL_STUDIO = re.compile(rb'"(annotations|completions|predictions)"\s*:\s*\[|"data"\s*:\s*\{')
_SPACY_JSONL = re.compile(rb'"(_input_hash|token_start)"\s*:|"ents"\s*:\s*\[')
_DOCCANO = re.compile(rb'"labels?"\s*:\s*\[\s*[\[\]]|"start_offset"\s*:')


def sniff_format(path: str) -> str:
    """Guess a file's format from its name and first bytes; ``conll`` unless it is JSON or brat.

    A ``.ann`` file is brat standoff, and so is a directory, unless it holds files but no ``.ann`` or
    ``.txt``: then it holds CoNLL files (``--pattern`` or ``--format conll`` say so in any case).
    """
    if os.path.isdir(path):  # brat, unless it holds files and no .ann or .txt: CoNLL files paired by name
        names = [n for _, _, found in os.walk(path) for n in found]
        return "brat" if not names or any(n.endswith((".ann", ".txt")) for n in names) else "conll"
    if path.endswith(".ann"):
        return "brat"
    if path.endswith(".conllu"):
        return "conllu"
    if path.endswith(".spacy"):
        return "spacy"
    if not os.path.isfile(path):
        return "jsonl" if path.endswith(".jsonl") else "conll"  # the reader says what is wrong
    head = read_head(path, 1 << 16).lstrip(b"\xef\xbb\xbf \t\r\n")
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
