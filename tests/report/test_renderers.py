"""The renderings of a `Result`: every format carries the same information."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from pathlib import Path

import nerve
from nerve.api import score_spans
from nerve.metrics.muc import MODES, MucOptions


def test_span_results_have_no_tokens() -> None:
    """Span input has no tokens: JSON says null, and the table has no token line."""
    result = score_spans([[(0, 2, "PER")]], [[(0, 2, "PER"), (3, 4, "LOC")]], overlap=MucOptions())
    d = json.loads(nerve.render(result, "json"))
    assert d["tokens"] is None
    assert "tokens" not in nerve.render(result, "table")
    # Tag input with no tokens at all still has its token count.
    assert json.loads(nerve.render(nerve.score([], []), "json"))["tokens"] == {"count": 0, "accuracy": 0.0}


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "news.conll"
FORMATS = ("table", "markdown", "latex", "csv", "json")


def cells(text: str, output: str) -> list[list[str]]:
    """The rows of every table (and of the footer) of a rendering, as lists of cells."""
    if output == "csv":
        return [row for row in csv.reader(io.StringIO(text)) if row]
    rows = []
    for line in text.splitlines():
        if output == "table":
            rows.append(re.split(r"\s{2,}", line.strip()))
        elif output == "markdown":
            rows.append([c.strip().strip("*") for c in line.strip().strip("|").split("|")])
        else:
            rows.append([c.strip() for c in line.removesuffix("\\\\").split("&")])
    return rows


def has_row(rows: list[list[str]], labels: list[str], values: list[object]) -> bool:
    """Whether a row starts with ``labels`` and holds every one of ``values`` after them."""
    want = Counter(map(str, values))
    return any(r[: len(labels)] == labels and not want - Counter(r[len(labels) :]) for r in rows)


def test_every_format_carries_every_piece_of_information() -> None:
    """muc, document average, beta and repairs all on: no format leaves anything out."""
    result = nerve.score(EXAMPLE, metrics="muc", document_average=True, beta=2)
    assert result.muc is not None
    assert result.repairs.total > 0
    muc = result.muc.modes
    for output in FORMATS:
        text = nerve.render(result, output)
        assert result.signature in text, output
        if output == "json":
            d = json.loads(text)
            assert (d["sentences"], d["documents"]) == (result.sentences, result.documents)
            assert d["tokens"] == result.tokens.to_dict()
            assert d["repairs"] == result.repairs.to_dict()
            assert d["exact"] == result.exact.to_dict()
            assert d["muc"] == result.muc.to_dict()
            assert all("document_macro" in d["muc"][m] for m in MODES)
            continue
        rows = cells(text, output)
        exact = output == "csv"

        def num(x: float, exact: bool = exact) -> str:
            return repr(x) if exact else f"{100 * x:.2f}"

        # The exact scores, F-beta included, and the counts of each type and average.
        named = [
            *result.per_type.items(),
            *((f"{a} avg", getattr(result, a)) for a in ("micro", "macro", "weighted")),
        ]
        for name, s in named:
            values = [
                num(s.precision),
                num(s.recall),
                num(s.f1),
                num(s.fbeta or 0.0),
                s.gold,
                s.predicted,
                s.tp,
            ]
            assert has_row(rows, [name], values), (output, name)
        # The MUC modes: counts, scores, and the document average of each mode.
        for mode in MODES:
            for name, c in [("overall", muc[mode].overall), *muc[mode].per_type.items()]:
                counts = [c.cor, c.inc, c.par, c.mis, c.spu, c.pos, c.act]
                assert has_row(rows, [mode, name], counts), (output, mode, name)
                scores = [num(c.precision), num(c.recall), num(c.f1)]
                assert has_row(rows, [mode, name] if exact else [name], scores), (output, mode, name)
            macro = muc[mode].document_macro
            assert macro is not None
            values = [num(macro.precision), num(macro.recall), num(macro.f1), macro.documents]
            assert has_row(rows, [mode], values), (output, mode)
        # Tokens, token accuracy, sentences, documents and repairs.
        r = result.repairs
        if exact:
            totals = {row[0]: row[1] for row in rows if len(row) == 2}
            assert totals["tokens.count"] == str(result.tokens.count)
            assert totals["tokens.accuracy"] == repr(result.tokens.accuracy)
            assert totals["sentences"] == str(result.sentences)
            assert totals["documents"] == str(result.documents)
            assert (totals["repairs.gold"], totals["repairs.pred"]) == (str(r.gold), str(r.pred))
            assert all(totals[f"repairs.by_kind.{k}"] == str(v) for k, v in r.by_kind.items())
            assert totals["repairs.policy"] == r.policy
        else:
            assert f"tokens: {result.tokens.count}, tag accuracy {num(result.tokens.accuracy)}%" in text
            assert f"sentences: {result.sentences}; documents: {result.documents}" in text
            kinds = ", ".join(f"{k}: {v}" for k, v in r.by_kind.items())
            assert f"invalid transitions: gold {r.gold}, pred {r.pred} ({kinds})" in text


def test_span_results_show_their_documents_in_every_format() -> None:
    result = score_spans([[(0, 2, "PER")], []], [[(0, 2, "PER")], []])
    assert json.loads(nerve.render(result, "json"))["documents"] == 2
    assert json.loads(nerve.render(result, "json"))["sentences"] is None
    for output in ("table", "markdown", "latex"):
        assert "documents: 2" in nerve.render(result, output), output
    assert "\n# totals\nkey,value\ndocuments,2\n" in nerve.render(result, "csv")
