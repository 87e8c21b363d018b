"""Convert a merged CoNLL corpus from gen_corpus.py into span files for the MUC benchmark.

Usage::

    python bench/gen_spans.py CORPUS.txt OUT_PREFIX

reads ``CORPUS.txt`` (``token gold pred`` lines, blank lines between sentences, ``-DOCSTART-`` lines
between documents) and writes one document per sentence in three formats:

- ``OUT_PREFIX.nervaluate.json``: ``{"true": [[{"label", "start", "end"}, ...], ...], "pred": [...]}``,
  nervaluate's dict loader input, with an INCLUSIVE token ``end``;
- ``OUT_PREFIX.jsonl``: one ``{"tokens": [...], "gold": [...], "pred": [...]}`` line per sentence, each span
  ``{"start", "end", "label"}`` with half-open token offsets (nerve's JSONL format);
- ``OUT_PREFIX.eval4ner.json``: ``[{"text", "gold": [[type, surface], ...], "pred": [...]}, ...]`` for
  eval4ner, where ``text`` is the sentence's tokens joined by single spaces and ``surface`` the entity's.

Tags are decoded as IOB2 with the usual repair: a tag that cannot continue the open entity begins a new
one (``I-X`` after ``O`` or after another type starts an entity of type X). When nerve is importable, the
spans are checked against ``nerve.decode(..., scheme="IOB2")``. Only the standard library is needed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

Span = tuple[int, int, str]  # half-open token offsets and type


def read_sentences(path: Path) -> Iterator[tuple[list[str], list[str], list[str]]]:
    """Yield (tokens, gold tags, predicted tags) per sentence; ``-DOCSTART-`` lines are skipped."""
    tokens: list[str] = []
    gold: list[str] = []
    pred: list[str] = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0] == "-DOCSTART-":
                if tokens:
                    yield tokens, gold, pred
                    tokens, gold, pred = [], [], []
                continue
            if len(fields) != 3:
                raise SystemExit(f"{path}: expected `token gold pred` lines, got {line!r}")
            tokens.append(fields[0])
            gold.append(fields[1])
            pred.append(fields[2])
    if tokens:
        yield tokens, gold, pred


def decode_iob2(tags: list[str]) -> list[Span]:
    """IOB2 entities; ``I-X`` continues only an open entity of type X, otherwise it begins one."""
    spans: list[Span] = []
    start, label = -1, ""
    for i, tag in enumerate(tags):
        if tag == "O":
            if start >= 0:
                spans.append((start, i, label))
                start = -1
            continue
        prefix, _, kind = tag.partition("-")
        if prefix not in ("B", "I") or not kind:
            raise SystemExit(f"not an IOB2 tag: {tag!r}")
        if prefix == "I" and start >= 0 and kind == label:
            continue
        if start >= 0:
            spans.append((start, i, label))
        start, label = i, kind
    if start >= 0:
        spans.append((start, len(tags), label))
    return spans


def convert(corpus: Path) -> tuple[list[list[str]], list[list[Span]], list[list[Span]]]:
    sentences, gold, pred = [], [], []
    for tokens, gold_tags, pred_tags in read_sentences(corpus):
        sentences.append(tokens)
        gold.append(decode_iob2(gold_tags))
        pred.append(decode_iob2(pred_tags))
    return sentences, gold, pred


def check_with_nerve(corpus: Path, gold: list[list[Span]], pred: list[list[Span]]) -> str:
    """Compare with nerve.decode on the same tags; return a one-line verdict."""
    try:
        import nerve
    except ImportError:
        return "nerve not importable, decoder not cross-checked"
    gold_tags, pred_tags = [], []
    for _, g, p in read_sentences(corpus):
        gold_tags.append(g)
        pred_tags.append(p)
    for side, tags, ours in (("gold", gold_tags, gold), ("pred", pred_tags, pred)):
        theirs: list[list[Span]] = [[] for _ in tags]
        for span in nerve.decode(tags, scheme="IOB2"):
            theirs[span.seq].append((span.start, span.end, span.label))
        if theirs != ours:
            bad = next(i for i, (a, b) in enumerate(zip(theirs, ours, strict=True)) if a != b)
            raise SystemExit(f"{side}: sentence {bad} decodes differently from nerve.decode")
    return "spans equal nerve.decode(..., scheme='IOB2')"


def write_nervaluate(path: Path, gold: list[list[Span]], pred: list[list[Span]]) -> None:
    def docs(side: list[list[Span]]) -> list[list[dict[str, object]]]:
        return [[{"label": t, "start": s, "end": e - 1} for s, e, t in doc] for doc in side]

    with path.open("w", encoding="utf-8") as f:
        json.dump({"true": docs(gold), "pred": docs(pred)}, f)
        f.write("\n")


def write_jsonl(
    path: Path, sentences: list[list[str]], gold: list[list[Span]], pred: list[list[Span]]
) -> None:
    def spans(doc: list[Span]) -> list[dict[str, object]]:
        return [{"start": s, "end": e, "label": t} for s, e, t in doc]

    with path.open("w", encoding="utf-8") as f:
        for tokens, g, p in zip(sentences, gold, pred, strict=True):
            f.write(json.dumps({"tokens": tokens, "gold": spans(g), "pred": spans(p)}))
            f.write("\n")


def write_eval4ner(
    path: Path, sentences: list[list[str]], gold: list[list[Span]], pred: list[list[Span]]
) -> None:
    def pairs(tokens: list[str], doc: list[Span]) -> list[list[str]]:
        return [[t, " ".join(tokens[s:e])] for s, e, t in doc]

    items = [
        {"text": " ".join(tokens), "gold": pairs(tokens, g), "pred": pairs(tokens, p)}
        for tokens, g, p in zip(sentences, gold, pred, strict=True)
    ]
    with path.open("w", encoding="utf-8") as f:
        json.dump(items, f)
        f.write("\n")


def output_paths(prefix: Path) -> dict[str, Path]:
    return {
        "nervaluate": Path(f"{prefix}.nervaluate.json"),
        "jsonl": Path(f"{prefix}.jsonl"),
        "eval4ner": Path(f"{prefix}.eval4ner.json"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="merged `token gold pred` file written by gen_corpus.py")
    parser.add_argument(
        "out_prefix", type=Path, help="writes OUT_PREFIX.{nervaluate.json,jsonl,eval4ner.json}"
    )
    parser.add_argument("--no-check", action="store_true", help="do not cross-check with nerve.decode")
    args = parser.parse_args(argv)
    if not args.corpus.is_file():
        parser.error(f"{args.corpus} not found (write it with bench/gen_corpus.py)")

    t0 = time.perf_counter()
    sentences, gold, pred = convert(args.corpus)
    check = "not cross-checked" if args.no_check else check_with_nerve(args.corpus, gold, pred)
    paths = output_paths(args.out_prefix)
    args.out_prefix.parent.mkdir(parents=True, exist_ok=True)
    write_nervaluate(paths["nervaluate"], gold, pred)
    write_jsonl(paths["jsonl"], sentences, gold, pred)
    write_eval4ner(paths["eval4ner"], sentences, gold, pred)
    n_tokens = sum(len(s) for s in sentences)
    n_gold, n_pred = sum(len(d) for d in gold), sum(len(d) for d in pred)
    print(
        f"gen_spans: {len(sentences)} documents (sentences), {n_tokens} tokens, {n_gold} gold and "
        f"{n_pred} predicted entities; {check}; {time.perf_counter() - t0:.1f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
