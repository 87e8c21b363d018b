"""Peak memory at any size: nerve score, MUC from JSONL, and the streaming metric (issue 15, item 4).

Three rows per corpus size, each one whole process under ``/usr/bin/time -v`` (one run, no
warm-up unless ``--repeats``), the peak RSS and the wall time:

- ``nerve score CORPUS --output json`` on the generated merged CoNLL corpus (1M, 10M, 100M tokens;
  the 100M file is about 1.1 GB, written by gen_corpus.py when missing);
- ``nerve score SPANS.jsonl --metrics muc --output json`` on gen_spans.py's JSONL of the same
  corpus (1M and 10M tokens);
- ``python bench/bench_stream.py --memory --tokens N``: packed id batches streamed through one
  ``StreamingMetric`` (1M and 10M tokens);
- ``nerve score FILE --output json`` and ``... --metrics muc`` on a 40,000-token file with many
  entity types (100, 1,000 and 10,000; one entity per token), for memory that must not grow with
  the square of the number of tags;
- ``nerve score FILE --errors --confusion --metrics muc --output json`` on such a file with 20,000
  types, whose confusion matrices must stay sparse (target 1 GB: the JSON output alone is 37 MB);
- ``nerve ie-all FILE --output json`` (every text metric) on the 1M-token corpus regrouped into 100
  documents, and into one (where a category's exact assignment is refused as too large, exit 2).

Target: at most 200 MB (about 190.7 MiB) peak RSS for every row (1 GB for the text metrics and the
many-types analysis row), and wall time linear in size.

Usage::

    python bench/bench_memory.py                         # 1M, 10M, 100M
    python bench/bench_memory.py --tokens 1000000 10000000 --muc-tokens 1000000
    python bench/bench_memory.py --tokens --muc-tokens --stream-tokens --types 100 10000  # types only
    python bench/bench_memory.py --tokens --muc-tokens --stream-tokens --types --text-docs  # analysis

Prints a Markdown table and writes bench/out/bench-memory-all.json.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_score as bs

LIMIT_BYTES = 200 * 10**6
TEXT_LIMIT_BYTES = 10**9  # the text metrics' target (issue 15)
ANALYSIS_LIMIT_BYTES = 10**9  # --errors --confusion --metrics muc with many types (issue 25)


def spans_for(tokens: int, seed: int) -> Path:
    """gen_spans.py's JSONL of the corpus, written when missing."""
    prefix = bs.OUT / f"spans-{tokens}-seed{seed}"
    path = prefix.with_suffix(".jsonl")
    if not path.exists():
        corpus = bs.corpus_for(tokens, seed)
        subprocess.run([sys.executable, str(bs.BENCH / "gen_spans.py"), str(corpus), str(prefix)], check=True)
    return path


def many_types(n_types: int, tokens: int = 40_000) -> Path:
    """A merged CoNLL file of ``tokens`` tokens, each a one-token entity of one of ``n_types`` types."""
    path = bs.OUT / f"types-{n_types}-{tokens}.conll"
    if not path.exists():
        bs.OUT.mkdir(parents=True, exist_ok=True)
        rows = [
            f"w{i} B-T{i % n_types} B-T{i * 7 % n_types}" + ("\n" if i % 20 == 19 else "")
            for i in range(tokens)
        ]
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def regrouped(tokens: int, seed: int, docs: int) -> Path:
    """The generated corpus with its sentences regrouped into ``docs`` documents (-DOCSTART- lines)."""
    path = bs.OUT / f"corpus-{tokens}-seed{seed}-regrouped{docs}.txt"
    if not path.exists():
        text = bs.corpus_for(tokens, seed).read_text(encoding="utf-8")
        sentences = [s for s in text.split("\n\n") if s.strip() and not s.startswith("-DOCSTART-")]
        per = len(sentences) // docs + 1
        parts = [
            ("-DOCSTART- O O\n\n" if i % per == 0 else "") + s.strip("\n") for i, s in enumerate(sentences)
        ]
        path.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    return path


def text_rows(docs: list[int], seed: int, timeout: float) -> list[bs.Result]:
    """Every text metric on the 1M-token corpus in ``docs`` documents, one row each."""
    results: list[bs.Result] = []
    for n in docs:
        path = regrouped(1_000_000, seed, n)
        nerve = bs.nerve_tool(path)
        argv = [nerve.argv[0], "ie-all", str(path), "--output", "json"]
        tool = bs.Tool(f"text-{n}", f"nerve ie-all, {n:,} documents", argv, unavailable=nerve.unavailable)
        results += bs.run_tools([tool], path, 1_000_000, 1, timeout, prefix="mem-", warmup=False)
    return results


def type_rows(counts: list[int], repeats: int, timeout: float, analysis: bool = False) -> list[bs.Result]:
    """Exact and MUC scoring of `many_types` files, one row each.

    With ``analysis``, MUC with the error analysis and both confusion matrices instead.
    """
    variants = [("exact", []), ("muc", ["--metrics", "muc"])]
    if analysis:
        variants = [("analysis", ["--errors", "--confusion", "--metrics", "muc"])]
    results: list[bs.Result] = []
    for n in counts:
        path = many_types(n)
        nerve = bs.nerve_tool(path)
        for key, extra in variants:
            argv = [nerve.argv[0], "score", str(path), *extra, "--output", "json"]
            label = f"nerve score {' '.join(extra) or '(exact)'}, {n:,} types"
            tool = bs.Tool(f"types-{key}-{n}", label, argv, unavailable=nerve.unavailable)
            results += bs.run_tools([tool], path, 40_000, repeats, timeout, prefix="mem-", warmup=False)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, nargs="*", default=[1_000_000, 10_000_000, 100_000_000])
    parser.add_argument("--muc-tokens", type=int, nargs="*", default=[1_000_000, 10_000_000])
    parser.add_argument("--stream-tokens", type=int, nargs="*", default=[1_000_000, 10_000_000])
    parser.add_argument("--types", type=int, nargs="*", default=[100, 1_000, 10_000])
    parser.add_argument("--analysis-types", type=int, nargs="*", default=[20_000])
    parser.add_argument("--text-docs", type=int, nargs="*", default=[100, 1])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=3600.0)
    args = parser.parse_args(argv)
    results: list[bs.Result] = []
    for tokens in args.tokens:
        corpus = bs.corpus_for(tokens, args.seed)
        tool = bs.nerve_tool(corpus)
        results += bs.run_tools([tool], corpus, tokens, args.repeats, args.timeout, warmup=False)
    for tokens in args.muc_tokens:
        spans = spans_for(tokens, args.seed)
        nerve = bs.nerve_tool(spans)
        argv_muc = [nerve.argv[0], "score", str(spans), "--metrics", "muc", "--output", "json"]
        tool = bs.Tool(
            "nerve-muc-jsonl", "nerve score --metrics muc (JSONL)", argv_muc, unavailable=nerve.unavailable
        )
        results += bs.run_tools(
            [tool], spans, tokens, args.repeats, args.timeout, prefix="mem-", warmup=False
        )
    for tokens in args.stream_tokens:
        corpus = bs.corpus_for(tokens, args.seed)
        argv_stream = [sys.executable, str(bs.BENCH / "bench_stream.py"), "--memory", "--tokens", str(tokens)]
        tool = bs.Tool("stream", "bench_stream.py --memory (StreamingMetric)", argv_stream)
        results += bs.run_tools(
            [tool], corpus, tokens, args.repeats, args.timeout, prefix="mem-", warmup=False
        )
    results += type_rows(args.types, args.repeats, args.timeout)
    results += type_rows(args.analysis_types, args.repeats, args.timeout, analysis=True)
    results += text_rows(args.text_docs, args.seed, args.timeout)
    print("| command | tokens | wall s | peak RSS MiB | s per 1M tokens | <= 200 MB (text, analysis: 1 GB) |")
    print("|---|---:|---:|---:|---:|---|")
    ok = True
    for r in results:
        limit = TEXT_LIMIT_BYTES if r.key.startswith("text-") else LIMIT_BYTES
        limit = ANALYSIS_LIMIT_BYTES if r.key.startswith("types-analysis-") else limit
        under = r.peak_rss_mib is not None and r.peak_rss_mib * 2**20 <= limit
        if r.status == "failed" and r.note.startswith("exit status 2: ") and "cost block" in r.note:
            under = True  # a cell too large to assign is refused (exit 2, naming the fix): expected
        ok &= under
        per = r.median_wall_s / (r.tokens or 1) * 1e6 if r.median_wall_s is not None else None
        wall, rss = bs.fmt(r.median_wall_s, ".2f"), bs.fmt(r.peak_rss_mib, ".1f")
        verdict = ("PASS" if under else "FAIL") if r.status == "ok" else f"{r.status}: {r.note}"
        print(f"| {r.label} | {r.tokens:,} | {wall} | {rss} | {bs.fmt(per, '.3f')} | {verdict} |")
    path = bs.write_json(
        "bench-memory-all.json", {"machine": bs.machine(), "results": [vars(r) for r in results]}
    )
    print(f"\nwritten: {bs.rel(path)}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
