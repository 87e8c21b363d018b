"""Every option's check (`nerve.options`): what it accepts, and the one wording of what it refuses.

The API spells options as Python names (``min_iou``), the ``nerve`` command as flags
(``--min-iou``); an option that applies only to some input is refused with what it needs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import nerve
from conftest import have
from nerve import options
from nerve.api import score_spans
from nerve.cli import main
from nerve.errors import NerveError, OptionError, SchemeError
from nerve.io.formats import check_offsets
from nerve.io.spans import SPAN_FORMATS
from nerve.model.counts import fbeta
from nerve.model.schemes import TagFormat
from nerve.results import Settings

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "news.conll"
GOLD = [["B-PER", "I-PER", "O", "B-LOC"]]
PRED = [["B-PER", "I-PER", "O", "O"]]


def refused(call: object, *args: object, **kwargs: object) -> OptionError:
    """The OptionError that ``call(*args, **kwargs)`` raises."""
    with pytest.raises(OptionError) as info:
        call(*args, **kwargs)  # type: ignore[operator]
    return info.value


def cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line that the command prints for a user's mistake (exit status 2)."""
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    assert err.startswith("nerve: error: ")
    return err[len("nerve: error: ") : -1]


# --------------------------------------------------------------------------- errors


def test_option_error_names_the_option_and_is_a_value_error() -> None:
    err = OptionError("beta", "expected a number > 0")
    assert (err.option, err.detail, str(err)) == (
        "beta",
        "expected a number > 0",
        "beta: expected a number > 0",
    )
    assert isinstance(err, NerveError)
    assert isinstance(err, ValueError)


def test_spelling_in_python_and_on_the_command_line() -> None:
    assert options.flag("min_iou") == "min_iou"
    assert options.setting("metrics", "exact,muc") == "metrics='exact,muc'"
    with options.command_line_names():
        assert options.flag("min_iou") == "--min-iou"
        assert options.flag("input_format") == "--format"
        assert options.setting("metrics", "exact,muc") == "--metrics exact,muc"
    assert options.flag("min_iou") == "min_iou"


# --------------------------------------------------------------------------- tags


def test_scheme() -> None:
    assert options.scheme("auto") is None
    assert options.scheme("AUTO") is None
    assert options.scheme("bio").name == "IOB2"  # type: ignore[union-attr]
    assert options.scheme("BIOES").name == "IOBES"  # type: ignore[union-attr]
    err = refused(options.scheme, "IOB3")
    assert isinstance(err, SchemeError)  # as before
    assert str(err) == (
        "scheme: expected one of auto, IO, IOB1, IOB2, IOE1, IOE2, IOBES, BILOU, BMES, BIO, BIOES, BIOLU, "
        "but got 'IOB3'"
    )
    for call in (nerve.score, nerve.validate):
        assert str(refused(call, GOLD, PRED, scheme="IOB3")) == str(err)
    assert str(refused(nerve.decode, ["B-X"], scheme="IOB3")) == str(err)


def test_tag_format_and_outside() -> None:
    assert options.tag_format(None) is None
    assert options.tag_format("auto") is None
    assert options.tag_format("B-X") == TagFormat("prefix", "-", "O")
    assert options.tag_format("X_B", "NONE") == TagFormat("suffix", "_", "NONE")
    assert options.tag_format("X") == TagFormat("bare", "-", "O")
    fmt = TagFormat("suffix", ".", "O")
    assert options.tag_format(fmt) is fmt
    err = refused(options.tag_format, "BX")
    assert isinstance(err, SchemeError)
    assert str(err) == "tag_format: expected a format like B-X, X-B, B_X or X (bare types), but got 'BX'"
    assert str(refused(nerve.score, GOLD, PRED, tag_format="BX")) == str(err)
    for tag in ("", "N O"):
        message = f"outside: expected a tag without spaces, such as O, but got {tag!r}"
        assert str(refused(options.outside, tag)) == message
        assert str(refused(nerve.score, GOLD, PRED, outside=tag)) == message


def test_repair() -> None:
    assert [options.repair(p) for p in options.REPAIR_POLICIES] == list(options.REPAIR_POLICIES)
    err = refused(options.repair, "lenient")
    assert isinstance(err, SchemeError)
    assert str(err) == "repair: expected one of begin, conlleval, discard, error, but got 'lenient'"
    assert str(refused(nerve.score, GOLD, PRED, repair="lenient")) == str(err)
    assert options.stream_repair("begin") == "begin"
    err = refused(options.stream_repair, "conlleval")
    assert isinstance(err, SchemeError)
    assert str(err) == (
        "repair: conlleval cannot stream: its state carries from one sentence to the next; "
        "use begin, discard or error"
    )
    assert str(refused(options.entity_repair, "conlleval", "decode entities")) == (
        "repair: conlleval cannot decode entities; use begin, discard or error"
    )
    assert str(refused(nerve.score, GOLD, PRED, repair="conlleval", metrics="muc")) == (
        "repair: conlleval cannot feed the muc metrics: its rules only count chunks; "
        "use begin, discard or error"
    )


# --------------------------------------------------------------------------- scores


def test_metric_families() -> None:
    assert options.metric_families("exact,muc") == ("exact", "muc")
    assert options.metric_families(" muc , ") == ("exact", "muc")
    assert options.metric_families(["muc", "exact"]) == ("exact", "muc")
    assert options.metric_families(()) == ("exact",)
    message = "metrics: expected metrics among exact, muc, but got bleu, rouge"
    assert str(refused(options.metric_families, "muc,bleu,rouge")) == message
    assert str(refused(nerve.score, GOLD, PRED, metrics="muc,bleu,rouge")) == message


def test_text_metrics() -> None:
    assert options.text_metrics("nerval,bow") == ("nerval", "bow")
    assert options.text_metrics(["boe"]) == ("boe",)
    assert str(refused(options.text_metrics, ["bleu"])) == (
        "metrics: expected metrics among ecer-ewer, nerval, bow, botw, boe, but got bleu"
    )


def test_matching() -> None:
    assert options.matching("greedy") == "greedy"
    message = "matching: expected one of optimal, greedy, but got 'best'"
    assert str(refused(options.matching, "best")) == message
    assert str(refused(nerve.score, GOLD, PRED, metrics="muc", matching="best")) == message


@pytest.mark.parametrize("value", [0.0, 0.3, 1, 1.0])
def test_fraction_accepts_zero_to_one(value: float) -> None:
    assert options.fraction(value, "threshold") == value


@pytest.mark.parametrize("value", [-0.1, 1.5, math.nan, math.inf, "0.5"])
def test_fraction_refuses_the_rest(value: float) -> None:
    assert str(refused(options.fraction, value, "threshold")) == (
        f"threshold: expected a fraction in [0, 1], but got {value}"
    )


def test_percentage_is_a_fraction_of_100() -> None:
    assert options.percentage(None, "nerval_threshold") is None
    assert [options.percentage(v, "nerval_threshold") for v in (0, 30, 100)] == [0.0, 0.3, 1.0]
    for value in (-1, 100.5, math.nan, "30"):
        assert str(refused(options.percentage, value, "nerval_threshold")) == (
            f"nerval_threshold: expected a percentage in [0, 100], but got {value}"
        )


def test_fraction_without_zero() -> None:
    assert options.fraction(None, "min_iou", zero=False) is None
    assert options.fraction(1.0, "min_iou", zero=False) == 1.0
    message = "min_iou: expected a fraction in (0, 1], but got 0"
    assert str(refused(options.fraction, 0, "min_iou", zero=False)) == message
    assert str(refused(nerve.score, GOLD, PRED, metrics="muc", min_iou=0)) == message
    assert str(refused(nerve.score, GOLD, PRED, metrics="muc", min_gold_share=2)) == (
        "min_gold_share: expected a fraction in (0, 1], but got 2"
    )


@pytest.mark.parametrize("value", [0, 0.0, -1.0, math.nan, -math.inf, "2"])
def test_beta_refuses_zero_negative_and_nan(value: float) -> None:
    message = f"beta: expected a number > 0 (inf for recall alone), but got {value}"
    assert str(refused(options.beta, value)) == message
    assert str(refused(nerve.score, GOLD, PRED, beta=value)) == message


def test_beta_zero_is_refused_for_spans_too(tmp_path: Path) -> None:
    span = {"start": 0, "end": 4, "label": "PER"}
    doc = {"text": "John lives in Paris", "gold": [span], "pred": [span]}
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    assert nerve.score(path).micro.f1 == 1.0
    message = "beta: expected a number > 0 (inf for recall alone), but got 0"
    assert str(refused(nerve.score, path, beta=0)) == message
    assert str(refused(score_spans, [[(0, 1, "X")]], [[(0, 1, "X")]], beta=0)) == message
    with pytest.raises(OptionError, match="beta"):
        Settings("IOB2", False, None, "O", "begin", beta=math.nan)


def test_beta_inf_is_recall_alone() -> None:
    assert options.beta(math.inf) == math.inf
    assert fbeta(0.25, 0.5, math.inf) == 0.5
    assert fbeta(0.0, 0.0, math.inf) == 0.0
    assert fbeta(1.0, 0.0, math.inf) == 0.0
    result = nerve.score([["B-X", "O", "B-Y"]], [["B-X", "B-Z", "O"]], beta=math.inf)
    assert result.micro.recall == 0.5
    assert result.micro.fbeta == 0.5
    assert result.per_type["Y"].fbeta == 0.0
    assert "beta inf" in result.signature


@pytest.mark.parametrize("beta", [1e300, 1.5e154, 1.7976931348623157e308])
def test_a_huge_beta_gives_its_limit_not_nan(beta: float) -> None:
    # Issue 25: --beta 1e300 squared overflowed, and inf / inf printed nan (invalid JSON).
    assert fbeta(0.25, 0.5, beta) == 0.5
    assert fbeta(0.0, 0.5, beta) == 0.0
    assert fbeta(0.0, 0.0, beta) == 0.0
    assert fbeta(1.0, 0.0, beta) == 0.0
    assert fbeta(0.25, 0.5, 1e150) == pytest.approx(0.5, rel=1e-12)  # continuous below the switch
    assert fbeta(0.25, 0.5, 1e-300) == 0.25  # a tiny beta is precision alone
    result = nerve.score([["B-X", "O", "B-Y"]], [["B-X", "B-Z", "O"]], beta=beta)
    assert result.micro.fbeta == result.micro.recall == 0.5
    assert result.per_type["Z"].fbeta == 0.0


@pytest.mark.parametrize("output", ["table", "json", "markdown", "csv", "latex"])
def test_cli_beta_1e300_scores_in_every_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    path = tmp_path / "m.conll"
    path.write_text("a B-X B-X\nb O B-Z\nc B-Y O\n", encoding="utf-8")
    assert main(["score", str(path), "--beta", "1e300", "--output", output]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "nan" not in out.lower()
    if output == "json":
        data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
        assert data["exact"]["micro"]["fbeta"] == data["exact"]["micro"]["recall"] == 0.5


def test_seqeval_drop_in_gives_the_limit_where_seqeval_overflows() -> None:
    from nerve.compat.seqeval.metrics.sequence_labeling import precision_recall_fscore_support

    gold, pred = [["B-X", "O", "B-Y"]], [["B-X", "B-Z", "O"]]
    f = precision_recall_fscore_support(gold, pred, beta=1e300)[2]
    assert f.tolist() == [1.0, 0.0, 0.0]  # X, Y, Z: recall where precision > 0, else 0
    _, r, f, _ = precision_recall_fscore_support(gold, pred, beta=1e300, average="micro")
    assert float(f) == float(r) == 0.5


# --------------------------------------------------------------------------- reading


def test_encoding() -> None:
    assert options.encoding("latin-1") == "latin-1"
    assert options.encoding("UTF8") == "UTF8"
    for name in ("rot13", "base64", "no-such-codec"):
        message = f"encoding: expected a text encoding such as utf-8 or latin-1, but got {name!r}"
        assert str(refused(options.encoding, name)) == message
        assert str(refused(nerve.score, EXAMPLE, encoding=name)) == message
        assert str(refused(nerve.validate, EXAMPLE, encoding=name)) == message


def test_offsets() -> None:
    assert check_offsets(None, "conll") is None
    assert check_offsets("token", "jsonl") == "token"
    assert (
        str(refused(check_offsets, "word", "json"))
        == "offsets: expected one of char, token, utf16, byte, but got 'word'"
    )
    message = (
        "offsets: applies to json, jsonl, doccano, spacy-jsonl and labelstudio span files, "
        "but the input reads as conll (set input_format='jsonl' if it is one)"
    )
    assert str(refused(check_offsets, "char", "conll")) == message
    assert str(refused(nerve.score, EXAMPLE, offsets="char")) == message
    assert "but the input reads as nereval" in str(refused(check_offsets, "char", "nereval"))


def test_input_format() -> None:
    assert str(refused(nerve.score, EXAMPLE, input_format="xml")) == (
        "input_format: expected one of " + ", ".join(("conll", "hf", *SPAN_FORMATS)) + ", but got 'xml'"
    )


# --------------------------------------------------------------------------- options for some input


MUC_ONLY = [
    ("min_iou", 0.5, "--min-iou", "0.5"),
    ("min_gold_share", 0.5, "--min-gold-share", "0.5"),
    ("matching", "greedy", "--matching", "greedy"),
    ("document_average", True, "--document-average", None),
]


@pytest.mark.parametrize(("name", "value", "flag", "arg"), MUC_ONLY)
def test_muc_options_need_muc(
    capsys: pytest.CaptureFixture[str], name: str, value: object, flag: str, arg: str | None
) -> None:
    err = refused(nerve.score, EXAMPLE, **{name: value})
    assert str(err) == f"{name}: applies to MUC scoring: add metrics='exact,muc'"
    assert nerve.score(EXAMPLE, metrics="exact,muc", **{name: value}).muc is not None
    args = ["score", str(EXAMPLE), flag, *([arg] if arg is not None else [])]
    assert cli_error(capsys, *args) == f"{flag}: applies to MUC scoring: add --metrics exact,muc"


def test_muc_defaults_count_as_not_given() -> None:
    options.muc_only(("exact",), {"matching": "optimal", "min_iou": None, "document_average": False})
    assert nerve.score(EXAMPLE, matching="optimal").muc is None


# --------------------------------------------------------------------------- the command's wording


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--beta", "0"], "--beta: expected a number > 0 (inf for recall alone), but got 0.0"),
        (["--beta", "nan"], "--beta: expected a number > 0 (inf for recall alone), but got nan"),
        (
            ["--encoding", "rot13"],
            "--encoding: expected a text encoding such as utf-8 or latin-1, but got 'rot13'",
        ),
        (["--metrics", "muc", "--min-iou", "2"], "--min-iou: expected a fraction in (0, 1], but got 2.0"),
        (["--metrics", "bleu"], "--metrics: expected metrics among exact, muc, but got bleu"),
        (
            ["--tag-format", "BX"],
            "--tag-format: expected a format like B-X, X-B, B_X or X (bare types), but got 'BX'",
        ),
        (
            ["--offsets", "char"],
            "--offsets: applies to json, jsonl, doccano, spacy-jsonl and labelstudio span files, "
            "but the input reads as conll "
            "(set --format jsonl if it is one)",
        ),
    ],
)
def test_command_spells_flags(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert cli_error(capsys, "score", str(EXAMPLE), *args) == message


def test_command_beta_inf(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(EXAMPLE), "--beta", "inf", "-o", "json"]) == 0
    micro = json.loads(capsys.readouterr().out)["exact"]["micro"]
    assert micro["fbeta"] == micro["recall"]


def test_command_lets_bugs_through(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a NerveError is a user's mistake; anything else keeps its traceback."""

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr("nerve.compiled.count", broken)
    with pytest.raises(ValueError, match="a bug"):
        main(["score", str(EXAMPLE)])


# --------------------------------------------------------------------------- every entry point

LABELS = ["O", "B-PER", "I-PER"]
# option, a bad value in Python, its flag and spelling on the command line, what is refused.
BAD_VALUES = [
    ("beta", -1.0, "--beta=-1.0", "expected a number > 0 (inf for recall alone), but got -1.0"),
    ("scheme", "BIOX", "--scheme=BIOX", "expected one of auto, IO, IOB1, IOB2, IOE1, IOE2, IOBES, "),
    ("tag_format", "BX", "--tag-format=BX", "expected a format like B-X, X-B, B_X or X (bare types), "),
    ("outside", "N O", "--outside=N O", "expected a tag without spaces, such as O, but got 'N O'"),
    ("repair", "lenient", "--repair=lenient", "expected one of begin, conlleval, discard, error, but got "),
]


def entry_points(option: str) -> list[object]:
    """Every Python entry point that takes ``option``: the API, streaming and the integrations."""
    from nerve.integrations.transformers import compute_metrics

    calls: list[object] = [
        lambda **kw: nerve.score(GOLD, PRED, **kw),
        lambda **kw: nerve.StreamingMetric(LABELS, **kw),
    ]
    if option != "beta":
        calls.append(lambda **kw: compute_metrics(LABELS, **kw))
    if option not in ("beta", "outside", "tag_format"):
        calls.append(lambda **kw: nerve.decode(["B-PER", "I-PER"], **kw))
    if not (have("torch") and have("torchmetrics")):  # the test-torch extra (CI installs it)
        return calls
    from nerve.integrations.torchmetrics import EntityScore

    return [*calls, lambda **kw: EntityScore(LABELS, **kw)]


@pytest.mark.parametrize(("option", "value", "flag", "detail"), BAD_VALUES)
def test_one_wording_through_every_entry_point(
    capsys: pytest.CaptureFixture[str], option: str, value: object, flag: str, detail: str
) -> None:
    errors = [refused(call, **{option: value}) for call in entry_points(option)]
    assert {(err.option, err.detail) for err in errors} == {(option, errors[0].detail)}
    assert errors[0].detail.startswith(detail)
    name, given = flag.split("=", 1)
    assert cli_error(capsys, "score", str(EXAMPLE), flag) == f"{name}: {errors[0].detail}"
    if option == "tag_format":
        assert str(refused(nerve.encode, [(0, 1, "PER")], 2, tag_format=value)) == str(errors[0])
    if option == "scheme":
        assert str(refused(nerve.encode, [(0, 1, "PER")], 2, scheme=value)) == str(errors[0])
    assert given == str(value)


def test_conlleval_cannot_decode_entities() -> None:
    assert str(refused(nerve.decode, ["B-PER"], repair="conlleval")) == (
        "repair: conlleval cannot decode entities: its rules only count chunks; use begin, discard or error"
    )
    assert str(refused(nerve.encode, [(0, 1, "PER")], 2, scheme="auto")) == (
        "scheme: encode needs a scheme to write, not auto"
    )


def test_the_choices_the_command_names_without_importing_arrays_are_the_readers_own() -> None:
    from nerve.io.tags.hf import SUBWORD_POLICIES
    from nerve.model.nesting import POLICIES

    assert options.FLATTEN_POLICIES == POLICIES
    assert options.SUBWORD_POLICIES == SUBWORD_POLICIES == ("first", "last", "majority", "all")


def test_the_output_names_the_command_lists_are_the_renderers() -> None:
    from nerve.report.renderers import RENDERERS

    assert tuple(RENDERERS) == options.OUTPUTS
