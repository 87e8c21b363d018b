"""Counts in messages agree with their noun: ``1 document``, ``2 documents`` (`nerve.errors.plural`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import nerve
from conftest import need
from nerve.errors import plural
from nerve.io.spans import read_spans


def test_plural() -> None:
    assert [plural(n, "document") for n in (0, 1, 2)] == ["0 documents", "1 document", "2 documents"]
    assert plural(1, "id or length", "ids or lengths") == "1 id or length"
    assert plural(3, "id or length", "ids or lengths") == "3 ids or lengths"


def refused(*args: object, **kwargs: object) -> str:
    with pytest.raises(nerve.InputError) as info:
        nerve.score(*args, **kwargs)  # type: ignore[arg-type]
    return str(info.value)


def test_tag_lists() -> None:
    assert refused([["B-PER"], ["O"]], [["B-PER"]]) == "<pred>: has 1 sentence, but the gold has 2"
    assert refused([["B-PER", "O"]], [["B-PER"]]) == (
        "<pred>: sentence 0 has 1 tag, but the gold sentence has 2"
    )


def test_conll_columns(tmp_path: Path) -> None:
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text("B-PER\nI-PER x\n")  # the tag alone, then a token and a tag
    pred.write_text("B-PER\nI-PER\n")
    assert refused(gold, pred, check_tokens=False) == (
        f"{gold}:2: expected 1 column as on line 1, found 2: 'I-PER x'"
    )


def test_span_files(tmp_path: Path) -> None:
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text('{"spans": []}\n{"spans": []}\n')
    pred.write_text('{"spans": []}\n')
    with pytest.raises(nerve.InputError, match=re.escape("has 1 document, but the gold has 2")):
        read_spans(str(gold), str(pred))
    span = {"start": 0, "end": 2, "label": "LOC"}
    one_token = {"tokens": ["Paris"], "gold": [span], "pred": []}
    gold.write_text(json.dumps(one_token) + "\n")
    with pytest.raises(nerve.InputError, match=re.escape("end 2 is beyond the 1 token")):
        read_spans(str(gold))
    one_char = {"text": "P", "gold": [span], "pred": []}
    gold.write_text(json.dumps(one_char) + "\n")
    with pytest.raises(nerve.InputError, match=re.escape("is beyond the text (1 character)")):
        read_spans(str(gold))


def test_text_files(tmp_path: Path) -> None:
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text("-DOCSTART- O\n\nParis B-LOC\n\n-DOCSTART- O\n\nRome B-LOC\n")
    pred.write_text("Paris B-LOC\n\nRome B-LOC\n")
    with pytest.raises(nerve.InputError, match=re.escape("has 1 document, but the gold has 2")):
        nerve.score_text(gold, pred)


def test_torchmetrics_unvalidated_counts() -> None:
    torch = need("torch")
    need("torchmetrics")
    from nerve.integrations.torchmetrics import EntityScore

    lax = EntityScore(["O", "B-PER", "I-PER"], validate=False, repair="error", scheme="IOB2")
    lax.update(torch.tensor([[1, 0, 2]]), torch.tensor([[1, 2, 9]]))  # preds, then gold
    with pytest.raises(nerve.NerveError) as info:
        lax.compute()
    assert str(info.value).startswith("the batches had 1 bad id or length and 1 invalid transition ")


def test_report_names_for_one_system(tmp_path: Path) -> None:
    merged = tmp_path / "m.conll"
    merged.write_text("Ada B-PER B-PER\n", encoding="utf-8")
    with pytest.raises(nerve.OptionError) as info:
        nerve.write_report(merged, None, tmp_path / "r.html", names=["a", "b"])
    assert str(info.value) == "names: expected one name for the one system, but got 2"


def test_convert_report_counts_one_entity() -> None:
    from nerve.api.convert import ConvertReport
    from nerve.cli.convert import render_report

    report = ConvertReport("a.conll", "b.conll", "conll", "conll", 1, 1, 1)
    line = render_report(report).splitlines()[0]
    assert line == "a.conll (conll) -> b.conll (conll): 1 document, 1 entity read, 1 written"
