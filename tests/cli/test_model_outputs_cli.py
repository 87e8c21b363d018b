"""``nerve score`` and ``nerve report`` of model outputs: hallucinations in every output, one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from cli_errors import cli_error
from conftest import have
from nerve.cli import main

ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = ROOT / "docs" / "examples" / "outputs"
GOLD, LLM = str(OUTPUTS / "gold.jsonl"), str(OUTPUTS / "llm.jsonl")
PIPELINE = str(OUTPUTS / "pipeline-tokens.jsonl")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_hallucinations_reach_every_output_format(capsys: pytest.CaptureFixture[str]) -> None:
    line = (
        'hallucinated (not in the text, counted as false positives): LOC 1: "Berlin"; ORG 1: "hugging face"'
    )
    assert line in run(capsys, "score", GOLD, LLM).splitlines()
    assert line in run(capsys, "score", GOLD, LLM, "-o", "markdown").splitlines()
    assert f"% {line}" in run(capsys, "score", GOLD, LLM, "-o", "latex").splitlines()
    got = json.loads(run(capsys, "score", GOLD, LLM, "-o", "json"))
    assert got["hallucinated"] == {
        "LOC": {"count": 1, "texts": ["Berlin"]},
        "ORG": {"count": 1, "texts": ["hugging face"]},
    }
    assert got["exact"]["per_type"]["LOC"]["fp"] == 1
    rows = dict(
        r for r in csv.reader(io.StringIO(run(capsys, "score", GOLD, LLM, "-o", "csv"))) if len(r) == 2
    )
    assert (rows["hallucinated.LOC.count"], json.loads(rows["hallucinated.ORG.texts"])) == (
        "1",
        ["hugging face"],
    )


@pytest.mark.slow  # the page's charts load matplotlib
def test_hallucinations_on_the_html_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    if not have("jinja2"):
        pytest.skip("jinja2 (the report extra) is not installed")
    page = tmp_path / "r.html"
    run(capsys, "report", GOLD, LLM, "-o", str(page), "--normalize", "case")
    html = page.read_text(encoding="utf-8")
    assert "<h3>Hallucinated entities</h3>" in html
    assert '<li><span class="type-name">LOC</span> (1): <q>Berlin</q></li>' in html
    assert "hugging face" not in html.split("Hallucinated entities")[1].split("</ul>")[0]  # found, with case
    assert "locate in-order normalize case" in html


def test_each_file_in_its_own_format(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "score", GOLD, PIPELINE, "--min-score", "0.5", "-o", "json")
    result = json.loads(out)
    assert "| spans jsonl/hf-pipeline min-score 0.5 |" in result["signature"]
    assert result["notes"] == {"pred": {"predictions below min_score (dropped)": 1}}
    named = run(
        capsys,
        "score",
        GOLD,
        PIPELINE,
        "--gold-format",
        "jsonl",
        "--pred-format",
        "hf-pipeline",
        "--min-score",
        "0.5",
        "-o",
        "json",
    )
    assert json.loads(named) == result


def test_validate_reads_each_file_in_its_own_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "validate", GOLD, PIPELINE) == "valid: jsonl/hf-pipeline spans\n"
    assert main(["validate", GOLD, PIPELINE, "--format", "jsonl"]) == 1  # names both: entities unlike spans
    assert "unknown key 'entity'" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (["--min-score", "1.5"], "nerve: error: --min-score: expected a fraction in [0, 1], but got 1.5"),
        (
            ["--locate", "last"],
            "nerve: error: --locate: expected one of in-order, first, all, but got 'last'",
        ),
        (
            ["--normalize", "case,foo"],
            "nerve: error: --normalize: expected names among case, space, punct, nfkc",
        ),
        (
            ["--min-score", "0.5"],
            "nerve: error: --min-score: applies to hf-pipeline input, but the input reads as jsonl and "
            "entity-list",
        ),
        (["--format", "jsonl"], "; the file looks like entity-list, not jsonl"),
    ],
)
def test_bad_options(capsys: pytest.CaptureFixture[str], args: list[str], wanted: str) -> None:
    assert wanted in cli_error(capsys, "score", GOLD, LLM, *args)


@pytest.mark.parametrize(
    ("files", "fix"), [((GOLD, GOLD), "--pred-format"), ((GOLD,), "--format")], ids=["two files", "one file"]
)
def test_an_output_option_on_a_misread_file_names_the_option_that_names_its_format(
    capsys: pytest.CaptureFixture[str], files: tuple[str, ...], fix: str
) -> None:
    """Beside a gold file the predictions' format is --pred-format's; one file of both sides is --format's."""
    line = cli_error(capsys, "score", *files, "--min-score", "0.5")
    assert line == (
        "nerve: error: --min-score: applies to hf-pipeline input, but the input reads as jsonl "
        f"(a file sniffing misread: name its format with {fix})"
    )


def test_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    not_a_list = tmp_path / "e.jsonl"
    not_a_list.write_text(
        '{"text": "Ann", "entities": [["Ann", "PER"]]}\n{"text": "Bo", "entities": "Bo/PER"}\n'
    )
    line = cli_error(capsys, "score", GOLD, str(not_a_list))
    detail = "document 1 (line 2): expected a list of entities under \"entities\", got 'Bo/PER'"
    assert line == f"nerve: error: {not_a_list}:2: {detail}"
    scored = tmp_path / "p.json"
    scored.write_text(
        json.dumps([[{"entity_group": "PER", "score": 7, "word": "A", "start": 0, "end": 1}], []])
    )
    line = cli_error(capsys, "score", GOLD, str(scored))
    assert line == f"nerve: error: {scored}: document 0: entity 0: expected a score in [0, 1], got 7"
    conll = tmp_path / "g.conll"
    conll.write_text("Ann B-PER\n")
    line = cli_error(capsys, "score", str(conll), LLM)
    assert line.startswith(f"nerve: error: {LLM}: reads as entity-list, but the gold {conll} reads as conll")
    assert line.endswith("or name the format sniffing misread with --gold-format or --pred-format")


def test_a_gold_directory_and_a_prediction_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    brat, spans = str(ROOT / "docs" / "examples" / "brat"), str(tmp_path / "p.jsonl")
    assert main(["convert", brat, spans, "--to", "jsonl"]) == 0
    capsys.readouterr()
    line = cli_error(capsys, "score", brat, spans)  # a directory's files pair with another directory's
    assert line.endswith("; the file looks like jsonl, not brat: pass --pred-format jsonl"), line
    result = json.loads(run(capsys, "score", brat, spans, "--pred-format", "jsonl", "-o", "json"))
    assert "| spans brat/jsonl |" in result["signature"]
    assert result["exact"]["micro"]["f1"] == 1.0


MERKEL = {"id": "d1", "text": "Angela Merkel visited Paris on Monday."}
HUGGING = {"id": "d2", "text": "Hugging Face is based in New York City.", "entities": []}
PARIS = {"entity_group": "LOC", "score": 0.5, "word": "Paris", "start": 22, "end": 27}


def outputs(tmp_path: Path, entities: object) -> str:
    """The two documents of GOLD, the first with ``entities`` as given."""
    path = tmp_path / "pred.jsonl"
    path.write_text(json.dumps({**MERKEL, "entities": entities}) + "\n" + json.dumps(HUGGING) + "\n")
    return str(path)


@pytest.mark.parametrize(
    ("entities", "args", "wanted"),
    [
        (
            {"text": "Paris", "type": "LOC"},
            [],
            'expected a list of entities under "entities", got one entity, '
            "{'text': 'Paris', 'type': 'LOC'}: put it in a list",
        ),
        (PARIS, ["--pred-format", "hf-pipeline"], f"expected a list of entities, got {PARIS}"),
        ("Paris", [], 'expected a list under "entities", got str'),
    ],
    ids=["entity-list-one-entity", "hf-pipeline-one-entity", "a-string"],
)
def test_an_entity_list_that_is_not_a_list(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, entities: object, args: list[str], wanted: str
) -> None:
    pred = outputs(tmp_path, entities)
    assert (
        cli_error(capsys, "score", GOLD, pred, *args)
        == f"nerve: error: {pred}:1: document 0 (line 1): {wanted}"
    )


@pytest.mark.parametrize("score", [-0.1, 1.5, "0.9", True, None], ids=repr)
@pytest.mark.parametrize("grouped", [True, False], ids=["entity_group", "entity"])
def test_scores_outside_0_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, score: object, grouped: bool
) -> None:
    """Out of range, a string or a boolean: refused in both shapes (and ``null``: no score, read)."""
    entity = (
        {**PARIS, "score": score} if grouped else {**PARIS, "entity": "B-LOC", "index": 5, "score": score}
    )
    if not grouped:
        del entity["entity_group"]
    pred = outputs(tmp_path, [entity])
    if score is None:
        assert main(["score", GOLD, pred, "-o", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["exact"]["micro"]["tp"] == 1
        return
    for args in ([], ["--sweep"], ["--min-score", "0.5"]):
        line = cli_error(capsys, "score", GOLD, pred, *args)
        detail = f"entity 0: expected a score in [0, 1], got {score!r}"
        assert line == f"nerve: error: {pred}:1: document 0 (line 1): {detail}"


GROUPED = str(OUTPUTS / "pipeline-grouped.json")


@pytest.mark.parametrize(
    ("files", "args", "source", "fix"),
    [
        (
            (GOLD, GOLD),
            ("--pred-format", "entity-list"),
            f"{GOLD}:1",
            "jsonl, not entity-list: pass --pred-format jsonl",
        ),
        (
            (GOLD, GOLD),
            ("--pred-format", "hf-pipeline"),
            f"{GOLD}:1",
            "jsonl, not hf-pipeline: pass --pred-format jsonl",
        ),
        (
            (GOLD, LLM),
            ("--gold-format", "hf-pipeline"),
            f"{GOLD}:1",
            "jsonl, not hf-pipeline: pass --gold-format jsonl",
        ),
        (
            (GOLD, LLM),
            ("--gold-format", "entity-list"),
            f"{GOLD}:1",
            "jsonl, not entity-list: pass --gold-format jsonl",
        ),
        (
            (GOLD, LLM),
            ("--pred-format", "hf-pipeline"),
            f"{LLM}:1",
            "entity-list, not hf-pipeline: pass --pred-format entity-list",
        ),
        (
            (GOLD, LLM),
            ("--pred-format", "jsonl"),
            f"{LLM}:1",
            "entity-list, not jsonl: pass --pred-format entity-list",
        ),
        (
            (GOLD, PIPELINE),
            ("--pred-format", "entity-list"),
            f"{PIPELINE}:1",
            "hf-pipeline, not entity-list: pass --pred-format hf-pipeline",
        ),
        (
            (GOLD, GROUPED),
            ("--pred-format", "entity-list"),
            GROUPED,
            "hf-pipeline, not entity-list: pass --pred-format hf-pipeline",
        ),
        (
            (GOLD, GROUPED),
            ("--pred-format", "jsonl"),
            f"{GROUPED}: line 1",
            "hf-pipeline, not jsonl: pass --pred-format hf-pipeline",
        ),
        (
            (LLM, GOLD),
            ("--gold-format", "hf-pipeline"),
            f"{LLM}:1",
            "entity-list, not hf-pipeline: pass --gold-format entity-list",
        ),
    ],
)
def test_a_side_named_wrongly_is_fixed_by_its_own_option(
    capsys: pytest.CaptureFixture[str], files: tuple[str, str], args: tuple[str, str], source: str, fix: str
) -> None:
    line = cli_error(capsys, "score", *files, *args)
    assert line.startswith(f"nerve: error: {source}"), line
    assert line.endswith(f"; the file looks like {fix}"), line
    assert " --format " not in line  # the option that names both sides was not given
    assert "names the format of both" not in line


def test_format_named_for_both_and_one_side_named_apart(capsys: pytest.CaptureFixture[str]) -> None:
    both = ("--format", "hf-pipeline", "--gold-format", "jsonl")  # --format names the predictions' alone
    named = json.loads(run(capsys, "score", GOLD, PIPELINE, *both, "-o", "json"))
    assert "| spans jsonl/hf-pipeline |" in named["signature"]
    assert named["exact"] == json.loads(run(capsys, "score", GOLD, PIPELINE, "-o", "json"))["exact"]
    line = cli_error(capsys, "score", GOLD, LLM, *both)
    assert line.startswith(f"nerve: error: {LLM}:1: document 0 (line 1): entity 0: expected a string"), line
    assert line.endswith(
        "the file looks like entity-list, not hf-pipeline: pass --pred-format entity-list"
    ), line


@pytest.mark.parametrize(
    ("document", "detail"),
    [
        (
            {**MERKEL, "entities": {"text": "Paris", "type": "LOC"}},
            'expected a list of entities under "entities"',
        ),
        ({**MERKEL, "entities": [{"text": "Paris"}]}, "entity 0: expected a text (text, span"),
        ({"id": "d1", "entities": [["Paris", "LOC"]]}, 'expected the source text, a string, under "text"'),
        ({**MERKEL, "entities": [{**PARIS, "score": 1.5}]}, "entity 0: expected a score in [0, 1], got 1.5"),
        ({**MERKEL, "entities": [{**PARIS, "end": None}]}, 'entity 0: no "start" and "end" offsets'),
    ],
)
@pytest.mark.parametrize("blank", ["", "\n\n"])
def test_a_bad_document_alone_in_its_file_is_named_by_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, document: dict[str, object], detail: str, blank: str
) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(blank + json.dumps(document) + "\n")
    line = cli_error(capsys, "score", GOLD, str(path))
    where = len(blank) + 1
    assert line.startswith(f"nerve: error: {path}:{where}: document 0 (line {where}): {detail}"), line
