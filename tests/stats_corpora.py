"""Real corpora and naive reference loops for the bootstrap and comparison tests.

- `wlp_documents`: the WNUT-2020 wet-lab protocols of ../shared/data, the CRF baseline's
  predictions, merged document by document into one ``token gold pred`` file with a
  ``-DOCSTART-`` line before each protocol (122 documents; protocol_538 is left out, as in the
  shared ``test-122docs`` file, because its prediction covers another text).
- `entities`: a merged file's gold and predicted entities per unit, decoded by seqeval (an
  independent decoder), for the peer tools.
- `neleval_lines`: entities in neleval's annotation format; `neleval_per_doc`: neleval's counts
  of each unit, read back by neleval from that format (neleval must be importable).
- `naive_*`: one resample (or trial) at a time, in Python, with `nerve.ExactScores` for scores.
"""

from __future__ import annotations

import collections
import collections.abc
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from conftest import peer
from nerve.analysis.bootstrap import UnitCounts
from nerve.results import Counts, ExactScores

WLP_LEFT_OUT = "protocol_538"  # its prediction file covers a different text (see the data README)


def wlp_documents(shared: Path, out: Path) -> Path:
    """The merged WLP test documents with ``-DOCSTART-`` lines, written to ``out``."""
    root = shared / "wlp-wnut2020"
    gold_dir, pred_dir = root / "gold" / "conll", root / "predictions" / "baseline-crf" / "conll"
    names = sorted(
        (p.name for p in gold_dir.glob("protocol_*_conll.txt") if not p.name.startswith(WLP_LEFT_OUT + "_")),
        key=lambda n: int(re.findall(r"\d+", n)[0]),
    )
    lines = []
    for name in names:
        gold = (gold_dir / name).read_text(encoding="utf-8").splitlines()
        pred = (pred_dir / name).read_text(encoding="utf-8").splitlines()
        assert len(gold) == len(pred), name
        lines += ["-DOCSTART- O O", ""]
        for g, p in zip(gold, pred, strict=True):
            if not g.strip():
                lines.append("")
                continue
            token, tag = g.split("\t")
            lines.append(f"{token} {tag} {p.split(chr(9))[-1]}")
        lines.append("")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def units_of(path: Path, unit: str) -> list[list[tuple[str, str]]]:
    """The (gold, pred) tags of each unit of a merged file: documents or sentences, in order."""
    units: list[list[tuple[str, str]]] = [[]]
    sentence_ended = False
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if fields and fields[0] == "-DOCSTART-":
            if unit == "document" and (units[-1] or len(units) > 1):
                units.append([])
            sentence_ended = False
            continue
        if not fields:
            sentence_ended = True
            continue
        if sentence_ended and unit == "sentence" and units[-1]:
            units.append([])
        if sentence_ended and unit == "document":
            units[-1].append(("O", "O"))  # keeps sentences apart: no entity crosses this
        sentence_ended = False
        units[-1].append((fields[-2], fields[-1]))
    return units


def entities(
    path: Path, unit: str
) -> tuple[list[list[tuple[int, int, str]]], list[list[tuple[int, int, str]]]]:
    """Gold and predicted entities ``(start, end inclusive, type)`` of each unit, decoded by seqeval."""
    from seqeval.metrics.sequence_labeling import get_entities

    gold, pred = [], []
    for tags in units_of(path, unit):
        for side, column in ((gold, 0), (pred, 1)):
            found = get_entities([t[column] for t in tags])
            side.append([(start, end, typ) for typ, start, end in found])
    return gold, pred


def neleval_lines(units: list[list[tuple[int, int, str]]]) -> str:
    """neleval's annotation lines: ``doc<TAB>start<TAB>end<TAB>NIL<TAB>1.0<TAB>type`` (inclusive end)."""
    return "".join(f"{u}\t{s}\t{e}\tNIL\t1.0\t{t}\n" for u, spans in enumerate(units) for s, e, t in spans)


def naive_counts(gold: list[list[tuple[int, int, str]]], pred: list[list[tuple[int, int, str]]]) -> dict:
    """``{(unit, type): (tp, fp, fn)}`` by multiset intersection of each unit's spans."""
    out: dict[tuple[int, str], tuple[int, int, int]] = {}
    for u, (g, p) in enumerate(zip(gold, pred, strict=True)):
        hits = Counter(g) & Counter(p)
        for name in {t for *_, t in g} | {t for *_, t in p}:
            tp = sum(k for span, k in hits.items() if span[2] == name)
            n_g, n_p = sum(1 for s in g if s[2] == name), sum(1 for s in p if s[2] == name)
            out[u, name] = (tp, n_p - tp, n_g - tp)
    return out


def naive_scores(counts: UnitCounts, drawn: list[int]) -> ExactScores:
    """The exact scores of the units ``drawn``, summed one by one in Python."""
    rows = counts.counts.tolist()
    totals = [[0, 0, 0] for _ in counts.types]
    for u in drawn:
        for t, (tp, fp, fn) in enumerate(rows[u]):
            totals[t][0] += tp
            totals[t][1] += fp
            totals[t][2] += fn
    return ExactScores({name: Counts(*totals[t]) for t, name in enumerate(counts.types)})


def naive_bootstrap(counts: UnitCounts, n: int, seed: int) -> list[ExactScores]:
    """The scores of ``n`` resamples, one at a time: ``rng.integers(0, U, size=U)`` each."""
    rng = np.random.default_rng(seed)
    u = counts.n_units
    return [naive_scores(counts, rng.integers(0, u, size=u, dtype=np.int64).tolist()) for _ in range(n)]


def neleval_per_doc(tmp_path: Path, path: Path, unit: str, name: str) -> tuple[list[Any], Any]:
    """neleval's per-unit contingency counts of ``path``, read back from its annotation format.

    Every unit is there, in nerve's order, an empty `Document` where neither side has an entity:
    neleval's own ``iter_pairs`` leaves such units out and pairs the rest in set order.
    """
    from neleval.document import Document, Reader
    from neleval.evaluate import Evaluate

    gold, pred = entities(path, unit)
    files = {}
    for side, units in (("gold", gold), ("sys", pred)):
        files[side] = tmp_path / f"{name}.{side}.tsv"
        files[side].write_text(neleval_lines(units), encoding="utf-8")
    docs = {}
    for side, file in files.items():
        with file.open(encoding="utf-8") as fh:
            docs[side] = {d.id: d for d in Reader(fh)}
    pairs = [
        (docs["sys"].get(str(u)) or Document(str(u), []), docs["gold"].get(str(u)) or Document(str(u), []))
        for u in range(len(gold))
    ]
    return Evaluate.count("strong_typed_mention_match", pairs)


def neleval_module() -> Any:
    """neleval's statistics module (``neleval.significance``), the real package, in process.

    neleval 3.1.1, its last release, imports ``Sequence`` from ``collections``, an alias Python
    3.10 removed; the alias is put back first, and nothing else of neleval is changed. A missing
    neleval (or joblib, which its ``confidence`` and ``significance`` need) skips the test
    locally and fails it under CI=true.
    """
    if not hasattr(collections, "Sequence"):
        collections.Sequence = collections.abc.Sequence  # type: ignore[attr-defined]
    peer("joblib")
    return peer("neleval.significance")


def _guess(tag: str, r: float) -> str:
    """A system's tag for gold ``tag``: kept, dropped (``r`` from 0.5) or retyped (from 0.75)."""
    if tag == "O" or r < 0.5:
        return tag
    return "O" if r < 0.75 else {"B-PER": "B-LOC", "B-LOC": "B-ORG", "B-ORG": "B-PER"}[tag]


def tagged_corpus(
    out: Path, documents: int, sentences: int, *, docstart: bool = True, seed: int = 0
) -> tuple[Path, Path, Path]:
    """A gold file and two systems' files (``token tag``) of ``documents`` x ``sentences``.

    Random tags from ``seed``; each system keeps about half of the gold entities, drops or
    retypes the others, and adds ``MISC`` entities (a type gold lacks), so that the two differ
    in most sentences. Without ``docstart`` the files have no
    ``-DOCSTART-`` line: one document, as most CoNLL test files.
    """
    rng = np.random.default_rng(seed)
    files: list[list[str]] = [[], [], []]
    for _ in range(documents):
        for lines in files:
            lines += ["-DOCSTART- O", ""] if docstart else []
        for _ in range(sentences):
            n = int(rng.integers(4, 10))
            gold = ["O"] * n
            for k in rng.choice(n, size=2, replace=False).tolist():
                gold[k] = f"B-{('PER', 'LOC', 'ORG')[int(rng.integers(0, 3))]}"
            systems = [[_guess(t, rng.random()) for t in gold] for _ in range(2)]
            for tags in systems:
                k = int(rng.integers(0, n))
                tags[k] = tags[k] if rng.random() < 0.5 else "B-MISC"
            for lines, tags in zip(files, [gold, *systems], strict=True):
                lines += [f"w{k} {t}" for k, t in enumerate(tags)] + [""]
    paths = (out / "gold.txt", out / "a.txt", out / "b.txt")
    for path, lines in zip(paths, files, strict=True):
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths
