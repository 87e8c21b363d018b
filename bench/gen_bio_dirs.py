"""Split a merged CoNLL corpus from gen_corpus.py into ie-eval's layout: two directories of BIO files.

Usage::

    python bench/gen_bio_dirs.py CORPUS.txt OUT_DIR --sentences-per-document 1
    python bench/gen_bio_dirs.py CORPUS.txt OUT_DIR --sentences-per-document 100

writes ``OUT_DIR/labels/NNNNNN.bio`` and ``OUT_DIR/predictions/NNNNNN.bio``: one document per group of
``--sentences-per-document`` consecutive sentences (one sentence is about 20 tokens), one ``token TAG`` line
per token, separated by one space, with no blank lines (ie-eval's parser rejects them). The two sides
have the same words. ie-eval also rejects invalid IOB2, so each side's tags are repaired the usual way
first: a tag that cannot continue the open entity begins one (``I-X`` after ``O`` or another type
becomes ``B-X``). Only the standard library is needed.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_spans import read_sentences


def valid_iob2(tags: list[str]) -> list[str]:
    """The tags with every ``I-X`` that cannot continue an entity of type X turned into ``B-X``."""
    out = []
    previous = "O"
    for tag in tags:
        if tag.startswith("I-") and (previous == "O" or previous[2:] != tag[2:]):
            tag = "B-" + tag[2:]
        out.append(tag)
        previous = tag
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--sentences-per-document", type=int, default=1)
    args = parser.parse_args(argv)
    for side in ("labels", "predictions"):
        target = args.out / side
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    group: list[tuple[list[str], list[str], list[str]]] = []
    n_docs = 0

    def flush() -> None:
        nonlocal n_docs
        if not group:
            return
        for side, column in (("labels", 1), ("predictions", 2)):
            lines = []
            for sentence in group:
                tokens, tags = sentence[0], valid_iob2(sentence[column])
                lines += [f"{w} {t}\n" for w, t in zip(tokens, tags, strict=True)]
            (args.out / side / f"{n_docs:06}.bio").write_text("".join(lines), encoding="utf-8")
        n_docs += 1
        group.clear()

    for sentence in read_sentences(args.corpus):
        group.append(sentence)
        if len(group) == args.sentences_per_document:
            flush()
    flush()
    print(f"{n_docs} documents in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
