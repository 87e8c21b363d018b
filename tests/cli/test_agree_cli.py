"""``nerve agree`` and ``nerve score --gold-annotator/--pred-annotator`` on the command line.

The JSON keys, every output format, the consensus file written (against a vote counted here), the
n/a of one document with its reason, and each mistake as one line and exit status 2.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import nerve
from agree_corpora import nested_annotators
from cli_errors import cli_error
from conftest import ROOT
from nerve.cli import main
from nerve.errors import SchemeError

EXPORT = str(ROOT / "examples" / "agreement" / "labelstudio.json")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_json_has_the_keys_the_issue_names(capsys: pytest.CaptureFixture[str]) -> None:
    found = json.loads(_run(capsys, "agree", EXPORT, "--output", "json", "--bootstrap", "200"))
    assert {"pairwise", "kappa", "fleiss_kappa", "alpha", "annotators", "disagreements"} <= set(found)
    assert found["pairwise"]["exact"]["matrix"]["3"]["7"] == pytest.approx(0.9)
    assert found["pairwise"]["exact"]["matrix"]["3"]["3"] is None
    assert found["annotators"][1]["missing"] == ["task-4"]
    assert found["alpha"]["interval"] is not None
    assert found["bootstrap"]["flags"][0]["kind"] == "few_units"
    assert found["disagreements"]["total"] == 5
    assert found["disagreements"]["by_category"] == {
        "missed": 2,
        "type": 1,
        "boundary": 2,
        "boundary_type": 0,
    }


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "latex"])
def test_every_format_carries_the_matrices_and_the_warning(
    capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    out = _run(capsys, "agree", EXPORT, "--output", fmt, "--bootstrap", "50")
    assert "Krippendorff" in out
    assert "annotator 7 left out 1 document (task-4)" in out
    assert ("0.9" if fmt == "csv" else "90.00") in out


def test_one_document_says_why_its_intervals_are_na(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(
        capsys, "agree", str(ROOT / "docs/examples/gold.conll"), str(ROOT / "docs/examples/pred.conll")
    )
    line = next(x for x in out.splitlines() if x.startswith("Krippendorff"))
    assert "n/a" in line
    assert "one document only" in line
    assert "more documents" in line


def test_filters_of_the_disagreement_list(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("agree", EXPORT, "--output", "json", "--instance-category", "missed", "--per-category", "1")
    rows = json.loads(_run(capsys, *args))["disagreements"]["rows"]
    assert [r["category"] for r in rows] == ["missed"]
    assert rows[0]["marks"]["9"] == []
    assert rows[0]["marks"]["3"] == [{"text": "Amnesty International", "type": "ORG"}]


def _votes(export: str, rule: str) -> set[tuple[int, int, int, str]]:
    """The consensus of a Label Studio export as a vote counted here, task by task."""
    kept = set()
    for doc, task in enumerate(json.loads(Path(export).read_text())):
        voters = len(task["annotations"])
        counts: Counter[tuple[int, int, str]] = Counter()
        for annotation in task["annotations"]:
            counts.update(
                {
                    (r["value"]["start"], r["value"]["end"], r["value"]["labels"][0])
                    for r in annotation["result"]
                }
            )
        for (s, e, y), c in counts.items():
            if (c == voters) if rule == "unanimous" else (2 * c > voters):
                kept.add((doc, s, e, y))
    return kept


@pytest.mark.parametrize("rule", ["majority", "unanimous"])
def test_consensus_file_is_the_vote(capsys: pytest.CaptureFixture[str], tmp_path: Path, rule: str) -> None:
    out = tmp_path / "consensus.jsonl"
    found = json.loads(_run(capsys, "agree", EXPORT, "--consensus", rule, "-o", str(out), "--output", "json"))
    assert found["consensus"]["written"] == str(out)
    docs = [json.loads(line) for line in out.read_text().splitlines()]
    written = {(d, x["start"], x["end"], x["label"]) for d, doc in enumerate(docs) for x in doc["spans"]}
    assert written == _votes(EXPORT, rule)
    assert found["consensus"]["entities"] == len(written)


def test_ties_are_counted_and_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "c.jsonl"
    found = json.loads(
        _run(
            capsys,
            "agree",
            EXPORT,
            "--annotators",
            "3,9",
            "--consensus",
            "majority",
            "-o",
            str(out),
            "--output",
            "json",
        )
    )
    tied = found["consensus"]["tied"]
    assert found["consensus"]["ties"] == len(tied) == 6
    assert {"document": "task-1", "text": "Merkel", "type": "PER", "marked_by": ["9"]} in tied
    assert any("6 entities tied" in w for w in found["warnings"])


def test_consensus_as_brat(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _run(capsys, "agree", EXPORT, "--consensus", "unanimous", "-o", str(tmp_path / "brat"), "--to", "brat")
    ann = (tmp_path / "brat" / "task-3.ann").read_text()
    assert "Tim Cook" in ann
    assert "Austin" not in ann  # all three annotated the task, and 9 did not mark it
    assert "London" in (tmp_path / "brat" / "task-4.ann").read_text()  # 3 and 9 annotated it: both marked it


def test_mistakes_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "has no annotator '5'" in cli_error(capsys, "agree", EXPORT, "--annotators", "3,5")
    assert "--annotators" in cli_error(capsys, "agree", EXPORT, "--annotators", "3,5")
    assert "one annotator only" in cli_error(capsys, "agree", EXPORT, "--annotators", "7")
    assert "--unit" in cli_error(capsys, "agree", EXPORT, "--unit", "sentence")
    assert "--consensus" in cli_error(capsys, "agree", EXPORT, "-o", str(tmp_path / "x.jsonl"))
    assert "no such file" in cli_error(capsys, "agree", EXPORT, str(tmp_path / "missing.json"))
    (tmp_path / "there.jsonl").write_text("")
    there = cli_error(capsys, "agree", EXPORT, "--consensus", "majority", "-o", str(tmp_path / "there.jsonl"))
    assert "there.jsonl exists; pass it to write over it" in there
    assert "--force" in there


def test_a_scheme_the_tags_break_names_agrees_own_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """agree reads tags as convert does, but its option is --scheme (convert's is --from-scheme),
    on both engines' roads: tag columns (compiled), and one file per annotator (numpy)."""
    columns = tmp_path / "columns.conll"
    columns.write_text("a B-PER O\nb E-PER O\n", encoding="utf-8")
    one, two = tmp_path / "one.conll", tmp_path / "two.conll"
    one.write_text("a B-PER\nb E-PER\n", encoding="utf-8")
    two.write_text("a B-PER\nb O\n", encoding="utf-8")
    for sources in ([str(columns)], [str(one), str(two)]):
        said = cli_error(capsys, "agree", *sources, "--scheme", "IOB2")
        assert said.startswith("nerve: error: --scheme: the input tags use E, which scheme IOB2 does not")
        assert "--from-scheme" not in said
    with pytest.raises(SchemeError, match=r"^scheme: the input tags use E"):
        nerve.agree(columns, scheme="IOB2")
    convert = ("convert", str(one), str(tmp_path / "out.jsonl"), "--from-scheme", "IOB2", "--to", "jsonl")
    assert "--from-scheme" in cli_error(capsys, *convert)


def test_score_picks_two_annotators(capsys: pytest.CaptureFixture[str]) -> None:
    found = json.loads(
        _run(capsys, "score", EXPORT, "--gold-annotator", "3", "--pred-annotator", "7", "--output", "json")
    )
    assert found["exact"]["micro"]["f1"] == pytest.approx(0.9)
    line = cli_error(capsys, "score", EXPORT, EXPORT)
    assert "--gold-annotator and --pred-annotator" in line
    assert "has no annotator '8'" in cli_error(
        capsys, "score", EXPORT, "--gold-annotator", "8", "--pred-annotator", "3"
    )


def test_consensus_of_tag_columns_as_conll(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Three tag columns: the majority's entities written back as IOB2 tags, token by token."""
    rows = [
        ("Ada", "B-PER", "B-PER", "O"),
        ("Lovelace", "I-PER", "I-PER", "O"),
        ("met", "O", "O", "O"),
        ("Bob", "B-PER", "B-ORG", "B-PER"),
        ("Smith", "O", "O", "I-PER"),
    ]
    source = tmp_path / "three.conll"
    source.write_text("\n".join(" ".join(r) for r in rows) + "\n")
    out = tmp_path / "consensus.conll"
    _run(capsys, "agree", str(source), "--consensus", "majority", "-o", str(out), "--bootstrap", "0")
    written = [line.split() for line in out.read_text().splitlines() if line.strip()]
    assert [w[0] for w in written] == [r[0] for r in rows]
    assert [w[-1] for w in written] == [
        "B-PER",
        "I-PER",
        "O",
        "O",
        "O",
    ]  # Bob: PER, PER+Smith, ORG: no majority


def test_bad_annotators_name_the_file_and_the_fix(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An annotator not in the export, and one annotator only (picked, or all a file holds)."""
    unknown = "has no annotator '5': its annotators are 3, 7, 9"
    assert (
        cli_error(capsys, "agree", EXPORT, "--annotators", "3,5")
        == f"nerve: error: {EXPORT}: {unknown} (use --annotators)"
    )
    line = cli_error(capsys, "score", EXPORT, "--gold-annotator", "3", "--pred-annotator", "5")
    assert line == f"nerve: error: {EXPORT}: {unknown} (use --pred-annotator)"
    only = "one annotator only (7): agreement needs two or more; pick two or more with --annotators"
    assert cli_error(capsys, "agree", EXPORT, "--annotators", "7") == f"nerve: error: {EXPORT}: {only}"
    spans = tmp_path / "one.jsonl"
    spans.write_text('{"text": "Ada met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}]}\n')
    line = cli_error(capsys, "agree", str(spans))
    assert line.startswith(
        f"nerve: error: {spans}: holds one annotator's entities (jsonl); give several annotators"
    )


@pytest.mark.parametrize("layout", ["doccano", "conll", "brat"])
def test_texts_that_differ_between_annotators(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, layout: str
) -> None:
    """The same document with another text (or other tokens) in the second annotator's file: refused."""
    a, b = tmp_path / "a", tmp_path / "b"
    texts = {a: "Ada met Bob", b: "Ada met Rob"}
    for where, text in texts.items():
        if layout == "doccano":
            where.with_suffix(".jsonl").write_text(
                json.dumps({"text": text, "label": [[0, 3, "PER"]]}) + "\n"
            )
        elif layout == "conll":
            tags = ("B-PER", "O", "B-PER")
            rows = "".join(f"{w} {t}\n" for w, t in zip(text.split(), tags, strict=True))
            where.with_suffix(".conll").write_text(rows)
        else:
            where.mkdir()
            (where / "d.txt").write_text(text + "\n")
            (where / "d.ann").write_text("T1\tPER 0 3\tAda\n")
    suffix = {"doccano": ".jsonl", "conll": ".conll", "brat": ""}[layout]
    first, second = (str(p.with_suffix(suffix)) for p in (a, b))
    what = "tokens differ" if layout == "conll" else "text differs"
    name = "d" if layout == "brat" else "doc0001"
    line = cli_error(capsys, "agree", first, second)
    wanted = f"document {name}: its {what} from a's ({first}); every annotator must annotate the same text"
    assert line == f"nerve: error: {second}: {wanted}"


def test_a_nested_consensus_into_tags_is_one_line_without_flatten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """agree has no --flatten (convert's fix): the line names the targets that hold nested entities."""
    paths = nested_annotators(tmp_path)
    code = main(["agree", *map(str, paths), "--consensus", "majority", "-o", str(tmp_path / "c.conll")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert "--to jsonl or --to brat" in err
    assert "--flatten" not in err
