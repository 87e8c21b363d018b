"""Span inputs: JSON/JSONL, nereval's and nervaluate's formats, sniffing, and their errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerve
from nerve.api import score_spans
from nerve.cli import main
from nerve.io.spans import read_span_columns, read_spans, sniff_format, validate_spans

TEXT = "John Jones and Peter Peters came to York"
GOLD = [
    {"start": 0, "end": 10, "label": "PER", "text": "John Jones"},
    {"start": 36, "end": 40, "label": "LOC"},
]
PRED = [{"start": 0, "end": 10, "label": "LOC"}, {"start": 36, "end": 40, "label": "LOC"}]


def write(path: Path, obj: object, lines: bool = False) -> Path:
    if lines:
        assert isinstance(obj, list)
        path.write_text("".join(json.dumps(o) + "\n" for o in obj), encoding="utf-8")
    else:
        path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def test_jsonl_with_both_sides(tmp_path: Path) -> None:
    path = write(tmp_path / "d.jsonl", [{"id": "a", "text": TEXT, "gold": GOLD, "pred": PRED}], lines=True)
    gold, pred = read_spans(str(path))
    assert gold == [[(0, 10, "PER"), (36, 40, "LOC")]]
    assert pred == [[(0, 10, "LOC"), (36, 40, "LOC")]]
    result = nerve.score(path, metrics="muc")
    assert (result.micro.tp, result.micro.gold, result.micro.predicted) == (1, 2, 2)
    assert result.muc is not None
    assert result.muc.modes["exact"].overall.cor == 2
    assert "spans jsonl" in result.signature


def test_two_files_and_json_lists(tmp_path: Path) -> None:
    g = write(tmp_path / "g.json", [{"text": TEXT, "spans": GOLD}])
    p = write(tmp_path / "p.json", [{"text": TEXT, "entities": PRED}])
    assert sniff_format(str(g)) == "json"
    assert read_spans(str(g), str(p)) == (
        [[(0, 10, "PER"), (36, 40, "LOC")]],
        [[(0, 10, "LOC"), (36, 40, "LOC")]],
    )


def test_token_offsets(tmp_path: Path) -> None:
    doc = {
        "tokens": TEXT.split(),
        "gold": [{"start": 0, "end": 2, "label": "PER", "text": "John Jones"}],
        "pred": [],
    }
    path = write(tmp_path / "t.jsonl", [doc], lines=True)
    assert read_spans(str(path)) == ([[(0, 2, "PER")]], [[]])
    doc["gold"] = [{"start": 0, "end": 2, "label": "PER", "text": "John Smith"}]
    write(path, [doc], lines=True)
    with pytest.raises(nerve.InputError, match="not 'John Smith'"):
        read_spans(str(path))


def test_nereval_format(tmp_path: Path) -> None:
    docs = [
        {
            "text": "CILINDRISCHE PLUG",
            "true": [{"text": "CILINDRISCHE PLUG", "type": "Productname", "start": 0}],
            "predicted": [
                {"text": "CILINDRISCHE", "type": "Productname", "start": 0},
                {"text": "PLUG", "type": "Productname", "start": 13},
            ],
        }
    ]
    path = write(tmp_path / "n.json", docs)
    assert sniff_format(str(path)) == "nereval"
    gold, pred = read_spans(str(path))
    assert gold == [[(0, 17, "Productname")]]
    assert pred == [[(0, 12, "Productname"), (13, 17, "Productname")]]


def test_nervaluate_inclusive_ends(tmp_path: Path) -> None:
    path = write(
        tmp_path / "v.json",
        {
            "true": [[{"label": "PER", "start": 2, "end": 4}]],
            "pred": [[{"label": "PER", "start": 2, "end": 4}]],
        },
    )
    assert sniff_format(str(path)) == "nervaluate"
    assert read_spans(str(path)) == ([[(2, 5, "PER")]], [[(2, 5, "PER")]])
    single = write(tmp_path / "single.json", [[{"label": "PER", "start": 0, "end": 0}]])
    assert read_spans(str(single), str(single)) == ([[(0, 1, "PER")]], [[(0, 1, "PER")]])


@pytest.mark.parametrize(
    ("span", "message"),
    [
        ({"start": 5, "end": 5, "label": "X"}, "expected 0 <= start < end"),
        ({"start": 3, "end": 99, "label": "X"}, "beyond the text"),
        ({"start": 0, "end": 4, "label": "X", "text": "Jane"}, "not 'Jane'"),
        ({"start": 0, "end": 4, "label": "X", "type": "Y"}, "unknown key 'type'"),
        ({"start": 0, "label": "X"}, 'missing "end"'),
        ({"start": "0", "end": 4, "label": "X"}, "expected integer start"),
    ],
)
def test_bad_spans_name_the_line_document_and_span(
    tmp_path: Path, span: dict[str, object], message: str
) -> None:
    path = write(tmp_path / "bad.jsonl", [{"text": TEXT, "gold": [], "pred": []}] * 2, lines=True)
    path.write_text(
        path.read_text(encoding="utf-8")
        + json.dumps({"text": TEXT, "gold": [GOLD[1], span], "pred": []})
        + "\n",
        encoding="utf-8",
    )
    with pytest.raises(nerve.InputError, match=message) as info:
        read_spans(str(path))
    assert info.value.line == 3
    assert "document 2" in str(info.value)
    assert "span 1" in str(info.value)


def test_malformed_and_inconsistent_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"text": "a", "gold": []}\n{"text": \n', encoding="utf-8")
    assert main(["score", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "line 2: malformed JSON" in err
    mixed = write(tmp_path / "mixed.jsonl", [{"gold": [], "pred": []}, {"spans": []}], lines=True)
    with pytest.raises(nerve.InputError, match="same sides"):
        read_spans(str(mixed))
    no_pred = write(tmp_path / "gold.jsonl", [{"spans": []}], lines=True)
    with pytest.raises(nerve.InputError, match="no predictions"):
        read_spans(str(no_pred))
    two = write(tmp_path / "two.jsonl", [{"spans": []}, {"spans": []}], lines=True)
    with pytest.raises(nerve.InputError, match="has 2 documents, but the gold has 1"):
        read_spans(str(no_pred), str(two))


def test_conll_is_still_sniffed(tmp_path: Path) -> None:
    path = tmp_path / "x.conll"
    path.write_text("a B-X B-X\n", encoding="utf-8")
    assert sniff_format(str(path)) == "conll"
    assert nerve.score(path).micro.tp == 1
    with pytest.raises(nerve.NerveError):
        nerve.score(path, input_format="xml")


# eval4ner's README example as a file: (type, surface) entities with their sentence.
E4N_GOLD = [["PER", "John Jones"], ["PER", "Peter Peters"], ["LOC", "York"]]
E4N_PRED = [
    [["PER", TEXT]],
    [["LOC", "John Jones"], ["PER", "Peters"], ["LOC", "York"]],
    E4N_GOLD,
]


@pytest.mark.parametrize("lines", [True, False])
def test_eval4ner_format(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: bool) -> None:
    docs = [{"id": f"s{i}", "text": TEXT, "gold": E4N_GOLD, "pred": p} for i, p in enumerate(E4N_PRED)]
    path = write(tmp_path / ("e.jsonl" if lines else "e.json"), docs, lines=lines)
    assert sniff_format(str(path)) == "eval4ner"
    gold, pred = read_spans(str(path))
    assert gold[0] == [(0, 10, "PER"), (15, 27, "PER"), (36, 40, "LOC")]
    assert pred[1] == [(0, 10, "LOC"), (21, 27, "PER"), (36, 40, "LOC")]
    assert main(["score", str(path), "--metrics", "muc", "-o", "json"]) == 0
    muc = json.loads(capsys.readouterr().out)["muc"]
    # peers-muc.md §2: the micro scores of the README example's counts.
    expected = {"strict": 0.5714, "exact": 0.7143, "partial": 0.8571, "type": 0.8571}
    for mode, precision in expected.items():
        overall = muc[mode]["overall"]
        assert (overall["pos"], overall["act"]) == (9, 7)
        assert overall["precision"] == pytest.approx(precision, abs=5e-5)


def test_eval4ner_format_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = {"text": TEXT, "gold": E4N_GOLD, "pred": []}
    missing = {"text": TEXT, "gold": [["LOC", "Paris"]], "pred": []}
    path = write(tmp_path / "m.jsonl", [good, missing], lines=True)
    assert main(["score", str(path), "--metrics", "muc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "m.jsonl:2" in err
    assert "gold entity 0 ('LOC', 'Paris') does not occur in the text" in err
    shape = write(tmp_path / "s.jsonl", [{"text": TEXT, "gold": [["PER"]], "pred": []}], lines=True)
    with pytest.raises(nerve.InputError, match=r"gold entity 0: expected \[type, surface\]"):
        read_spans(str(shape), fmt="eval4ner")
    # A predicted surface that is not in the text matches nothing: it is spurious, not dropped.
    spurious = write(
        tmp_path / "p.jsonl", [{"text": TEXT, "gold": E4N_GOLD, "pred": [["LOC", "Paris"]]}], lines=True
    )
    result = nerve.score(spurious, metrics="muc")
    assert result.muc is not None
    assert result.muc.modes["strict"].overall.spu == 1
    assert result.muc.modes["strict"].overall.mis == 3


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"text": 5, "gold": [], "pred": []}, 'expected a string under "text"'),
        ({"tokens": 5, "gold": [{"start": 0, "end": 1, "label": "X"}], "pred": []}, "list of strings"),
        (
            {"tokens": [1, 2], "gold": [{"start": 0, "end": 1, "label": "X", "text": "a"}], "pred": []},
            "list of strings",
        ),
    ],
)
def test_texts_and_tokens_of_the_wrong_type_are_input_errors(
    tmp_path: Path, doc: dict[str, object], message: str
) -> None:
    path = write(tmp_path / "t.jsonl", [{"text": TEXT, "gold": [], "pred": []}, doc], lines=True)
    with pytest.raises(nerve.InputError, match=message) as info:
        read_spans(str(path))
    assert info.value.line == 2
    nereval = write(tmp_path / "n.json", [{"text": 5, "true": [], "predicted": []}])
    with pytest.raises(nerve.InputError, match='document 0: expected a string under "text"'):
        read_spans(str(nereval), fmt="nereval")


def test_every_format_reads_into_span_arrays(tmp_path: Path) -> None:
    path = write(tmp_path / "d.jsonl", [{"text": TEXT, "gold": GOLD, "pred": PRED}] * 2, lines=True)
    gold, pred = read_span_columns(str(path))
    assert isinstance(gold, nerve.SpanArray)
    assert (gold.n_docs, pred.n_docs) == (2, 2)
    assert gold.labels == ("PER", "LOC")
    assert pred.labels == ("LOC",)
    assert gold.label.tolist() == [0, 1, 0, 1]
    assert gold.documents() == [[(0, 10, "PER"), (36, 40, "LOC")]] * 2
    e4n = write(tmp_path / "e.jsonl", [{"text": TEXT, "gold": E4N_GOLD, "pred": E4N_PRED[1]}], lines=True)
    gold, pred = read_span_columns(str(e4n))
    assert (gold.labels, gold.label.tolist()) == (("PER", "LOC"), [0, 0, 1])
    assert (pred.labels, pred.label.tolist()) == (("LOC", "PER"), [0, 1, 0])


@pytest.mark.parametrize(
    ("gold", "where"),
    [
        ([[(0, 1, "X")], [(0, "a", "X")]], "gold: document 1, span 0"),
        ([[(0, 1, "X"), (0, 1)]], "gold: document 0, span 1"),
        ([[(0, 1, "X")], 5], "gold: document 1"),
    ],
)
def test_score_spans_names_a_bad_span(gold: list[object], where: str) -> None:
    with pytest.raises(nerve.InputError) as info:
        score_spans(gold, [[], []])  # type: ignore[arg-type]
    assert info.value.source == where


BAD_OFFSETS = [True, False, 1.5, "3", None, [1], 2**62, 2**63, 2**40 + 1]


FORMAT_KEYS = [(f, k) for f in ("jsonl", "json", "nervaluate") for k in ("start", "end")]
FORMAT_KEYS.append(("nereval", "start"))  # its spans have no end


@pytest.mark.parametrize("value", BAD_OFFSETS, ids=repr)
@pytest.mark.parametrize(("fmt", "key"), FORMAT_KEYS)
def test_offsets_of_the_wrong_type_or_range_are_input_errors(
    tmp_path: Path, fmt: str, key: str, value: object
) -> None:
    # Every document is well formed but one value, so the vectorised reading sees it first.
    good = {"start": 0, "end": 4, "label": "X"}
    bad = {**good, key: value}
    if fmt == "nereval":
        entity = {"text": "John", "type": "X", "start": value}
        doc = {"text": TEXT, "true": [{"text": "John", "type": "X", "start": 0}, entity], "predicted": []}
        path = write(tmp_path / "n.json", [doc])
    elif fmt == "nervaluate":
        path = write(tmp_path / "v.json", {"true": [[good, bad]], "pred": [[good]]})
    else:
        docs = [{"gold": [good, bad], "pred": [good]}]
        path = write(tmp_path / f"d.{fmt}", docs, lines=fmt == "jsonl")
    with pytest.raises(nerve.InputError) as info:
        read_span_columns(str(path), fmt=fmt)
    assert "document 0" in str(info.value)
    assert "1" in str(info.value)  # span (or entity) 1


def test_python_spans_are_checked_and_never_meet_across_documents() -> None:
    big = 2**62
    # doc * width + offset wrapped around 2**64: document 4's span met document 0's.
    with pytest.raises(nerve.InputError, match="2\\*\\*40") as info:
        score_spans([[(0, 1, "A")], [], [(big - 2, big - 1, "B")], [], []], [[], [], [], [], [(0, 1, "A")]])
    assert info.value.source == "gold: document 2, span 0"
    for span in [(True, 2, "A"), (0, True, "A"), (1.5, 2, "A"), ("0", 2, "A"), (0, 2, 5), (0, 2**64, "A")]:
        with pytest.raises(nerve.InputError, match="expected") as info:
            score_spans([[(0, 1, "A"), span]], [[]])  # type: ignore[list-item]
        assert info.value.source == "gold: document 0, span 1"
    with pytest.raises(nerve.InputError, match="start < end"):
        score_spans([[]], [[(3, 2, "A")]])
    np = pytest.importorskip("numpy")
    ok = score_spans([[(np.int64(0), np.int32(2), "A")]], [[(0, 2, "A")]])
    assert ok.micro.tp == 1
    one = np.zeros(1, dtype=np.int64)
    far = nerve.SpanArray(one, one, one + 2**40, one, ("A",), 2**22)
    with pytest.raises(nerve.InputError, match="64-bit keys"):
        score_spans(far, far)
    long = nerve.SpanArray(one + 1, one, one + 2**40, one, ("A",), 2)
    with pytest.raises(nerve.InputError, match="spans this long"):
        score_spans(long, long)
    outside = nerve.SpanArray(one + 2, one, one + 1, one, ("A",), 2)
    with pytest.raises(nerve.InputError, match=r"document in 0\.\.1"):
        score_spans(outside, outside)


def test_tokens_must_be_strings_where_offsets_count_them(tmp_path: Path) -> None:
    doc = {"tokens": ["John", 5], "gold": [{"start": 0, "end": 1, "label": "X"}], "pred": []}
    path = write(tmp_path / "t.jsonl", [doc], lines=True)
    with pytest.raises(nerve.InputError, match="list of strings"):
        read_spans(str(path))


@pytest.mark.parametrize(
    ("gold", "pred", "fmt"),
    [
        ("a.jsonl", "b.jsonl", None),  # was: "a.jsonl: holds predictions too"
        ("a.jsonl", "b.json", None),
        ("a.json", "b.json", None),  # was: sniffed as CoNLL
        ("a.jsonl", None, None),
        ("a.json", "b.json", "nervaluate"),
        ("a.json", None, "nereval"),
        ("a.json", "b.json", "eval4ner"),
        ("a.jsonl", "b.jsonl", "json"),
    ],
)
def test_empty_span_files_score_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gold: str, pred: str | None, fmt: str | None
) -> None:
    files = [tmp_path / gold] + ([tmp_path / pred] if pred else [])
    for i, path in enumerate(files):
        path.write_text(" \n" if i else "", encoding="utf-8")
    g, p = read_span_columns(*map(str, files), fmt=fmt)
    assert (len(g), g.n_docs, len(p), p.n_docs) == (0, 0, 0, 0)
    code = main(["score", *map(str, files), "-o", "json"] + (["--format", fmt] if fmt else []))
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert (result["exact"]["micro"]["f1"], result["exact"]["micro"]["gold"]) == (0.0, 0)
    assert result["exact"]["per_type"] == {}
    sides = "/".join(dict.fromkeys(name.split(".")[1] for name in (gold, pred or gold)))  # each sniffed
    assert f"spans {fmt or sides} |" in result["signature"]


def test_validate_spans_lists_every_problem_in_order(tmp_path: Path) -> None:
    spans = [
        {"start": 36, "end": 40, "label": "LOC"},  # before the next one: order is not checked
        {"start": 0, "end": 10, "label": "PER", "text": "John Jones"},
        {"start": 5, "end": 5, "label": "X"},
        {"start": 3, "end": 99, "label": "X"},
        {"start": 0, "end": 4, "label": "X", "text": "Jane"},
        {"start": True, "end": 4, "label": "X"},
    ]
    docs = [
        {"text": TEXT, "spans": spans},
        {"text": TEXT, "spans": spans[:2]},
        ["not", "a", "document"],
        {"tokens": ["John", "Jones"], "spans": [{"start": 1, "end": 3, "label": "X"}]},
        {"text": TEXT},
    ]
    path = write(tmp_path / "g.jsonl", docs, lines=True)
    problems = validate_spans(str(path))
    found = [(p.line, p.detail.split(": ", 1)[1]) for p in problems]
    assert [(line, detail.split(":")[0]) for line, detail in found] == [
        (1, "span 2"),
        (1, "span 3"),
        (1, "span 4"),
        (1, "span 5"),
        (3, "expected a JSON object, got list"),
        (4, "span 0"),
        (5, 'expected "spans", "entities", or "gold" and "pred"'),
    ]
    with pytest.raises(nerve.InputError) as info:
        read_span_columns(str(path), str(path))
    assert str(info.value) == str(problems[0])  # the first problem is the one reading raises
    good = write(tmp_path / "ok.jsonl", docs[:1], lines=True)
    good.write_text(json.dumps({"text": TEXT, "spans": spans[:2]}) + "\n", encoding="utf-8")
    assert validate_spans(str(good)) == []
    three = write(tmp_path / "p.jsonl", [{"spans": []}] * 3, lines=True)
    (problem,) = validate_spans(str(good), str(three))
    assert "has 3 documents, but the gold has 1" in str(problem)


def test_validate_spans_in_every_format(tmp_path: Path) -> None:
    entity = {"label": "X", "start": 0, "end": 3}
    nervaluate = write(tmp_path / "v.json", {"true": [[entity, {**entity, "end": True}]], "pred": [[], 5]})
    assert [p.detail for p in validate_spans(str(nervaluate), fmt="nervaluate")] == [
        "document 0: span 1: expected integer start and end, got 0 and True",
        "document 1: pred: expected a list of entities",
        "has 2 documents, but the gold has 1",
    ]
    wrong = {"text": "Jane", "type": "X", "start": 0}
    doc = {"text": TEXT, "true": [wrong, {**wrong, "start": 99}], "predicted": [{**wrong, "text": "John"}]}
    nereval = write(tmp_path / "n.json", [doc])
    assert len(validate_spans(str(nereval), fmt="nereval")) == 2
    e4n = [
        {"text": TEXT, "gold": [["PER", "Jane"]], "pred": []},
        {"text": TEXT, "gold": [["PER", "John"]], "pred": [["PER"]]},
    ]
    problems = validate_spans(str(write(tmp_path / "e.jsonl", e4n, lines=True)), fmt="eval4ner")
    assert [p.line for p in problems] == [1, 2]


def test_cli_validate_checks_span_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nerve.cli import main

    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"text": "Ada Lovelace", "gold": [{"start": 0, "end": 3, "label": "PER", "text": "Eve"}], '
        '"pred": [{"start": 4, "end": 40, "label": "PER"}]}\n',
        encoding="utf-8",
    )
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "2 problems: jsonl spans"
    assert "'Eve'" in out
    assert "beyond the text" in out
    good = tmp_path / "good.jsonl"
    good.write_text(
        '{"text": "Ada Lovelace", "gold": [{"start": 0, "end": 3, "label": "PER"}], "pred": []}\n',
        encoding="utf-8",
    )
    assert main(["validate", str(good)]) == 0
    assert capsys.readouterr().out == "valid: jsonl spans\n"


# Quoted input is cut to a readable length (model.quoting.quote), in every span format.
LONG = 100_000


def cut(message: str) -> None:
    assert len(message) < 400, message[:500]
    assert "…" in message
    assert " characters)" in message


def test_long_values_are_cut_in_span_messages(tmp_path: Path) -> None:
    long = "x" * LONG
    jsonl_cases = [
        {"text": TEXT, "spans": [{"start": 0, "end": 4, "label": "PER", "text": long}]},
        {"text": TEXT, "spans": [{"start": 0, "end": 4, "label": ["y"] * LONG}]},
        {"text": TEXT, "spans": [{"start": 0, "end": 4, "label": "PER", long: 1}]},
        {"text": TEXT, "spans": [{"start": 0, "end": 4, "label": "PER"}], long: 1},
        {"tokens": TEXT.split(), "spans": [{"start": 0, "end": 1, "label": "PER", "text": long}]},
    ]
    for i, doc in enumerate(jsonl_cases):
        path = write(tmp_path / f"{i}.jsonl", [doc], lines=True)
        units = "token" if "tokens" in doc else None
        with pytest.raises(nerve.InputError) as err:
            read_span_columns(str(path), units=units)
        cut(str(err.value))
    entity = {"text": "John", "type": "PER", "start": 0, "note": long}
    nereval = write(tmp_path / "n.json", [{"text": TEXT, "true": [entity], "predicted": []}])
    long_end = {"label": "X", "start": 0, "end": long}
    nervaluate = write(tmp_path / "v.json", {"true": [[long_end]], "pred": [[]]})
    eval4ner = write(tmp_path / "e.jsonl", [{"text": TEXT, "gold": [["PER", long]], "pred": []}], lines=True)
    for path, fmt in ((nereval, "nereval"), (nervaluate, "nervaluate"), (eval4ner, "eval4ner")):
        with pytest.raises(nerve.InputError) as err:
            read_span_columns(str(path), fmt=fmt)
        cut(str(err.value))
        (problem,) = validate_spans(str(path), fmt=fmt)
        cut(str(problem))
    for span in [("a" * LONG,), (0, 1, ["y"] * LONG)]:
        with pytest.raises(nerve.InputError) as err:
            score_spans([[span]], [[]])  # type: ignore[list-item]
        cut(str(err.value))


def test_span_reader_options_read_as_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "d.jsonl", [{"text": TEXT, "gold": GOLD, "pred": PRED}], lines=True)
    with pytest.raises(nerve.OptionError, match=r"^input_format: expected one of jsonl, json, "):
        read_span_columns(str(path), fmt="xml")
    with pytest.raises(
        nerve.OptionError, match=r"^offsets: expected one of char, token, utf16, byte, but got 'word'"
    ):
        read_span_columns(str(path), units="word")


def test_cli_validate_span_files_by_format_and_with_a_prediction_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entity = {"label": "X", "start": 0, "end": 2}
    nervaluate = write(tmp_path / "spans.txt", {"true": [[entity, {**entity, "start": 3}]], "pred": [[]]})
    assert main(["validate", str(nervaluate), "--format", "nervaluate"]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    assert out == (
        f"{nervaluate}: document 0: span 1: expected 0 <= start < end (half-open), got start=3, end=3\n"
        "1 problem: nervaluate spans\n"
    )
    gold = write(tmp_path / "g.jsonl", [{"text": TEXT, "spans": GOLD}], lines=True)
    pred = write(tmp_path / "p.jsonl", [{"text": TEXT, "spans": PRED}, {"spans": []}], lines=True)
    assert main(["validate", str(gold), str(pred)]) == 1
    out = capsys.readouterr().out
    assert out == f"{pred}: has 2 documents, but the gold has 1\n1 problem: jsonl spans\n"
    pred.write_text(json.dumps({"text": TEXT, "spans": PRED}) + "\n", encoding="utf-8")
    assert main(["validate", str(gold), str(pred)]) == 0
    assert capsys.readouterr().out == "valid: jsonl spans\n"
    assert main(["validate", str(tmp_path / "missing.jsonl")]) == 2  # unreadable: an error, not a problem
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("nerve: error: ")
    assert "missing.jsonl" in err


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["--scheme", "IOBES"], "--scheme"),
        (["--repair", "discard"], "--repair"),
        (["--tag-format", "X"], "--tag-format"),
        (["--outside", "N"], "--outside"),
        (["--comments"], "--comments"),
        (["--ignore-tokens"], "--ignore-tokens"),
        (["--encoding", "latin-1"], "--encoding"),
        (["--delimiter", "tab"], "--delimiter"),
    ],
)
def test_tag_options_are_refused_for_span_files(
    args: list[str], flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from nerve.cli import main

    path = tmp_path / "s.jsonl"
    path.write_text(
        '{"text": "Ada", "gold": [{"start": 0, "end": 3, "label": "PER"}], "pred": []}\n', encoding="utf-8"
    )
    assert main(["score", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"nerve: error: {flag}: applies to tagged (CoNLL) input")
    assert main(["score", str(path)]) == 0
