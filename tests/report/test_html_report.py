"""The HTML report (``nerve report``, `nerve.write_report`), opened in a real browser.

The browser is Debian's ``chromium``, driven by Playwright with ``executable_path`` set to it (no
``playwright install``). Without chromium or Playwright the browser tests skip, and fail under
CI=true, as `conftest.peer` does for peer tools.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.analysis.errors import CATEGORIES
from nerve.analysis.summary import Analysis, analyse
from nerve.api import score_aligned
from nerve.cli import main
from nerve.report.browser import capped
from nerve.report.html import PAGE_SIZE, render_html
from nerve.report.html_data import SystemReport, safe_json

ROOT = Path(__file__).resolve().parents[2]
NEWS = ROOT / "examples" / "news.conll"
ERRORS = [c for c in CATEGORIES if c != "correct"]
HOSTILE_TOKENS = [
    "<script>window.__pwned=1</script>",
    '"onmouseover=window.__pwned=1',
    "<img/src=x/onerror=window.__pwned=1>",
    "</script><!--",
    "\u202eevil",
    "W" * 10_000,
]
HOSTILE_TYPE = "<img/src=y/onerror=window.__pwned=2>"


# --------------------------------------------------------------------------- the browser


class Page:
    """A report opened in the browser, with every console error and uncaught exception."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.page = browser.new_page(viewport={"width": 1200, "height": 900})
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(path.resolve().as_uri())

    def select(self, system: int, category: str, type_name: str) -> dict[str, int]:
        """Choose the filters of one system's browser; the counts its status reports."""
        browser = self.page.locator(".browser").nth(system)
        browser.locator(".filter-category").select_option(label=category.replace("_", " ") or "all errors")
        browser.locator(".filter-type").select_option(label=type_name or "all types")
        status = browser.locator(".status")
        shown = browser.locator("li.instance")
        return {
            "visible": shown.count(),
            "embedded": int(status.get_attribute("data-embedded") or -1),
            "total": int(status.get_attribute("data-total") or -1),
        }


# --------------------------------------------------------------------------- corpora


def random_corpus(tmp_path: Path, seed: int, sentences: int = 60) -> tuple[Path, Path]:
    """Gold and prediction files (token, tag) with every kind of error, from random tags."""
    rng = np.random.default_rng(seed)
    types = ["PER", "LOC", "ORG"]
    gold_lines, pred_lines = [], []
    for s in range(sentences):
        if s % 20 == 0:
            gold_lines += ["-DOCSTART- O", ""]
            pred_lines += ["-DOCSTART- O", ""]
        n = int(rng.integers(3, 12))
        gold = _tags(rng, n, types)
        pred = list(gold) if rng.random() < 0.3 else _tags(rng, n, types)
        for k in range(n):
            word = f"w{rng.integers(0, 30)}"
            gold_lines.append(f"{word} {gold[k]}")
            pred_lines.append(f"{word} {pred[k]}")
        gold_lines.append("")
        pred_lines.append("")
    g, p = tmp_path / f"gold{seed}.txt", tmp_path / f"pred{seed}.txt"
    g.write_text("\n".join(gold_lines) + "\n", encoding="utf-8")
    p.write_text("\n".join(pred_lines) + "\n", encoding="utf-8")
    return g, p


def _tags(rng: np.random.Generator, n: int, types: list[str]) -> list[str]:
    tags, k = [], 0
    while k < n:
        if rng.random() < 0.35:
            t, length = types[int(rng.integers(0, len(types)))], int(rng.integers(1, 4))
            tags += [f"B-{t}"] + [f"I-{t}"] * (length - 1)
            k += length
        else:
            tags.append("O")
            k += 1
    return tags[:n]


def hostile_corpus(tmp_path: Path) -> Path:
    """A merged file whose tokens and one type are hostile: every one of them an error."""
    lines = ["-DOCSTART- O O", ""]
    for k, token in enumerate(HOSTILE_TOKENS):
        gold, pred = ("B-$PER$", "O") if k % 2 else ("O", f"B-{HOSTILE_TYPE}")
        lines += ["a O O", f"{token} {gold} {pred}", "b O O", ""]
    path = tmp_path / "hostile.conll"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def expected_counts(result: nerve.Result, category: str, type_name: str) -> int:
    """The errors of a category and type by the analysis (all of them for "")."""
    assert result.analysis is not None
    assert result.analysis.errors is not None
    by_type = result.analysis.errors.by_type
    names = [type_name] if type_name else list(by_type)
    cats = [category] if category else ERRORS
    return sum(getattr(by_type[t], c) for t in names if t in by_type for c in cats)


# --------------------------------------------------------------------------- tests in the browser


def test_page_renders_without_console_errors_and_is_not_blank(browser: Any, tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "news.html"
    nerve.write_report(NEWS, None, out)
    page = Page(browser, out)
    assert page.errors == []
    # two confusion views, the error bars, and the default slices: length, type, sentence length
    assert page.page.locator("svg.chart").count() == 6
    assert page.page.locator("div.slice").count() == 3
    shot = Image.open(io.BytesIO(page.page.screenshot(full_page=True))).convert("RGB")
    colours = shot.getcolors(maxcolors=1 << 20)
    assert colours is not None
    assert len(colours) > 50
    assert np.asarray(shot, dtype=np.float64).std() > 10
    assert page.page.locator("table.per-type tbody tr").count() == 4


@pytest.mark.parametrize("seed", [1, 2])
def test_filters_show_what_the_analysis_counts(browser: Any, tmp_path: Path, seed: int) -> None:
    gold, pred = random_corpus(tmp_path, seed)
    out = tmp_path / "random.html"
    results = nerve.write_report(gold, [pred, gold], out)
    page = Page(browser, out)
    assert page.errors == []
    result = results[0]
    assert result.analysis is not None
    assert result.analysis.errors is not None
    assert all(getattr(result.analysis.errors.total, c) > 0 for c in ERRORS)
    for category in ["", *ERRORS]:
        for type_name in ["", "PER", "LOC", "ORG"]:
            want = expected_counts(result, category, type_name)
            got = page.select(0, category, type_name)
            assert got == {"visible": min(want, PAGE_SIZE), "embedded": want, "total": want}
            shown = page.page.locator(".browser").nth(0).locator("li.instance")
            if category:
                assert shown.and_(page.page.locator(f".cat-{category}")).count() == got["visible"]
    # The second system is the gold file against itself: no errors at all.
    assert page.select(1, "", "") == {"visible": 0, "embedded": 0, "total": 0}
    assert page.errors == []


def test_the_cap_keeps_that_many_of_each_category_and_says_so(browser: Any, tmp_path: Path) -> None:
    gold, pred = random_corpus(tmp_path, 3, sentences=120)
    out = tmp_path / "capped.html"
    (result,) = nerve.write_report(gold, pred, out, max_instances=4)
    page = Page(browser, out)
    for category in ERRORS:
        want = expected_counts(result, category, "")
        got = page.select(0, category, "")
        assert want > 4
        assert got == {"visible": 4, "embedded": 4, "total": want}
        status = page.page.locator(".browser .status").text_content() or ""
        assert f"Showing 4 of {want:,} errors" in status
        # Taken from the types in turns: each type with errors has one at least (3 types, 4 kept).
        for t in ("PER", "LOC", "ORG"):
            embedded = page.select(0, category, t)["embedded"]
            assert (
                min(1, expected_counts(result, category, t))
                <= embedded
                <= expected_counts(result, category, t)
            )


def test_paging_walks_through_every_instance(browser: Any, tmp_path: Path) -> None:
    gold, pred = random_corpus(tmp_path, 4, sentences=150)
    out = tmp_path / "pages.html"
    (result,) = nerve.write_report(gold, pred, out)
    page = Page(browser, out)
    want = expected_counts(result, "", "")
    assert want > PAGE_SIZE
    seen = page.page.locator("li.instance").count()
    while page.page.locator(".browser .next").is_enabled():
        page.page.locator(".browser .next").click()
        seen += page.page.locator("li.instance").count()
    assert seen == want
    assert page.errors == []


def test_hostile_text_is_text_and_runs_no_script(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "hostile.html"
    (result,) = nerve.write_report(hostile_corpus(tmp_path), None, out)
    assert HOSTILE_TYPE in result.per_type
    page = Page(browser, out)
    for item in page.page.locator("li.instance .tok, table.per-type th").all():
        item.hover(force=True)
    assert page.page.evaluate("typeof window.__pwned") == "undefined"
    assert page.page.evaluate("document.scripts.length") == 2  # the instances' JSON, the script
    assert page.page.locator("img").count() == 0
    tokens = page.page.locator("li.instance .tok").all_text_contents()
    for token in HOSTILE_TOKENS[:-1]:
        assert token in tokens
    long = page.page.locator("li.instance .tok.long")  # the 10,000 characters: cut, whole in the tooltip
    assert long.count() == 2  # on the gold line and on the predicted one
    assert long.first.get_attribute("title") == HOSTILE_TOKENS[-1]
    assert long.first.text_content() == "W" * 100 + "\u2026" + "W" * 19
    assert HOSTILE_TYPE in page.page.locator("table.per-type").inner_text()
    assert HOSTILE_TYPE in page.page.locator("li.instance .lab").all_text_contents()
    labels = page.page.locator("svg.chart text").all_text_contents()
    assert "$PER$" in labels
    assert HOSTILE_TYPE[:31] + "\u2026" in labels  # cut on the axes, whole in the tables
    assert page.page.locator(".tok").first.evaluate("e => getComputedStyle(e).unicodeBidi") == "isolate"
    width = page.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1200  # the 10,000-character token wraps
    assert page.errors == []


def test_bootstrap_and_slices_are_shown_when_the_analysis_has_them(browser: Any, tmp_path: Path) -> None:
    result, aligned = score_aligned(NEWS)
    base = analyse(aligned, errors=True, confusion_matrix=True)
    extra = {
        "bootstrap": {
            "micro": {"precision": [0.5, 0.9], "recall": [0.4, 0.95], "f1": [0.45, 0.925]},
            "PER": {"f1": [0.125, 0.875]},
            "n": 1000,
            "unit": "document",
            "seed": 7,
            "confidence": 0.95,
        },
        "slices": {
            "length": {"1": {"precision": 0.5, "recall": 0.25, "f1": 1 / 3, "gold": 4}, "2": {"f1": 0.75}},
            "document": [{"bucket": f"d{k}", "f1": k / 50} for k in range(50)],
            "odd": "<b>not a slice</b>",
        },
    }
    analysis = WithExtras(
        errors=base.errors, confusion=base.confusion, categories=base.categories, extras=extra
    )
    system = SystemReport("sys <b>", replace(result, analysis=analysis), aligned)
    out = tmp_path / "extras.html"
    out.write_text(render_html([system]), encoding="utf-8")
    html = out.read_text(encoding="utf-8")
    assert "[50.00, 90.00]" in html
    assert "[12.50, 87.50]" in html
    assert "95% bootstrap percentile intervals over 1000 resamples of documents, seed 7" in html
    assert "sys &lt;b&gt;" in html
    assert "sys <b>" not in html
    page = Page(browser, out)
    assert page.errors == []
    assert page.page.locator(".slice").count() == 3
    assert page.page.locator(".slice svg.chart").count() == 2  # bars, and a histogram of 50 buckets
    assert page.page.locator(".slice pre.raw").inner_text() == '"<b>not a slice</b>"'


class WithExtras(Analysis):
    """An analysis whose ``to_dict`` holds the keys other modules add (bootstrap, slices)."""

    def __init__(self, *, extras: dict[str, Any], **fields: Any) -> None:
        super().__init__(**fields)
        object.__setattr__(self, "_extras", extras)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), **self._extras}  # type: ignore[attr-defined]


def test_span_files_show_offsets_and_types(browser: Any, tmp_path: Path) -> None:
    span = lambda s, e, label: {"start": s, "end": e, "label": label}  # noqa: E731
    docs = [
        {
            "text": "Ada met Bob in Paris",
            "gold": [span(0, 3, "PER"), span(8, 11, "PER")],
            "pred": [span(0, 3, "LOC"), span(15, 20, "LOC")],
        },
    ]
    path = tmp_path / "spans.jsonl"
    path.write_text("\n".join(__import__("json").dumps(d) for d in docs) + "\n", encoding="utf-8")
    out = tmp_path / "spans.html"
    nerve.write_report(path, None, out)
    page = Page(browser, out)
    assert page.errors == []
    assert page.select(0, "", "") == {"visible": 3, "embedded": 3, "total": 3}
    text = page.page.locator(".browser").inner_text()
    assert "[0, 3)" in text
    assert "[8, 11)" in text
    assert "[15, 20)" in text


# --------------------------------------------------------------------------- without a browser


def test_the_page_is_self_contained(tmp_path: Path) -> None:
    out = tmp_path / "news.html"
    nerve.write_report(NEWS, None, out)
    html = out.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, flags=re.I)
    assert not re.search(r"<link\b|@import|url\(\s*['\"]?https?:", html, flags=re.I)
    assert "<!DOCTYPE svg" not in html
    assert "<?xml" not in html


def test_safe_json_cannot_close_its_script_element() -> None:
    value = {"a": "</script><!--<script>&", "b": np.arange(3)}
    text = safe_json(value)
    assert "<" not in text
    assert ">" not in text
    assert "&" not in text
    assert __import__("json").loads(text) == {"a": "</script><!--<script>&", "b": [0, 1, 2]}


def naive_capped(cat: list[int], typ: list[int], cap: int) -> list[int]:
    """Rows in corpus order (the rows are), per category the types' first rows in turns."""
    keep: list[int] = []
    for c in sorted(set(cat)):
        queues = {t: [i for i in range(len(cat)) if cat[i] == c and typ[i] == t] for t in sorted(set(typ))}
        taken: list[int] = []
        turn = 0
        while len(taken) < cap and any(len(q) > turn for q in queues.values()):
            taken += sorted(q[turn] for q in queues.values() if len(q) > turn)[: cap - len(taken)]
            turn += 1
        keep += taken
    return sorted(keep)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), max_size=60), st.integers(1, 8))
def test_capped_takes_the_types_in_turns(rows: list[tuple[int, int]], cap: int) -> None:
    cat = np.asarray([r[0] for r in rows], dtype=np.int64)
    typ = np.asarray([r[1] for r in rows], dtype=np.int64)
    position = np.arange(len(rows), dtype=np.int64)
    got = capped(cat, typ, np.zeros(len(rows), dtype=np.int64), position, cap)
    assert got.tolist() == naive_capped(cat.tolist(), typ.tolist(), cap)


def test_write_report_names_and_options(tmp_path: Path) -> None:
    gold, pred = random_corpus(tmp_path, 5, sentences=10)
    out = tmp_path / "r.html"
    results = nerve.write_report(gold, [pred, pred], out, names=["a", "b"], title="T <i>")
    assert len(results) == 2
    assert results[0].micro == nerve.score(gold, pred).micro
    html = out.read_text(encoding="utf-8")
    assert "<title>T &lt;i&gt;</title>" in html
    assert html.count('class="system"') == 2
    with pytest.raises(nerve.OptionError, match="names: expected one name for each of the 2 systems"):
        nerve.write_report(gold, [pred, pred], out, names=["a"])
    with pytest.raises(nerve.OptionError, match="max_instances: expected a whole number >= 1, but got 0"):
        nerve.write_report(gold, pred, out, max_instances=0)
    with pytest.raises(nerve.OptionError, match="errors: the report always analyses"):
        nerve.write_report(gold, pred, out, errors=True)
    with pytest.raises(nerve.OptionError, match="output: cannot write"):
        nerve.write_report(gold, pred, tmp_path)
    # Two prediction files of the same name are told apart by their paths.
    (tmp_path / "x").mkdir()
    twin = tmp_path / "x" / pred.name
    shutil.copy(pred, twin)
    nerve.write_report(gold, [pred, twin], out)
    html = out.read_text(encoding="utf-8")
    assert f">{pred}<" in html
    assert f">{twin}<" in html


def test_cli_writes_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = random_corpus(tmp_path, 6, sentences=10)
    out = tmp_path / "cli.html"
    assert main(["report", str(gold), str(pred), str(pred), "-o", str(out), "--max-instances", "3"]) == 0
    assert capsys.readouterr() == ("", "")
    assert out.is_file()
    assert out.read_text(encoding="utf-8").count('class="system"') == 2
    assert main(["report", str(NEWS), "--output", str(out), "--force"]) == 0
    assert "news.conll" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "nerve: error: --output: expected the HTML file to write, as in --output report.html"),
        (["-o", "{tmp}/missing/r.html"], "nerve: error: --output: cannot write '{tmp}/missing/r.html': "),
        (["-o", "{tmp}"], "nerve: error: --output: cannot write '{tmp}': "),
        (["-o", "{tmp}/r.html", "--max-instances", "0"], "nerve: error: --max-instances: expected a whole"),
    ],
)
def test_cli_mistakes_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert main(["report", str(NEWS), *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(message.replace("{tmp}", str(tmp_path)))
    assert not (tmp_path / "r.html").exists()


def test_score_imports_neither_jinja2_nor_matplotlib() -> None:
    code = (
        "import sys, io, contextlib, nerve.cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert nerve.cli.main(['score', {str(NEWS)!r}]) == 0\n"
        "print(sorted(m for m in ('jinja2', 'matplotlib', 'markupsafe') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"


def test_a_missing_extra_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n == "matplotlib" else real(n, *a))
    assert main(["report", str(NEWS), "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err == "nerve: error: the HTML report needs matplotlib: pip install matplotlib\n"


def test_report_slices_are_chosen_and_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nerve.cli import main

    out = tmp_path / "r.html"
    assert main(["report", str(NEWS), "-o", str(out), "--slices", "type"]) == 0
    assert out.read_text(encoding="utf-8").count('<div class="slice">') == 1
    assert main(["report", str(NEWS), "-o", str(out), "--train", str(NEWS), "--force"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "--train" in err


def test_report_carries_bootstrap_intervals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nerve.cli import main

    out = tmp_path / "r.html"
    assert main(["report", str(NEWS), "-o", str(out), "--bootstrap", "50", "--unit", "sentence"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "bootstrap percentile n=50 unit=sentence seed=" in page  # in the signature
    result = nerve.score(NEWS, bootstrap=50, unit="sentence")
    assert result.analysis is not None
    assert result.analysis.bootstrap is not None
    low, high = result.analysis.bootstrap.to_dict()["micro"]["f1"]
    assert f"{100 * low:.2f}" in page
    assert f"{100 * high:.2f}" in page
    assert (
        main(["report", str(NEWS), "-o", str(out), "--seed", "3", "--force"]) == 0
    )  # 1000 resamples by default
    assert "bootstrap percentile n=1000 unit=sentence seed=3" in out.read_text(encoding="utf-8")  # auto
    assert main(["report", str(NEWS), "-o", str(out), "--bootstrap", "0", "--force"]) == 2
    assert "--bootstrap" in capsys.readouterr().err


def test_one_document_report_shows_n_a_and_the_flags(browser: Any, tmp_path: Path) -> None:
    """One document resampled as documents: every interval on the page is n/a, never ``[x, x]``,
    and the flag with its fix is on the page; by default (auto) the sentences are resampled."""
    from stats_corpora import tagged_corpus

    gold, a, _ = map(str, tagged_corpus(tmp_path, 1, 30, docstart=False))
    out = tmp_path / "one.html"
    assert main(["report", gold, a, "-o", str(out), "--unit", "document", "--bootstrap", "50"]) == 0
    page = Page(browser, out)
    assert page.errors == []
    summary = page.page.locator("#summary table.scores")
    assert summary.locator(".ci").all_inner_texts() == ["n/a"] * 9  # P, R, F1 of micro, macro, weighted
    texts = page.page.locator(".ci").all_text_contents()  # the slices' too, folded in <details>
    assert len(texts) > 9
    assert set(texts) == {"n/a"}
    assert not any(re.fullmatch(r"\[(\S+), \1\]", t) for t in texts)
    note = page.page.locator("p.note.bootstrap").inner_text()
    assert "50 resamples of documents" in note
    assert "n/a: an interval these resamples cannot give" in note
    flags = page.page.locator(".stat-flags")
    assert flags.is_visible()
    text = flags.inner_text()
    assert "one_unit: one document only: every resample is the corpus itself" in text
    assert "resample sentences (--unit sentence)" in text
    assert page.page.locator(".ci.na").first.evaluate("e => getComputedStyle(e).fontWeight") == "600"

    assert main(["report", gold, a, "-o", str(out), "--bootstrap", "50", "--force"]) == 0  # auto: sentences
    page = Page(browser, out)
    assert page.errors == []
    assert "unit=sentence" in page.page.locator("code.signature").first.inner_text()
    assert "50 resamples of sentences" in page.page.locator("p.note.bootstrap").inner_text()
    headline = page.page.locator("#summary table.scores .ci").all_inner_texts()
    assert len(headline) == 9
    for text in headline:
        low, high = re.fullmatch(r"\[(\S+), (\S+)\]", text).groups()  # type: ignore[union-attr]
        assert float(low) < float(high)
    assert "one_unit" not in page.page.content()


def test_few_units_are_flagged_on_the_page(browser: Any, tmp_path: Path) -> None:
    from stats_corpora import tagged_corpus

    gold, a, _ = map(str, tagged_corpus(tmp_path, 5, 3))
    out = tmp_path / "few.html"
    nerve.write_report(gold, a, out, bootstrap=40, unit="document")
    page = Page(browser, out)
    assert page.errors == []
    flags = page.page.locator(".stat-flags")
    assert flags.is_visible()
    assert (
        "few_units: only 5 documents: intervals and p-values from fewer than 20 documents are unreliable"
        in (flags.inner_text())
    )
    assert "resample sentences (unit='sentence')" in flags.inner_text()  # the API's spelling
