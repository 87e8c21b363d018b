"""Reading speed of nerve's span and dataset readers against the floor of each format, in process.

The 1M-token corpus of ``gen_corpus.py`` (gold tags only) is written, once, in six formats under
``bench/out/read-<tokens>-seed<seed>/``: nerve JSONL (one ``{"tokens", "spans"}`` line a sentence),
a brat directory (a ``.txt``/``.ann`` pair a document of ``--sentences`` sentences), HIPE 2022 TSV,
CoNLL-U with ``NER=TAG`` in MISC, a spaCy DocBin and a Hugging Face dataset (``save_to_disk``
directory and ``.parquet`` file, one row a sentence, ``ClassLabel`` tags). The texts formats are
then read by the reader ``nerve score`` reads one side with (the format's entry of
`nerve.io.spans.PAIR_READERS` or `SPAN_READERS`, collector off, as `read_span_columns` calls it;
`nerve.io.tags.hf.read_hf` for the datasets), and by the floor of each:

- JSONL: ``orjson.loads`` of every line (the parse alone, no checks, no columns);
- brat, HIPE, CoNLL-U: reading every file and splitting its lines, ``open(f, 'rb').read().split(b'\\n')``
  (issue 27: a bare read of a cached file is a memory copy, the wrong floor for a text format);
- DocBin: spaCy's own ``DocBin().from_disk(path).get_docs(vocab)``, every doc made;
- dataset: ``datasets.load_from_disk`` (memory-mapped) and ``pyarrow.parquet.read_table``.

nerve is timed on each engine: the compiled one (``nerve._speedups``, built in place) and numpy
(``NERVE_NO_SPEEDUPS=1``), and, with ``--baseline SRC``, the code of another checkout's ``src/``
(main's, say) on numpy, which the numpy engine must not be slower than. Every row runs in a fresh
process (imports outside the clock), round robin over ``--repeats`` rounds; each round times
``--inner`` calls after one untimed warm-up, and a row's time is the median of all its calls. The
machine may be shared: the rounds interleave the rows so that load falls on all of them alike.
``ratio`` is a row's median over its format's floor. Target (issue 27): at most 3x for the text
formats.

Usage::

    python bench/bench_read.py                   # 1M tokens, 5 rounds of 3 calls
    python bench/bench_read.py --formats brat,hipe,conllu --baseline ../main/src --check

Prints a Markdown table and writes ``bench/out/bench-read-<tokens>.json``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from bench_score import OUT, corpus_for, machine, rel, targets_text, verdict, write_json
from gen_spans import decode_iob2, read_sentences

FORMATS = ("jsonl", "brat", "hipe", "conllu", "spacy", "hf")
TEXT_FORMATS = ("jsonl", "brat", "hipe", "conllu")
TARGET_RATIO = 3.0
NOISE = 1.10  # the numpy engine against the baseline: within the run-to-run noise of a shared machine
HIPE_HEADER = (
    "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-FINE-METO\tNE-FINE-COMP\t"
    "NE-NESTED\tNEL-LIT\tNEL-METO\tMISC\n"
)

Sentence = tuple[list[str], list[str]]


# --------------------------------------------------------------------------- data


def documents(sentences: list[Sentence], size: int) -> Iterator[list[Sentence]]:
    for i in range(0, len(sentences), size):
        yield sentences[i : i + size]


def write_jsonl(sentences: list[Sentence], path: Path) -> None:
    with path.open("wb") as out:
        for tokens, tags in sentences:
            spans = [{"start": s, "end": e, "label": t} for s, e, t in decode_iob2(tags)]
            out.write(orjson.dumps({"tokens": tokens, "spans": spans}) + b"\n")


def write_brat(sentences: list[Sentence], path: Path, size: int) -> None:
    path.mkdir()
    for d, doc in enumerate(documents(sentences, size)):
        text: list[str] = []
        ann: list[str] = []
        at = 0
        for tokens, tags in doc:
            offsets = []
            for tok in tokens:
                offsets.append(at)
                at += len(tok) + 1
            text.append(" ".join(tokens) + "\n")
            for s, e, t in decode_iob2(tags):
                begin, end = offsets[s], offsets[e - 1] + len(tokens[e - 1])
                ann.append(f"T{len(ann) + 1}\t{t} {begin} {end}\t{' '.join(tokens[s:e])}\n")
        (path / f"doc{d:05d}.txt").write_text("".join(text), encoding="utf-8")
        (path / f"doc{d:05d}.ann").write_text("".join(ann), encoding="utf-8")


def write_hipe(sentences: list[Sentence], path: Path, size: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(HIPE_HEADER)
        for d, doc in enumerate(documents(sentences, size)):
            out.write(f"# hipe2022:document_id = doc{d:05d}\n# hipe2022:date = 1900-01-01\n")
            for tokens, tags in doc:
                for i, (tok, tag) in enumerate(zip(tokens, tags, strict=True)):
                    misc = "EndOfSentence" if i == len(tokens) - 1 else "_"
                    out.write(f"{tok}\t{tag}\tO\t{tag}\tO\tO\tO\t_\t_\t{misc}\n")
                out.write("\n")


def write_conllu(sentences: list[Sentence], path: Path, size: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for d, doc in enumerate(documents(sentences, size)):
            out.write(f"# newdoc id = doc{d:05d}\n")
            for s, (tokens, tags) in enumerate(doc):
                out.write(f"# sent_id = {d}-{s}\n# text = {' '.join(tokens)}\n")
                for i, (tok, tag) in enumerate(zip(tokens, tags, strict=True)):
                    out.write(f"{i + 1}\t{tok}\t{tok.lower()}\tX\t_\t_\t0\tdep\t_\tNER={tag}\n")
                out.write("\n")


def write_spacy(sentences: list[Sentence], path: Path, size: int) -> None:
    import spacy
    from spacy.tokens import Doc, DocBin

    vocab = spacy.blank("en").vocab
    docbin = DocBin()
    for doc in documents(sentences, size):
        words = [t for tokens, _ in doc for t in tokens]
        starts = [False] * len(words)
        ents: list[str] = []
        for _, tags in doc:
            starts[len(ents)] = True
            ents += iob2(tags)
        docbin.add(Doc(vocab, words=words, sent_starts=starts, ents=ents))
    docbin.to_disk(path)


def iob2(tags: list[str]) -> list[str]:
    """The tags of a sentence decoded and written again as valid IOB2 (spaCy refuses ``I-X`` after ``O``)."""
    out = ["O"] * len(tags)
    for s, e, t in decode_iob2(tags):
        out[s:e] = [f"B-{t}"] + [f"I-{t}"] * (e - s - 1)
    return out


def write_hf(sentences: list[Sentence], directory: Path, parquet: Path) -> None:
    import datasets

    names = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC", "I-MISC"]
    ids = {n: i for i, n in enumerate(names)}
    features = datasets.Features(
        {
            "tokens": datasets.Sequence(datasets.Value("string")),
            "ner_tags": datasets.Sequence(datasets.ClassLabel(names=names)),
        }
    )
    columns = {"tokens": [t for t, _ in sentences], "ner_tags": [[ids[x] for x in g] for _, g in sentences]}
    ds = datasets.Dataset.from_dict(columns, features=features)
    ds.save_to_disk(str(directory))
    ds.to_parquet(str(parquet))


def paths_for(args: argparse.Namespace) -> dict[str, Path]:
    root = OUT / f"read-{args.tokens}-seed{args.seed}-s{args.sentences}"
    return {
        "jsonl": root / "spans.jsonl",
        "brat": root / "brat",
        "hipe": root / "hipe.tsv",
        "conllu": root / "ner.conllu",
        "spacy": root / "docs.spacy",
        "hf": root / "dataset",
        "parquet": root / "dataset.parquet",
    }


def make_files(args: argparse.Namespace) -> dict[str, Path]:
    paths = paths_for(args)
    root = paths["jsonl"].parent
    wanted = set(args.formats) | ({"parquet"} if "hf" in args.formats else set())
    if all(paths[k].exists() for k in wanted):
        return paths
    root.mkdir(parents=True, exist_ok=True)
    corpus = corpus_for(args.tokens, args.seed)
    sentences = [(tokens, gold) for tokens, gold, _ in read_sentences(corpus)]
    writers: dict[str, Callable[[], None]] = {
        "jsonl": lambda: write_jsonl(sentences, paths["jsonl"]),
        "brat": lambda: write_brat(sentences, paths["brat"], args.sentences),
        "hipe": lambda: write_hipe(sentences, paths["hipe"], args.sentences),
        "conllu": lambda: write_conllu(sentences, paths["conllu"], args.sentences),
        "spacy": lambda: write_spacy(sentences, paths["spacy"], args.sentences),
        "hf": lambda: write_hf(sentences, paths["hf"], paths["parquet"]),
    }
    for key in args.formats:
        if not paths[key].exists():
            print(f"writing {rel(paths[key])}", file=sys.stderr)
            writers[key]()
    return paths


# --------------------------------------------------------------------------- timing


def median_s(call: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``repeats`` calls, after one untimed warm-up; collector off as nerve has it."""
    return statistics.median(times_s(call, repeats))


def times_s(call: Callable[[], object], repeats: int) -> list[float]:
    """The wall times of ``repeats`` calls, after one untimed warm-up."""
    call()
    times = []
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return times


def files_of(path: Path) -> list[Path]:
    return sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]


def split_lines(path: Path) -> Callable[[], object]:
    """The floor of a text format: every file read and its lines split (``read().split(b'\\n')``)."""
    files = files_of(path)

    def read() -> object:
        out = []
        for f in files:
            with open(f, "rb") as handle:
                out.append(handle.read().split(b"\n"))
        return out

    return read


def jsonl_floor(path: Path) -> Callable[[], object]:
    def parse() -> object:
        return [orjson.loads(line) for line in path.read_bytes().splitlines()]

    return parse


def spacy_floor(path: Path) -> Callable[[], object]:
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    return lambda: list(DocBin().from_disk(path).get_docs(Vocab()))


def rows_for(key: str, paths: dict[str, Path]) -> list[tuple[str, str, Callable[[], object]]]:
    """(row label, role, call) of one format: the floor(s) first, then nerve."""
    path = paths[key]

    def nerve() -> object:  # what `nerve score` runs to read the gold side (read_span_columns' _read)
        from nerve.io.json.jsonl import no_gc
        from nerve.io.spans import PAIR_READERS, SPAN_READERS

        with no_gc():
            if key in PAIR_READERS:
                return PAIR_READERS[key](str(path), None, None, None)
            return SPAN_READERS[key](str(path), None, None)

    if key == "jsonl":
        return [("floor: orjson.loads per line", "floor", jsonl_floor(path)), ("nerve", "nerve", nerve)]
    if key in ("brat", "hipe", "conllu"):
        return [("floor: read + split lines", "floor", split_lines(path)), ("nerve", "nerve", nerve)]
    if key == "spacy":
        return [("floor: DocBin.from_disk + get_docs", "floor", spacy_floor(path)), ("nerve", "nerve", nerve)]
    import datasets
    import pyarrow.parquet as pq

    from nerve.io.tags.hf import read_hf

    parquet = paths["parquet"]
    return [
        ("floor: datasets.load_from_disk", "floor", lambda: datasets.load_from_disk(str(path))),
        ("nerve read_hf (save_to_disk directory)", "nerve", lambda: read_hf(str(path))),
        ("floor: pyarrow.parquet.read_table", "floor", lambda: pq.read_table(str(parquet))),
        ("nerve read_hf (.parquet)", "nerve", lambda: read_hf(str(parquet))),
    ]


def size_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in files_of(path)) / 1e6


SRC = Path(__file__).resolve().parents[1] / "src"


def engines(args: argparse.Namespace) -> list[tuple[str, Path, str]]:
    """(name, the ``src`` folder nerve is imported from, ``NERVE_NO_SPEEDUPS``) of each nerve row."""
    out = [("C engine", SRC, "0"), ("numpy engine", SRC, "1")]
    if args.baseline:
        out.append((f"baseline {args.baseline_name} (numpy)", Path(args.baseline).resolve(), "1"))
    return out


def worker(args: argparse.Namespace) -> int:
    """One row's timings, in this process (see `run`): a JSON line on stdout."""
    key, index = args.worker.split(":")
    label, _, call = rows_for(key, paths_for(args))[int(index)]
    from nerve._engine import engine

    print(json.dumps({"row": label, "engine": engine(), "times": times_s(call, args.inner)}))
    return 0


def time_row(args: argparse.Namespace, key: str, index: int, src: Path, no_speedups: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src), "NERVE_NO_SPEEDUPS": no_speedups}
    argv = [sys.executable, __file__, "--worker", f"{key}:{index}", "--inner", str(args.inner)]
    argv += ["--tokens", str(args.tokens), "--seed", str(args.seed), "--sentences", str(args.sentences)]
    done = subprocess.run(argv, env=env, check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def run(args: argparse.Namespace, paths: dict[str, Path]) -> list[dict[str, Any]]:
    """Every row, each in a fresh process, round robin over ``--repeats`` rounds of ``--inner`` calls."""
    plan: list[tuple[str, int, str, str, Path, str]] = []  # key, row index, label, role, src, NO_SPEEDUPS
    for key in args.formats:
        for index, (label, role, _) in enumerate(rows_for(key, paths)):
            if role == "floor":
                plan.append((key, index, label, role, SRC, "0"))
            else:
                plan += [(key, index, f"{label}: {name}", role, src, off) for name, src, off in engines(args)]
    times: dict[int, list[float]] = {i: [] for i in range(len(plan))}
    engine_of: dict[int, str] = {}
    for round_ in range(args.repeats):
        for i, (key, index, label, _, src, off) in enumerate(plan):
            got = time_row(args, key, index, src, off)
            times[i] += got["times"]
            engine_of[i] = got["engine"]
            seconds = statistics.median(got["times"])
            print(f"  round {round_ + 1}: {key}: {label} {seconds:.4f} s", file=sys.stderr)
    measured: list[dict[str, Any]] = []
    floor = None
    for i, (key, _, label, role, _, _) in enumerate(plan):
        seconds = statistics.median(times[i])
        floor = seconds if role == "floor" else floor
        ratio = seconds / floor if role == "nerve" and floor else None
        where = paths["parquet"] if "parquet" in label else paths[key]
        measured.append(
            {
                "format": key,
                "row": label,
                "role": role,
                "engine": engine_of[i] if role == "nerve" else None,
                "mb": round(size_mb(where), 1),
                "median_s": round(seconds, 4),
                "ratio": None if ratio is None else round(ratio, 2),
            }
        )
    return measured


def table(measured: list[dict[str, Any]]) -> str:
    rows = ["| format | row | MB | median s | ratio (to the floor) |", "|---|---|---:|---:|---:|"]
    for m in measured:
        ratio = "" if m["ratio"] is None else f"{m['ratio']:.2f}"
        rows.append(f"| {m['format']} | {m['row']} | {m['mb']:.1f} | {m['median_s']:.4f} | {ratio} |")
    return "\n".join(rows)


def targets(measured: list[dict[str, Any]]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for m in measured:
        if m["role"] == "nerve" and m["format"] in TEXT_FORMATS and m["row"].endswith("C engine"):
            out.append(
                {
                    "target": f"{m['format']}: {m['row']} <= {TARGET_RATIO:g}x its floor",
                    "measured": f"{m['ratio']:.2f}x",
                    "result": verdict(m["ratio"] <= TARGET_RATIO),
                }
            )
    baseline = {m["format"]: m for m in measured if "baseline" in m["row"]}
    for m in measured:
        if m["row"].endswith("numpy engine") and m["format"] in baseline:
            before = baseline[m["format"]]["median_s"]
            out.append(
                {
                    "target": f"{m['format']}: numpy engine no slower than the baseline",
                    "measured": f"{m['median_s'] / before:.2f}x the baseline's time",
                    "result": verdict(m["median_s"] <= before * NOISE),
                }
            )
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1, help="gen_corpus.py seed")
    parser.add_argument("--sentences", type=int, default=50, help="sentences a document (not JSONL, dataset)")
    parser.add_argument("--repeats", "-r", type=int, default=5, help="rounds, round robin over the rows")
    parser.add_argument("--inner", type=int, default=3, help="timed calls a row a round, after a warm-up")
    parser.add_argument(
        "--formats", type=lambda s: s.split(","), default=list(FORMATS), help=f"subset of {','.join(FORMATS)}"
    )
    parser.add_argument("--baseline", help="the src/ folder of another checkout (main's): one more row")
    parser.add_argument("--baseline-name", default="main", help="what the baseline row is called")
    parser.add_argument("--check", action="store_true", help="exit 1 unless every text format passes")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        return worker(args)
    unknown = set(args.formats) - set(FORMATS)
    if unknown:
        sys.exit(f"unknown --formats: {', '.join(sorted(unknown))}")
    paths = make_files(args)
    measured = run(args, paths)
    found = targets(measured)
    rounds = f"{args.repeats} rounds x {args.inner} calls"
    print(f"## Reading {args.tokens} tokens, in process, median of {rounds}\n")
    print(table(measured))
    print("\nTargets:\n" + targets_text(found))
    payload = {"machine": machine(), "tokens": args.tokens, "repeats": args.repeats, "rows": measured}
    print(f"\nJSON: {rel(write_json(f'bench-read-{args.tokens}.json', payload))}", file=sys.stderr)
    return 1 if args.check and any(t["result"] != "PASS" for t in found) else 0


if __name__ == "__main__":
    sys.exit(main())
