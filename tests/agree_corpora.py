"""Real corpora as several annotators, for the agreement tests: gold and system outputs side by side.

GermEval 2014's test set (``../shared/data/germeval2014``) comes with five systems' outputs aligned
line by line with the gold file; the gold and four systems stand in for five annotators. The
sentences are grouped into documents of ``per_doc`` sentences (``-DOCSTART-`` lines), so that
documents can be resampled. Token labels are taken straight from the tags (the type after ``B-``
or ``I-``, ``O`` otherwise), independently of nerve's decoder.
"""

from __future__ import annotations

import json
from pathlib import Path

SYSTEMS = (
    "germaner_trained_with_germeval_tested_on_germeval",
    "lstm_trained_with_germeval_tested_on_germeval-evaluatoready",
    "spacy_trained_with_germeval_tested_on_germeval",
    "stanford_trained_with_germeval_tested_on_germeval",
)
NAMES = ("gold", "germaner", "lstm", "spacy", "stanford")

Sentence = list[tuple[str, list[str]]]  # each token and its tag by each annotator


def germeval_sentences(shared: Path, limit: int | None = None) -> list[Sentence]:
    """The sentences of GermEval's test set, each token with the gold tag and the four systems' tags."""
    merged = shared / "germeval2014" / "merged"
    files = [(merged / f"{s}.gold-pred.txt").read_text(encoding="utf-8").split("\n") for s in SYSTEMS]
    sentences: list[Sentence] = []
    current: Sentence = []
    for lines in zip(*files, strict=True):
        fields = [line.split(" ") for line in lines]
        if not lines[0].strip():
            if current:
                sentences.append(current)
                current = []
                if limit is not None and len(sentences) == limit:
                    break
            continue
        token, gold = fields[0][0], fields[0][1]
        current.append((token, [gold, *(f[2] for f in fields)]))
    if current and (limit is None or len(sentences) < limit):
        sentences.append(current)
    return sentences


def write_columns(sentences: list[Sentence], path: Path, per_doc: int) -> Path:
    """A CoNLL file ``token TAG_1 ... TAG_m``, a ``-DOCSTART-`` line every ``per_doc`` sentences."""
    out = []
    for i, sentence in enumerate(sentences):
        if i % per_doc == 0:
            out += [f"-DOCSTART- {' '.join('O' for _ in sentence[0][1])}", ""]
        out += [" ".join([token, *tags]) for token, tags in sentence]
        out.append("")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def token_label(tag: str) -> str:
    """The type a tag marks its token with (``O`` for none)."""
    return tag.split("-", 1)[1] if "-" in tag else "O"


def chunks(tags: list[str]) -> list[tuple[int, int, str]]:
    """IOB2 chunks as conlleval.pl reads them (``I-X`` after ``O`` or another type begins one)."""
    out: list[tuple[int, int, str]] = []
    start, kind = None, None
    for i, tag in enumerate([*tags, "O"]):
        prefix, _, name = tag.partition("-")
        begins = prefix == "B" or (prefix == "I" and name != kind)
        if start is not None and (tag == "O" or begins):
            out.append((start, i, str(kind)))
            start, kind = None, None
        if tag != "O" and begins:
            start, kind = i, name
    return out


def nested_annotators(tmp_path: Path) -> list[Path]:
    """Two annotators who both mark "New York City" and "New York" inside it."""
    line = {
        "text": "New York City is big",
        "spans": [{"start": 0, "end": 13, "label": "LOC"}, {"start": 0, "end": 8, "label": "LOC"}],
    }
    paths = [tmp_path / f"a{a}.jsonl" for a in (1, 2)]
    for path in paths:
        path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    return paths
