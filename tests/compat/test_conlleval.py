"""`nerve conlleval` against conlleval.pl: the shared reference outputs and a table of tricky cases."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

import nerve
from conftest import SHARED_DATA, shared_data_dir
from conlleval_cases import CASES, ConllevalCase
from nerve.compat import conlleval as conlleval


def run(args: list[str], data: bytes) -> tuple[bytes, int, bytes]:
    out, err = io.BytesIO(), io.BytesIO()
    status = conlleval.run(args, io.BytesIO(data), out, err)
    return out.getvalue(), status, err.getvalue()


def _reference_pairs() -> list[tuple[str, str]]:
    """(input, reference output) for every *.conlleval.out in ../shared/data, paths relative to it."""
    merged = "seqscore-fixtures/conll_merged_predictions"
    return [
        ("conll2000-chunking/output.txt", "conll2000-chunking/conlleval.out"),
        (
            "conll2000-chunking/explainaboard/test-conll00.gold-pred.txt",
            "conll2000-chunking/explainaboard/conlleval.out",
        ),
        *[
            (f"germeval2014/merged/{name}.gold-pred.txt", f"germeval2014/merged/{name}.conlleval.out")
            for name in (
                "germaner_trained_with_germeval_tested_on_germeval",
                "lstm_trained_with_germeval_tested_on_germeval-evaluatoready",
                "spacy_trained_with_germeval_tested_on_germeval",
                "stanford_trained_with_conll_tested_on_germeval",
                "stanford_trained_with_germeval_tested_on_germeval",
            )
        ],
        *[
            (f"{merged}/{name}.bio", f"seqscore-fixtures/conlleval-out/merged_{name}.conlleval.out")
            for name in ("correct1", "correct1_improper_sequence", "incorrect1", "incorrect1_nopredictions")
        ],
        *[
            (
                f"seqscore-fixtures/conlleval-out/{name}.gold-pred.txt",
                f"seqscore-fixtures/conlleval-out/{name}.conlleval.out",
            )
            for name in (
                "minimal_vs_correct1",
                "minimal_vs_incorrect1",
                "minimal_vs_incorrect_type_not_in_reference",
                "samples_reference_predicted",
            )
        ],
        *[
            (
                f"wikigold/predictions/spacy-en_core_web_sm-3.6.0.{labels}.gold-pred.txt",
                f"wikigold/predictions/spacy-en_core_web_sm-3.6.0.{labels}.conlleval.out",
            )
            for labels in ("conll-labels", "ontonotes-labels")
        ],
        (
            "wlp-wnut2020/predictions/baseline-crf/prediction.txt",
            "wlp-wnut2020/predictions/baseline-crf/prediction.conlleval.out",
        ),
        ("wlp-wnut2020/test-122docs.gold-pred.txt", "wlp-wnut2020/test-122docs.conlleval.out"),
        *[
            (f"wnut16/predictions/{name}.txt", f"wnut16/predictions/{name}.conlleval.out")
            for name in (
                "wnut16_CelmoWglove_lstmCrf_29275447_4533",
                "wnut16_CflairWglove_lstmCrf_27707443_4596",
            )
        ],
    ]


REFERENCES = _reference_pairs()


def test_every_reference_output_is_covered() -> None:
    data = shared_data_dir()
    found = {str(p.relative_to(data)) for p in data.rglob("*conlleval.out")}
    assert found == {ref for _, ref in REFERENCES}


@pytest.mark.parametrize(("source", "reference"), REFERENCES, ids=[ref for _, ref in REFERENCES])
def test_byte_identical_to_reference(source: str, reference: str) -> None:
    data = shared_data_dir()
    stdout, status, _ = run([], (data / source).read_bytes())
    assert status == 0
    assert stdout == (data / reference).read_bytes()


@pytest.mark.parametrize("case", [c for c in CASES if c.name != "args_file_argument"], ids=lambda c: c.name)
def test_tricky_case(case: ConllevalCase) -> None:
    stdout, status, stderr = run(list(case.args), case.input)
    assert (stdout, status) == (case.stdout, case.status)
    if status:
        assert stderr.count(b"\n") == 1  # one line on stderr


# Behaviours pinned on cases where only they change the output. Each stdout was produced by
# conlleval.pl 2004-01-26 under perl 5.36.0 (a copy that reproduces every case of conlleval_cases.py).
# fmt: off
PINNED_CASES = [
    # In the correct-chunk counting, `$guessedType ne $correctType` ends "correct so far" even when
    # neither side ends a chunk: after a "." tag a change of type ends nothing (endOfChunk skips
    # "O" and "."), so without that check the PER chunk would count as correct.
    ConllevalCase(
        name="type_mismatch_ends_correct",
        input=(
            b"a B-PER B-PER\n"
            b"b .-PER .-PER\n"
            b"c .-LOC .-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 0.\n"
            b"accuracy:  66.67%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # Perl's split drops trailing empty fields, with a regex delimiter too: the counts stay 3.
    ConllevalCase(
        name="regex_delimiter_trailing_fields",
        input=(
            b"a  B-PER B-PER  \n"
            b"b I-PER   I-PER \n"
            b"c O O\n"
        ),
        args=("-d", " +"),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # Every line ends with the delimiter: kept, the empty field would be the guessed tag.
    ConllevalCase(
        name="regex_delimiter_every_line_trailing",
        input=(
            b"a B-PER B-PER \n"
            b"b I-PER I-PER \n"
            b"c O B-LOC \n"
        ),
        args=("-d", "[ ]"),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  66.67%; precision:  50.00%; recall: 100.00%; FB1:  66.67\n"
            b"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    ConllevalCase(
        name="literal_delimiter_trailing_fields",
        input=(
            b"a,B-PER,B-PER,,\n"
            b"b,I-PER,I-PER,\n"
            b"c,O,O\n"
        ),
        args=("-d", ","),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
]
# fmt: on


@pytest.mark.parametrize("case", PINNED_CASES, ids=lambda c: c.name)
def test_pinned_case(case: ConllevalCase) -> None:
    assert run(list(case.args), case.input)[:2] == (case.stdout, case.status)


def test_reads_a_file_argument(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "example_docstart")
    path = tmp_path / "in.txt"
    path.write_bytes(case.input)
    out, err = io.BytesIO(), io.BytesIO()
    assert conlleval.run([str(path)], io.BytesIO(b""), out, err) == 0
    assert out.getvalue() == case.stdout
    assert conlleval.run([str(tmp_path / "missing.txt")], io.BytesIO(b""), out, err) == 2


def test_crlf_is_read_as_lf() -> None:
    """The one intended difference: conlleval.pl keeps the \\r on the guessed tag."""
    for case in CASES:
        if case.status == 0 and not case.args and b"\r" not in case.input:
            crlf = case.input.replace(b"\n", b"\r\n")
            assert run([], crlf)[:2] == (case.stdout, 0), case.name


def test_command_line_reads_stdin() -> None:
    case = next(c for c in CASES if c.name == "example_docstart")
    proc = subprocess.run(
        [sys.executable, "-m", "nerve", "conlleval", "-l"], input=case.input, capture_output=True, check=False
    )
    latex = next(c for c in CASES if c.name == "example_docstart_latex")
    assert (proc.stdout, proc.returncode) == (latex.stdout, 0)


# Cases that `nerve score` reads differently from conlleval.pl on purpose (it is not a drop-in):
# -X- lines are tokens, fields are split on runs of blanks, a tag must fit the scheme.
SCORE_CANNOT_READ = {
    "boundary_X_lines", "boundary_X_tags_not_O", "boundary_X_only_first_field", "boundary_X_alone_first_line",
    "boundary_X_alone_then_one_field", "boundary_X_alone_only", "boundary_X_count_mismatch",
    "bracket_tags", "bracket_tags_typed", "type_zero", "type_zero_vs_untyped", "empty_type_doubled",
    "empty_type_gold_only", "empty_type_pred_only", "s7_18_lowercase_prefix", "two_field_gold_X_boundary",
    "double_space_consistent", "double_space_empty_gold", "leading_space_consistent",
    "leading_space_hides_boundary",
    "o_without_raw_baseline",
}  # fmt: skip


def _conlleval_counts(data: bytes) -> tuple[int, int, int, dict[bytes, tuple[int, int, int]]]:
    _tokens, _correct_tags, counts, types = conlleval.evaluate(io.BytesIO(data), conlleval.ConllevalOptions())
    per_type = {}
    for i, name in enumerate(types):
        g = int(counts.gold[i]) if i < counts.gold.shape[0] else 0
        p = int(counts.pred[i]) if i < counts.pred.shape[0] else 0
        c = int(counts.correct[i]) if i < counts.correct.shape[0] else 0
        if g or p:
            per_type[name] = (g, p, c)
    return int(counts.gold.sum()), int(counts.pred.sum()), int(counts.correct.sum()), per_type


def _score_counts(result: nerve.Result) -> tuple[int, int, int, dict[bytes, tuple[int, int, int]]]:
    m = result.micro
    per_type = {name.encode(): (s.gold, s.predicted, s.tp) for name, s in result.per_type.items()}
    return m.gold, m.predicted, m.tp, per_type


@pytest.mark.parametrize(("source", "reference"), REFERENCES, ids=[ref for _, ref in REFERENCES])
def test_score_conlleval_repair_counts_equal_conlleval_on_references(source: str, reference: str) -> None:
    path = shared_data_dir() / source
    result = nerve.score(path, repair="conlleval")
    assert _score_counts(result) == _conlleval_counts(path.read_bytes())


SCORABLE = [c for c in CASES if not c.args and c.status == 0 and c.name not in SCORE_CANNOT_READ]


@pytest.mark.parametrize("case", SCORABLE, ids=lambda c: c.name)
def test_score_conlleval_repair_counts_equal_conlleval_on_cases(case: ConllevalCase, tmp_path: Path) -> None:
    path = tmp_path / "case.txt"
    path.write_bytes(case.input)
    result = nerve.score(path, repair="conlleval")
    assert _score_counts(result) == _conlleval_counts(case.input)


def test_scorable_cases_are_not_trivial() -> None:
    assert len(SCORABLE) >= 40
    assert SHARED_DATA.name == "data"
