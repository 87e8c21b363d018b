"""The HTML report for span input (brat, JSON): entity texts in their context, documents by name,
a header that counts documents and entities; and the page's wording and type names.

The browser tests use test_html_report.py's Chromium (they skip where it is missing, and fail
under CI=true).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_html_report import Page

import nerve
from nerve.analysis.errors import categorise
from nerve.api import score_aligned
from nerve.report.browser import CHARS, instance_data

TEXTS = {
    "alpha": "Ada Lovelace met Charles Babbage in London.",
    "sub/beta": "The meeting in Paris was long. " * 4 + "Then Grace Hopper flew to New York City today.",
}
GOLD = {
    "alpha": [("PER", 0, 12), ("PER", 17, 32), ("LOC", 36, 42)],
    "sub/beta": [("LOC", 15, 20), ("PER", 129, 141), ("LOC", 150, 163)],
}
PRED = {
    "alpha": [("PER", 0, 12), ("PER", 17, 32), ("LOC", 36, 42)],
    "sub/beta": [("LOC", 15, 20), ("ORG", 129, 141), ("LOC", 150, 158)],
}


def brat(root: Path, spans: dict[str, list[tuple[str, int, int]]], texts: dict[str, str]) -> Path:
    for name, text in texts.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / f"{name}.txt").write_text(text, encoding="utf-8")
        lines = [f"T{k}\t{t} {s} {e}\t{text[s:e]}" for k, (t, s, e) in enumerate(spans[name], 1)]
        (root / f"{name}.ann").write_text("".join(f"{ln}\n" for ln in lines), encoding="utf-8")
    return root


def corpus(tmp_path: Path, names: tuple[str, ...] = tuple(TEXTS)) -> tuple[Path, Path]:
    texts = {n: TEXTS[n] for n in names}
    return brat(tmp_path / "gold", GOLD, texts), brat(tmp_path / "pred", PRED, texts)


def test_span_instances_carry_their_text_in_context_and_the_file_name(tmp_path: Path) -> None:
    gold, pred = corpus(tmp_path)
    _, aligned = score_aligned(gold, pred)
    data = instance_data(aligned, categorise(aligned.gold, aligned.pred), cap=100)
    assert data["doc_names"] == ["alpha.ann", "sub/beta.ann"]
    text = TEXTS["sub/beta"]
    rows = {data["categories"][c]: i for i, c in enumerate(data["cat"].tolist())}
    typed = rows["type"]  # Grace Hopper: PER predicted as ORG
    assert data["g_text"][typed][1] == data["p_text"][typed][1] == "Grace Hopper"
    before, _, after = data["g_text"][typed]
    assert text.endswith(before + "Grace Hopper" + after)  # the window runs to the document's end
    assert before == "in Paris was long. The meeting in Paris was long. Then "  # from a word's start
    assert CHARS - len("meeting ") < len(before) <= CHARS
    assert (data["cut_left"][typed], data["cut_right"][typed]) == (True, False)
    bounded = rows["boundary"]  # New York City against New York
    assert data["g_text"][bounded][1] == "New York City"
    assert data["p_text"][bounded][1:] == ["New York", " City today."]


def test_span_instances_of_token_offsets_join_their_tokens(tmp_path: Path) -> None:
    doc = {
        "tokens": ["Ada", "met", "Bob", "in", "Paris", "."],
        "gold": [{"start": 2, "end": 3, "label": "PER"}],
        "pred": [{"start": 4, "end": 5, "label": "LOC"}],
    }
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    _, aligned = score_aligned(path, None)
    data = instance_data(aligned, categorise(aligned.gold, aligned.pred), cap=100)
    assert data["doc_names"] is None  # numbered: the file names no documents
    pieces = [p for p in data["g_text"] + data["p_text"] if p is not None]
    assert ["Ada met", "Bob", "in Paris ."] in pieces
    assert ["Ada met Bob in", "Paris", "."] in pieces


def test_the_brat_page_shows_texts_names_and_counts_of_span_input(browser: Any, tmp_path: Path) -> None:
    gold, pred = corpus(tmp_path)
    out = tmp_path / "r.html"
    nerve.write_report(gold, pred, out)
    page = Page(browser, out)
    assert page.errors == []
    note = page.page.locator("section.system > p.note").first.inner_text()
    assert "2 documents, 6 gold entities, 6 predicted entities." in note
    assert "token" not in note
    assert "sentence" not in note
    items = page.page.locator("li.instance")
    assert items.count() == 2
    texts = [items.nth(k).inner_text() for k in range(2)]
    assert all("sub/beta.ann" in t for t in texts)
    assert any("Grace Hopper" in t and "flew to New York" in t for t in texts)
    own = page.page.locator("li.instance .sentence.text .ent.own")
    assert sorted(own.all_inner_texts()) == sorted(
        ["Grace HopperPER", "Grace HopperORG", "New York CityLOC", "New YorkLOC"]
    )


def test_one_document_one_error_is_singular(browser: Any, tmp_path: Path) -> None:
    gold, _ = corpus(tmp_path, ("sub/beta",))
    doc = {"sub/beta": [("LOC", 15, 20), ("PER", 129, 141), ("LOC", 150, 163)]}
    pred = brat(tmp_path / "pred1", {"sub/beta": doc["sub/beta"][:2]}, {"sub/beta": TEXTS["sub/beta"]})
    out = tmp_path / "one.html"
    nerve.write_report(gold, pred, out)
    page = Page(browser, out)
    note = page.page.locator("section.system > p.note").first.inner_text()
    assert "1 document, 3 gold entities, 2 predicted entities." in note
    assert page.page.locator(".status").first.inner_text() == "Showing 1 of 1 error."
    tags = tmp_path / "one.conll"
    tags.write_text("Ada B-PER B-PER\n", encoding="utf-8")
    nerve.write_report(tags, None, out)
    note = Page(browser, out).page.locator("section.system > p.note").first.inner_text()
    assert note.endswith("1 token, 1 sentence, 1 document.")
    html = out.read_text(encoding="utf-8")
    assert "1 buckets" not in html
    assert "1 bucket<" in html


LONG = [
    "Organization-Government-Administrative-Region",
    "PRODUCT_NAME_OF_A_CONSUMER_ELECTRONICS_DEVICE",
    "VeryLongTypeNameWithoutAnyBreakOpportunityAtAll",
    "AnExtremelyLongTypeNameThatGoesOnAndOnWithoutAnyBreakOpportunityWhatsoeverAtAll",
]

# The text of each line a name's cell is drawn on, from the boxes of its characters.
LINES = """(cell) => {
  const node = cell.querySelector("span");
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const lines = [];
  let top = null;
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    for (let k = 0; k < t.length; k++) {
      const range = document.createRange();
      range.setStart(t, k);
      range.setEnd(t, k + 1);
      const y = Math.round(range.getBoundingClientRect().top);
      if (top === null || y > top + 2) { lines.push(""); top = y; }
      lines[lines.length - 1] += t.data[k];
    }
  }
  return lines;
}"""


@pytest.mark.parametrize("width", [700, 1200])
def test_long_type_names_wrap_between_words(browser: Any, tmp_path: Path, width: int) -> None:
    rows = [f"w{i} B-{LONG[i % 4]} B-{LONG[(i + 1) % 4] if i % 3 == 0 else LONG[i % 4]}" for i in range(12)]
    path = tmp_path / "long.conll"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "long.html"
    nerve.write_report(path, None, out)
    page = Page(browser, out)
    page.page.set_viewport_size({"width": width, "height": 900})
    cells = page.page.locator("table.per-type th.type-name")
    assert cells.count() == 4
    for k in range(4):
        lines = cells.nth(k).evaluate(LINES)
        name = "".join(lines)
        assert name in LONG
        if name == LONG[3]:
            continue  # wider than the column's 30rem: broken where it must be (the last resort)
        for line in lines[:-1]:
            assert line.endswith(("-", "_")), (name, lines)  # at a hyphen or an underscore only
