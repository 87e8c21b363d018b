"""Renderers: a `Result` as a text table, JSON, Markdown, CSV or LaTeX.

Every rendering carries the signature and the same information: the exact scores (and, when
either side has discontinuous entities, the exact scores over those only), the threshold sweep when
asked for (`nerve.report.sweep`), the MUC modes
(scores and COR/INC/PAR/MIS/SPU/cross/POS/ACT counts) and their document average when computed, token
accuracy, sentences, documents and repairs, and the notes of what the readers (or flattening)
left out. Tables show scores as percentages with two decimals; JSON and CSV give full-precision
fractions in 0..1.
"""

from __future__ import annotations

import io
from dataclasses import replace

from ..errors import InputError, OptionError
from ..results import Result, Score
from .tables import aligned, by_format, latex_tabular, markdown_table

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: plain ``nerve score`` stays cheap
if TYPE_CHECKING:
    from .analysis import AnalysisTable

__all__ = ["RENDERERS", "note_lines", "render"]  # the text-level metrics' are `nerve.report.text`'s

_ROWS = ("micro", "macro", "weighted")
_COUNTS = ("cor", "inc", "par", "mis", "spu", "cross", "pos", "act")
#: Under the MUC counts: what ``cross`` is, so that each row visibly adds up.
CROSS_NOTE = (
    "cross: the type's predictions paired with another type's gold entities, less the type's gold"
    " entities paired with another type's predictions (act = cor + inc + par + spu + cross)"
)

Table = tuple[list[str], list[list[str]]]


def _analysis_tables(result: Result, sweep: bool = True) -> list[AnalysisTable]:
    """The analysis tables (`nerve.report.analysis`), then the threshold sweep's (`nerve.report.sweep`).

    Each is imported only for a result that has it; ``sweep=False`` leaves the sweep's out (CSV
    writes those itself, every row).
    """
    found = []
    if result.analysis is not None:
        from .analysis import analysis_tables as tables

        found = tables(result)
    if sweep and result.sweep is not None:
        from .sweep import sweep_tables

        found += sweep_tables(result.sweep)
    return found


def _slices(result: Result, form: str, buf: io.StringIO | None = None) -> list[str]:
    """The slices in ``form`` (`nerve.report.slices`): lines, or written to ``buf`` for CSV."""
    if result.analysis is None or result.analysis.slices is None:
        return []
    from . import slices

    if buf is not None:
        slices.slices_csv(result, buf)
        return []
    return {"text": slices.slices_text, "markdown": slices.slices_markdown, "latex": slices.slices_latex}[
        form
    ](result)


def _rows(result: Result) -> list[tuple[str, Score]]:
    rows = list(result.per_type.items())
    rows += [(f"{name} avg", getattr(result.exact, name)) for name in _ROWS]
    return rows


def _type_name(name: str) -> str:
    return name if name else '""'


def _pc(value: float) -> str:
    return f"{100 * value:.2f}"


def _notes(result: Result) -> list[str]:
    """What readers (or ``flatten``) left out, converted or counted, a line a side: ``notes gold: ...``."""
    return [
        f"notes {side}: " + "; ".join(f"{kind}: {n}" for kind, n in counts.items())
        for side, counts in result.notes.items()
        if counts
    ]


def _hallucinated(result: Result) -> list[str]:
    """The entities not found in their text, a line: ``hallucinated (false positives): LOC 1: "Berlin"``."""
    if not result.hallucinated:
        return []
    import json  # here, not above: plain ``nerve score`` renders no JSON

    by_type = (
        f"{_type_name(t)} {len(v)}: " + ", ".join(json.dumps(x, ensure_ascii=False) for x in v)
        for t, v in result.hallucinated.items()
    )
    return ["hallucinated (not in the text, counted as false positives): " + "; ".join(by_type)]


def note_lines(result: Result, zero: bool = False) -> list[str]:
    """The lines of repairs (tags; none unless ``zero``), notes and warnings, as the text output has them."""
    r = result.repairs
    kinds = ", ".join(f"{k}: {v}" for k, v in r.by_kind.items())
    repairs = f"invalid transitions: gold {r.gold}, pred {r.pred}" + (f" ({kinds})" if kinds else "")
    shown = result.settings.source == "tags" and bool(zero or r.gold or r.pred)
    return [*[repairs][: int(shown)], *_notes(result), *(f"warning: {w}" for w in result.warnings)]


def _footer(result: Result) -> list[str]:
    """Token accuracy, sentences, documents and repairs, one line each for tags, documents for spans.

    The notes (`Result.notes`) follow, one line per side, then the warnings (`Result.warnings`).
    """
    if result.settings.source != "tags":
        warnings = [f"warning: {w}" for w in result.warnings]
        return [f"documents: {result.documents}", *_notes(result), *_hallucinated(result), *warnings]
    tokens = f"tokens: {result.tokens.count}, tag accuracy {_pc(result.tokens.accuracy)}% (raw tags)"
    return [
        f"{tokens}; sentences: {result.sentences}; documents: {result.documents}",
        *note_lines(result, True),
    ]


def _totals(result: Result) -> list[tuple[str, object]]:
    """What `_footer` says, as (JSON path, value) pairs, values at full precision."""
    import json

    notes = [
        (f"notes.{side}.{kind}", n) for side, counts in result.notes.items() for kind, n in counts.items()
    ]
    lost = [
        (f"hallucinated.{t}.{key}", value)
        for t, v in result.hallucinated.items()
        for key, value in (("count", len(v)), ("texts", json.dumps(list(v), ensure_ascii=False)))
    ]
    if result.settings.source != "tags":
        return [("documents", result.documents), *notes, *lost]
    r = result.repairs
    return [
        ("tokens.count", result.tokens.count),
        ("tokens.accuracy", result.tokens.accuracy),
        ("sentences", result.sentences),
        ("documents", result.documents),
        ("repairs.policy", r.policy),
        ("repairs.gold", r.gold),
        ("repairs.pred", r.pred),
        *((f"repairs.by_kind.{k}", v) for k, v in r.by_kind.items()),
        *notes,
        *((f"warnings.{i}", w) for i, w in enumerate(result.warnings)),
    ]


def _exact_table(result: Result) -> Table:
    """The exact scores: one row per type, then the averages."""
    beta = result.settings.beta
    fb = [f"f{beta:g}"] if beta != 1 else []
    head = ["type", "precision", "recall", "f1", *fb, "gold", "predicted", "correct"]
    body = []
    for name, s in _rows(result):
        scores = [s.precision, s.recall, s.f1, *([s.fbeta or 0.0] if fb else [])]
        body.append([_type_name(name), *map(_pc, scores), str(s.gold), str(s.predicted), str(s.tp)])
    return head, body


def _discontinuous_table(result: Result) -> list[Table]:
    """Exact scores over discontinuous entities only, when either side has one (else nothing)."""
    if result.discontinuous is None:
        return []
    s = result.discontinuous.score
    head = ["discontinuous", "precision", "recall", "f1", "gold", "predicted", "correct"]
    return [
        (
            head,
            [
                [
                    "all types",
                    _pc(s.precision),
                    _pc(s.recall),
                    _pc(s.f1),
                    str(s.gold),
                    str(s.predicted),
                    str(s.tp),
                ]
            ],
        )
    ]


def _muc_modes() -> tuple[str, ...]:
    """MUC's four modes, in their order: imported with a MUC result only (plain scores load no matching)."""
    from ..metrics.muc_counts import MODES

    return MODES


def _muc_tables(result: Result) -> list[tuple[Table, int, tuple[int, ...], str]]:
    """The MUC tables, with how many label columns each has, the rows that start a group, a note.

    The four modes' P, R and F1 side by side (with POS and ACT); the counts of each mode and
    type, with `CROSS_NOTE`; and, when computed, the document average of each mode.
    """
    if result.muc is None:
        return []
    modes, order = result.muc.modes, _muc_modes()
    scores: Table = (["muc", *(f"{m} {x}" for m in order for x in ("P", "R", "F1")), "pos", "act"], [])
    counts: Table = (["mode", "type", *_COUNTS], [])
    for name in ["overall", *modes["strict"].per_type]:
        row = [modes[m].overall if name == "overall" else modes[m].per_type[name] for m in order]
        cells = [p for c in row for p in (_pc(c.precision), _pc(c.recall), _pc(c.f1))]
        label = _type_name(name) if name != "overall" else "overall"
        scores[1].append([label, *cells, str(row[0].pos), str(row[0].act)])
    groups = []
    for m in order:
        groups.append(len(counts[1]))
        for name, c in [("overall", modes[m].overall), *modes[m].per_type.items()]:
            label = _type_name(name) if name != "overall" else "overall"
            cells = [f"{c.cross:+d}" if k == "cross" and c.cross else str(getattr(c, k)) for k in _COUNTS]
            counts[1].append([m, label, *cells])
    tables = [(scores, 1, (1,), ""), (counts, 2, tuple(groups[1:]), CROSS_NOTE)]
    average: Table = (["document avg", "precision", "recall", "f1", "documents"], [])
    for m in order:
        if (macro := modes[m].document_macro) is not None:
            cells = [_pc(macro.precision), _pc(macro.recall), _pc(macro.f1)]
            average[1].append([m, *cells, str(macro.documents)])
    return [*tables, (average, 1, (), "")] if average[1] else tables


def render_table(result: Result) -> str:
    """A plain-text table for the terminal."""
    head, body = _exact_table(result)
    n_types = len(result.per_type)
    lines = aligned(head, body)
    out = [result.signature, "", *lines[: n_types + 1], "", *lines[n_types + 1 :], ""]
    for head, body in _discontinuous_table(result):
        out += [*aligned(head, body), ""]
    for (head, body), labels, _, note in _muc_tables(result):
        out += [*aligned(head, body, labels), *([note] if note else []), ""]
    for t in _analysis_tables(result):
        out += [
            f"{t.title}: {t.note}" if t.note else f"{t.title}:",
            *aligned(t.head, _cells(t.rows), t.labels),
            "",
        ]
    out += _slices(result, "text")
    return "\n".join([*out, *_footer(result)]) + "\n"


def _cells(rows: list[list[object]]) -> list[list[str]]:
    """Analysis cells as text: fractions in percent with two decimals, the rest as they are."""
    return [[_pc(v) if isinstance(v, float) else str(v) for v in row] for row in rows]


def render_markdown(result: Result) -> str:
    """A GitHub-flavoured Markdown table, scores in percent."""
    head, body = _exact_table(result)
    for row in body[len(result.per_type) :]:
        row[0] = f"**{row[0]}**"
    out = [f"`{result.signature}`", "", *markdown_table(head, body)]
    for head, body in _discontinuous_table(result):
        out += ["", *markdown_table(head, body)]
    for (head, body), labels, _, note in _muc_tables(result):
        out += ["", *markdown_table(head, body, labels), *(["", note] if note else [])]
    for t in _analysis_tables(result):
        out += [
            "",
            f"**{t.title}**" + (f": {t.note}" if t.note else ""),
            "",
            *markdown_table(t.head, _cells(t.rows), t.labels),
        ]
    out += _slices(result, "markdown")
    return "\n".join([*out, "", *_footer(result)]) + "\n"


def _csv_value(value: object) -> object:
    return repr(value) if isinstance(value, float) else value


def render_csv(result: Result) -> str:
    """CSV with one row per type and per average; fractions at full precision.

    The first line is the signature as a ``#`` comment. Further tables follow, each after a
    blank line and a ``#`` comment naming it: with discontinuous entities on either side
    ``# discontinuous`` (exact scores over those only); with the muc metrics ``# muc`` (one row per mode
    and type, with counts) and, with the document average, ``# muc document average``; then one
    section per analysis table (``# errors: NOTE``, ``# confusion (exact): NOTE``...); with slices
    ``# slices``; last ``# totals``, ``key,value`` rows of token accuracy, sentences, documents and
    repairs (the keys are the JSON paths, e.g. ``tokens.accuracy``).
    """
    import csv  # here, not above: plain ``nerve score`` writes no CSV

    buf = io.StringIO()
    buf.write(f"# {result.signature}\n")
    writer = csv.writer(buf, lineterminator="\n")
    keys = list(next(iter(_rows(result)))[1].to_dict())
    writer.writerow(["type", *keys])
    for name, s in _rows(result):
        d = s.to_dict()
        writer.writerow([name, *(_csv_value(d[k]) for k in keys)])
    if result.discontinuous is not None:
        buf.write("\n# discontinuous\n")
        d = result.discontinuous.to_dict()
        writer.writerows([["type", *d], ["all types", *(_csv_value(v) for v in d.values())]])
    if result.muc is not None:
        buf.write("\n# muc\n")
        fields = [*_COUNTS, "precision", "recall", "f1"]
        writer.writerow(["mode", "type", *fields])
        macros = []
        for mode in _muc_modes():
            scores = result.muc.modes[mode]
            for name, c in [("overall", scores.overall), *scores.per_type.items()]:
                d = c.to_dict()
                writer.writerow([mode, name, *(_csv_value(d[k]) for k in fields)])
            if scores.document_macro is not None:
                d = scores.document_macro.to_dict()
                macros.append([mode, *(_csv_value(d[k]) for k in ("precision", "recall", "f1", "documents"))])
        if macros:
            buf.write("\n# muc document average\n")
            writer.writerows([["mode", "precision", "recall", "f1", "documents"], *macros])
    for t in _analysis_tables(result, sweep=False):
        buf.write(f"\n# {t.title}" + (f": {t.note}" if t.note else "") + "\n")
        writer.writerows([t.head, *([_csv_value(v) for v in row] for row in t.rows)])
    if result.sweep is not None:  # every row: `nerve.report.sweep.sweep_csv`
        from .sweep import sweep_csv

        buf.write(sweep_csv(result.sweep))
    _slices(result, "csv", buf)
    buf.write("\n# totals\n")
    writer.writerows([["key", "value"], *([k, _csv_value(v)] for k, v in _totals(result))])
    return buf.getvalue()


def render_latex(result: Result) -> str:
    """A LaTeX ``tabular``, scores in percent; the signature as a comment above it.

    With the muc metrics further ``tabular``s follow (the modes side by side, their counts, and
    the document average when computed); token accuracy, sentences, documents and repairs are
    comments below.
    """
    head, body = _exact_table(result)
    head = [h.capitalize() for h in head]
    out = [f"% {result.signature}", *latex_tabular(head, body, rules=(len(result.per_type),))]
    for head, body in _discontinuous_table(result):
        out += ["", *latex_tabular([h.capitalize() for h in head], body)]
    for (head, body), labels, rules, note in _muc_tables(result):
        out += ["", *latex_tabular(head, body, labels, rules), *([f"% {note}"] if note else [])]
    for t in _analysis_tables(result):
        out += [
            "",
            f"% {t.title}" + (f": {t.note}" if t.note else ""),
            *latex_tabular(t.head, _cells(t.rows), t.labels),
        ]
    out += _slices(result, "latex")
    return "\n".join([*out, *(f"% {line}" for line in _footer(result))]) + "\n"


def render_json(result: Result) -> str:
    """One JSON object, fractions in 0..1: `Result.to_dict` with the sentence and document counts.

    The counts are left out of `Result.to_dict`, which compares scores: the same entities read
    as one document or as several score the same. ``sentences`` is null for span input.
    """
    import json

    d = result.to_dict() if result.sweep is None else replace(result, sweep=None).to_dict()
    sentences = result.sentences if result.settings.source == "tags" else None
    head = {"signature": d.pop("signature"), "tokens": d.pop("tokens")}
    out = {**head, "sentences": sentences, "documents": result.documents, **d}
    if result.sweep is not None:  # a long curve: a row a line (`nerve.report.sweep.json_text`)
        from .sweep import json_text

        return json_text(out, result.sweep) + "\n"
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


RENDERERS = by_format(render_table, render_json, render_markdown, render_csv, render_latex)


def render(result: Result, output: str = "table") -> str:
    """Render ``result`` in one of `RENDERERS`' formats.

    Raises:
        OptionError: an ``output`` not in `RENDERERS`.
        InputError: a ``result`` that is not a `Result`.
    """
    if output not in RENDERERS:
        raise OptionError(
            "output", f"expected an output format among {', '.join(RENDERERS)}, but got {output!r}"
        )
    if not isinstance(result, Result):
        raise InputError("result", None, f"expected a nerve Result, got {type(result).__name__}")
    return RENDERERS[output](result)
