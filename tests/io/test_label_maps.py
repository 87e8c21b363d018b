"""Label maps and type filters (--map, --types, --ignore-types): mapping then scoring equals scoring
input written with the types already renamed or removed, on the tag path and the span path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from nerve.api.shards import shards
from nerve.cli import main
from nerve.errors import OptionError

TYPES = ["PER", "LOC", "MISC", "OTH"]
tag_seqs = st.lists(
    st.lists(st.sampled_from(["O"] + [f"{p}-{t}" for p in "BI" for t in TYPES]), min_size=1, max_size=8),
    min_size=1,
    max_size=4,
)


def _premapped(seqs: list[list[str]], rename: dict[str, str], drop: set[str]) -> list[list[str]]:
    """The tags as if written with the types renamed, and the dropped entities' tags as O."""
    out = []
    for seq in seqs:
        spans = nerve.decode(seq)
        tags = ["O"] * len(seq)
        for s in spans:
            label = rename.get(s.label, s.label)
            if label in drop:
                continue
            tags[s.start : s.end] = [f"B-{label}"] + [f"I-{label}"] * (s.end - s.start - 1)
        out.append(tags)
    return out


def _counts(r: nerve.Result) -> dict[str, tuple[int, int, int]]:
    return {k: (c.tp, c.fp, c.fn) for k, c in r.exact.counts.items()}


@settings(max_examples=60, deadline=None)
@given(
    tag_seqs,
    tag_seqs,
    st.sampled_from([{}, {"OTH": "MISC"}, {"PER": "LOC", "LOC": "PER"}]),
    st.sets(st.sampled_from(TYPES)),
)
def test_map_then_score_equals_score_of_premapped(
    gold: list[list[str]], pred: list[list[str]], rename: dict[str, str], drop: set[str]
) -> None:
    n = min(len(gold), len(pred))
    gold = gold[:n]
    pred = [(p + ["O"] * len(g))[: len(g)] for g, p in zip(gold, pred[:n], strict=True)]
    ignore = sorted(drop) or None
    mapped = nerve.score(gold, pred, label_map=rename or None, ignore_types=ignore)
    plain = nerve.score(_premapped(gold, rename, drop), _premapped(pred, rename, drop))
    assert _counts(mapped) == _counts(plain)
    spans = [[(s.start, s.end, s.label) for s in nerve.decode(seq)] for seq in gold]
    pspans = [[(s.start, s.end, s.label) for s in nerve.decode(seq)] for seq in pred]
    from nerve.api.pipeline import score_spans
    from nerve.io.label_maps import label_map

    on_spans = score_spans(spans, pspans, labels=label_map(rename or None, None, ignore))
    assert _counts(on_spans) == _counts(plain)


def test_filters_remove_entities_before_matching() -> None:
    # gold PER predicted as MISC: with MISC ignored, a missed PER (not a type error)
    r = nerve.score([["B-PER"]], [["B-MISC"]], ignore_types="MISC")
    assert _counts(r) == {"PER": (0, 0, 1)}
    r = nerve.score([["B-PER", "B-LOC"]], [["B-PER", "B-MISC"]], types="PER,LOC")
    assert _counts(r) == {"PER": (1, 0, 0), "LOC": (0, 0, 1)}


def test_signature_fields_only_when_used() -> None:
    plain = nerve.score([["B-PER"]], [["B-PER"]])
    assert plain.signature == (
        f"nerve {nerve.__version__} | scheme IOB2 (auto) | tags B-X O | repair begin (0 repairs)"
        " | match exact | avg micro"
    )
    r = nerve.score([["B-OTH"]], [["B-OTH"]], label_map={"OTH": "MISC"}, ignore_types=["LOC"])
    assert "| match exact | map OTH=MISC | ignore LOC | avg micro" in r.signature
    with pytest.raises(nerve.NerveError, match="different settings"):
        r.merge(plain)


@pytest.mark.parametrize(
    ("kwargs", "option"),
    [
        ({"types": "PER", "ignore_types": "LOC"}, "types"),
        ({"types": "FOO"}, "types"),
        ({"types": "PER,"}, "types"),
        ({"ignore_types": ""}, "ignore_types"),
        ({"label_map": "OTH"}, "label_map"),
        ({"label_map": "OTH=,A=B"}, "label_map"),
        ({"label_map": {"": "X"}}, "label_map"),
        ({"label_map": "A=B", "repair": "conlleval"}, "repair"),
    ],
)
def test_bad_options(kwargs: dict[str, object], option: str) -> None:
    with pytest.raises(OptionError) as err:
        nerve.score([["B-PER"]], [["B-PER"]], **kwargs)  # type: ignore[arg-type]
    assert err.value.option == option


def test_types_on_empty_input_is_no_error() -> None:
    assert _counts(nerve.score([["O"]], [["O"]], types="PER")) == {}


def test_map_files(tmp_path: Path) -> None:
    lines = tmp_path / "map.txt"
    lines.write_text("# renames\nOTH=MISC\n\nperson=PER\n", encoding="utf-8")
    obj = tmp_path / "map.json"
    obj.write_text(json.dumps({"OTH": "MISC", "person": "PER"}), encoding="utf-8")
    gold, pred = [["B-OTH", "B-person"]], [["B-MISC", "B-PER"]]
    for f in (lines, obj, str(lines)):
        assert _counts(nerve.score(gold, pred, label_map=f)) == {"MISC": (1, 0, 0), "PER": (1, 0, 0)}
    bad = tmp_path / "bad.txt"
    bad.write_text("OTH=MISC\nnope\n", encoding="utf-8")
    with pytest.raises(nerve.InputError) as err:
        nerve.score(gold, pred, label_map=str(bad))
    assert err.value.line == 2


def test_a_type_renamed_twice_is_refused_naming_both(tmp_path: Path) -> None:
    gold, pred = [["B-PER"]], [["B-PER"]]
    with pytest.raises(OptionError, match="PER is renamed twice, PER=A and PER=B") as err:
        nerve.score(gold, pred, label_map="PER=A,PER=B")
    assert err.value.option == "label_map"
    lines = tmp_path / "map.txt"
    lines.write_text("PER=A\n# note\nLOC=X\nPER=B\n", encoding="utf-8")
    with pytest.raises(nerve.InputError) as ierr:
        nerve.score(gold, pred, label_map=lines)
    assert (ierr.value.source, ierr.value.line) == (str(lines), 4)
    assert "PER=A on line 1 and PER=B on line 4" in ierr.value.detail
    obj = tmp_path / "map.json"
    obj.write_text('{"PER": "A",\n "PER": "B"}', encoding="utf-8")
    with pytest.raises(nerve.InputError, match="PER=A and PER=B") as ierr:
        nerve.score(gold, pred, label_map=obj)
    assert ierr.value.source == str(obj)
    # the same rename twice is one rename
    assert _counts(nerve.score(gold, pred, label_map="PER=A,PER=A")) == {"A": (1, 0, 0)}


def test_a_missing_map_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "m.conll"
    f.write_text("John B-PER B-PER\n", encoding="utf-8")
    assert main(["score", str(f), "--map", "missing-file.txt"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "nerve: error: --map: the map file 'missing-file.txt' does not exist"
        " (or give FROM=TO pairs, comma-separated)"
    )
    assert main(["score", str(f), "--map", "PER=A,PER=B"]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err == "nerve: error: --map: type PER is renamed twice, PER=A and PER=B; give each type one FROM=TO"
    )
    assert main(["score", str(f), "--map", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "m.conll"
    f.write_text("John B-PER B-MISC\nParis B-OTH B-MISC\n", encoding="utf-8")
    assert main(["score", str(f), "--map", "OTH=MISC", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "map OTH=MISC" in out["signature"]
    assert out["exact"]["per_type"]["MISC"]["tp"] == 1
    assert main(["score", str(f), "--types", "PER", "--ignore-types", "X"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("nerve: error: --types:")
    assert "\n" not in err
    assert main(["score", str(f), "--types", "LOCATION"]) == 2
    assert "--types" in capsys.readouterr().err


def test_threads_and_analysis_see_mapped_types(tmp_path: Path) -> None:
    f = tmp_path / "big.conll"
    rows = ["w B-PER B-MISC\nw B-LOC B-LOC\nw B-OTH B-PER\n\n", "w B-MISC B-MISC\nw I-MISC O\n\n"]
    f.write_text("".join(rows[i % 2] for i in range(400)), encoding="utf-8")
    kwargs = {"label_map": "PER=LOC,LOC=PER", "ignore_types": "MISC", "metrics": "exact,muc"}
    assert shards(f, None, 2, False, "utf-8") is not None  # two ranges, absorbed into one
    one = nerve.score(f, workers=1, **kwargs)  # type: ignore[arg-type]
    two = nerve.score(f, workers=2, **kwargs)  # type: ignore[arg-type]
    assert _counts(one) == _counts(two) == {"LOC": (0, 200, 200), "PER": (200, 0, 0), "OTH": (0, 0, 200)}
    assert one.muc == two.muc
    r = nerve.score(f, errors=True, **kwargs)  # type: ignore[arg-type]
    assert r.analysis is not None
    assert r.analysis.errors is not None
    errors = r.analysis.errors.to_dict()
    assert "MISC" not in str(errors)


# --- --gold-scheme and --pred-scheme: each side decoded with its own scheme -------------------

iob = st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]), min_size=1, max_size=8)
iobes = st.lists(
    st.sampled_from(["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "E-LOC", "S-LOC"]),
    min_size=1,
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(iob, iobes), min_size=1, max_size=4), st.sampled_from(["begin", "discard"]))
def test_each_side_decodes_with_its_scheme(pairs: list[tuple[list[str], list[str]]], repair: str) -> None:
    from nerve.api.pipeline import score_spans

    gold = [g for g, _ in pairs]
    pred = [(p + ["O"] * len(g))[: len(g)] for g, p in pairs]
    r = nerve.score(gold, pred, gold_scheme="IOB2", pred_scheme="IOBES", repair=repair)
    g_spans = [
        [(s.start, s.end, s.label) for s in nerve.decode(t, scheme="IOB2", repair=repair)] for t in gold
    ]
    p_spans = [
        [(s.start, s.end, s.label) for s in nerve.decode(t, scheme="IOBES", repair=repair)] for t in pred
    ]
    assert _counts(r) == _counts(score_spans(g_spans, p_spans))
    assert r.repairs.gold == nerve.score(gold, gold, scheme="IOB2", repair=repair).repairs.gold
    assert r.repairs.pred == nerve.score(pred, pred, scheme="IOBES", repair=repair).repairs.pred
    assert "| scheme gold IOB2 pred IOBES |" in r.signature


def test_scheme_signatures_and_refusals() -> None:
    gold, pred = [["B-PER", "I-PER"]], [["B-PER", "E-PER"]]
    same = nerve.score(gold, gold, gold_scheme="IOB2", pred_scheme="BIO")
    assert same.signature == nerve.score(gold, gold, scheme="IOB2").signature
    r = nerve.score(gold, pred, pred_scheme="IOBES")
    assert "| scheme gold IOB2 (auto) pred IOBES |" in r.signature
    assert _counts(r) == {"PER": (1, 0, 0)}
    r2 = nerve.score(gold, pred, gold_scheme="IOB2")
    assert "| scheme gold IOB2 pred IOBES (auto) |" in r2.signature
    with pytest.raises(nerve.NerveError, match="different settings"):
        r.merge(r2)
    with pytest.raises(nerve.SchemeError, match="pred tags use E"):
        nerve.score(gold, pred, gold_scheme="IOBES", pred_scheme="IOB2")
    with pytest.raises(OptionError) as err:
        nerve.score(gold, pred, pred_scheme="IOBES", repair="discard")
    assert err.value.option == "gold_scheme"
    with pytest.raises(OptionError) as err:
        nerve.score(gold, pred, pred_scheme="IOBES", repair="conlleval")
    assert err.value.option == "repair"


def test_compare_and_report_take_the_maps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, a, b = (tmp_path / f"{n}.conll" for n in ("gold", "a", "b"))
    gold.write_text("x B-PER\ny B-OTH\n\nz B-LOC\n", encoding="utf-8")
    a.write_text("x B-PER\ny B-MISC\n\nz O\n", encoding="utf-8")
    b.write_text("x B-PER\ny B-OTH\n\nz B-LOC\n", encoding="utf-8")
    args = [
        "compare",
        str(gold),
        str(a),
        str(b),
        "--map",
        "OTH=MISC",
        "--bootstrap",
        "20",
        "--output",
        "json",
    ]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert "| map OTH=MISC |" in out["signature"]
    html = tmp_path / "r.html"
    assert main(["report", str(gold), str(a), "--ignore-types", "LOC", "-o", str(html)]) == 0
    assert "| ignore LOC |" in html.read_text(encoding="utf-8")


def test_types_name_the_types_after_the_map() -> None:
    r = nerve.score([["B-OTH", "B-PER"]], [["B-OTH", "O"]], label_map="OTH=MISC", types="MISC")
    assert _counts(r) == {"MISC": (1, 0, 0)}
    with pytest.raises(OptionError, match="neither the gold nor the predicted entities after label_map"):
        nerve.score([["B-OTH"]], [["B-OTH"]], label_map="OTH=MISC", types="OTH")


@settings(max_examples=60, deadline=None)
@given(
    tag_seqs,
    st.sampled_from([{}, {"OTH": "MISC"}, {"PER": "LOC", "LOC": "PER"}]),
    st.sets(st.sampled_from(TYPES)),
)
def test_keeping_types_equals_removing_the_others(
    gold: list[list[str]], rename: dict[str, str], keep: set[str]
) -> None:
    pred = [list(reversed(s)) for s in gold]
    seen = {rename.get(s.label, s.label) for seq in gold + pred for s in nerve.decode(seq)}
    kept = sorted(keep) or ["PER"]
    if not set(kept) <= seen and seen:
        with pytest.raises(OptionError, match="neither the gold nor the predicted"):
            nerve.score(gold, pred, label_map=rename or None, types=kept)
        return
    mapped = nerve.score(gold, pred, label_map=rename or None, types=kept)
    drop = set(TYPES) - set(kept)
    assert _counts(mapped) == _counts(
        nerve.score(_premapped(gold, rename, drop), _premapped(pred, rename, drop))
    )
