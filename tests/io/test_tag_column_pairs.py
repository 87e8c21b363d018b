"""Issue 25: the tag-column readers never score files that do not pair, and read every line end.

- HIPE and CoNLL-U prediction files must hold the gold file's tokens, sentences and documents
  (offsets count tokens: a missing row shifts every entity after it);
- CoNLL-U IDs are numbers, ranges or empty nodes, and a tag holds no ``=``;
- lone CR line ends (old Mac files) are line ends for every line-based reader;
- a misaligned CoNLL prediction file is reported at the first line that differs, with
  ``--ignore-tokens`` suggested only when the lines still pair.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from cli_errors import cli_error
from nerve.errors import InputError
from nerve.io.spans import validate_spans

HIPE_HEADER = (
    "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-FINE-METO\tNE-FINE-COMP\tNE-NESTED\t"
    "NEL-LIT\tNEL-METO\tMISC\n"
)
WORDS = [("John", "B-PER"), ("Smith", "I-PER"), ("lives", "O"), ("in", "O"), ("Paris", "B-LOC")]


def hipe(
    words: list[tuple[str, str]], docs: tuple[int, ...] = (0,), blank_after: tuple[int, ...] = ()
) -> str:
    """A HIPE file of ``words``; a document starts before each index of ``docs``."""
    out = HIPE_HEADER
    for i, (token, tag) in enumerate(words):
        if i in docs:
            out += f"# hipe2022:document_id = d{i}\n"
        out += f"{token}\t{tag}\tO\tO\tO\tO\tO\t_\t_\t_\n"
        if i in blank_after:
            out += "\n"
    return out


def conllu(
    words: list[tuple[str, str]], docs: tuple[int, ...] = (0,), blank_after: tuple[int, ...] = ()
) -> str:
    """A CoNLL-U file of ``words``; a document starts before each index of ``docs``."""
    out, n = "", 0
    for i, (token, tag) in enumerate(words):
        if i in docs:
            out += f"# newdoc id = d{i}\n"
        n += 1
        out += f"{n}\t{token}\t_\t_\t_\t_\t_\t_\t_\tNER={tag}\n"
        if i in blank_after:
            out += "\n"
            n = 0
    return out + "\n"


WRITERS = {"hipe": (hipe, "tsv", 3), "conllu": (conllu, "conllu", 2)}  # writer, suffix, first word's line


def pair(tmp_path: Path, fmt: str, gold: str, pred: str) -> tuple[str, str]:
    _, suffix, _ = WRITERS[fmt]
    g, p = tmp_path / f"g.{suffix}", tmp_path / f"p.{suffix}"
    g.write_text(gold, encoding="utf-8")
    p.write_text(pred, encoding="utf-8")
    return str(g), str(p)


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_a_prediction_without_its_last_row_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    write, _, first = WRITERS[fmt]
    g, p = pair(tmp_path, fmt, write(WORDS), write(WORDS[:-1]))
    line = cli_error(capsys, "score", g, p, "--format", fmt)
    assert f"{p}: ends after 4 tokens, but the gold file goes on at {g}:{first + 4} (document 0)" in line
    assert "'Paris'" in line
    assert "must hold the gold file's tokens, sentences and documents" in line
    with pytest.raises(InputError):
        nerve.score(g, p)


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_a_prediction_without_a_row_inside_names_that_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    write, _, first = WRITERS[fmt]
    g, p = pair(tmp_path, fmt, write(WORDS), write(WORDS[:2] + WORDS[3:]))
    line = cli_error(capsys, "score", g, p)
    assert f"{p}:{first + 2}: token 'in' where the gold file has 'lives' ({g}:{first + 2})" in line


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_a_prediction_with_a_row_more_is_refused(tmp_path: Path, fmt: str) -> None:
    write, _, first = WRITERS[fmt]
    g, p = pair(tmp_path, fmt, write(WORDS), write([*WORDS, ("x", "O")]))
    with pytest.raises(InputError, match="goes on with token 'x' after the gold file's 5 tokens") as err:
        nerve.score(g, p)
    assert (err.value.source, err.value.line) == (p, first + 5)


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_other_documents_or_sentences_are_refused(tmp_path: Path, fmt: str) -> None:
    write, _, _ = WRITERS[fmt]
    g, p = pair(tmp_path, fmt, write(WORDS, docs=(0, 2)), write(WORDS, docs=(0, 3)))
    with pytest.raises(InputError, match=r"token 'lives' is in document 0, but at .* it is in document 1"):
        nerve.score(g, p)
    g, p = pair(tmp_path, fmt, write(WORDS, blank_after=(1,)), write(WORDS, blank_after=(2,)))
    with pytest.raises(InputError, match=r"token 'lives' does not start a sentence, but at .* it does;"):
        nerve.score(g, p)


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_paired_files_still_score_and_validation_lists_the_misalignment(tmp_path: Path, fmt: str) -> None:
    write, _, _ = WRITERS[fmt]
    wrong = [(t, "O" if tag == "B-LOC" else tag) for t, tag in WORDS]
    g, p = pair(
        tmp_path,
        fmt,
        write(WORDS, docs=(0, 3), blank_after=(1,)),
        write(wrong, docs=(0, 3), blank_after=(1,)),
    )
    m = nerve.score(g, p).micro
    assert (m.tp, m.fp, m.fn) == (1, 0, 1)
    g, p = pair(tmp_path, fmt, write(WORDS), write(WORDS[1:]))
    problems = validate_spans(g, p, fmt=fmt)
    assert [e.source for e in problems] == [p]
    assert "token 'Smith' where the gold file has 'John'" in problems[0].detail


# ---------------------------------------------------------------------------------------------
# CoNLL-U: IDs and values


@pytest.mark.parametrize(
    ("cell", "what"),
    [
        ("x", "ID 'x' is not a word ID"),
        ("1-x", "ID '1-x'"),
        ("1.", "ID '1.'"),
        ("", "ID ''"),
        ("1a", "ID '1a'"),
    ],
)
def test_conllu_ids_that_are_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cell: str, what: str
) -> None:
    path = tmp_path / "c.conllu"
    path.write_text(conllu(WORDS).replace("\n2\tSmith", f"\n{cell}\tSmith"), encoding="utf-8")
    line = cli_error(capsys, "score", str(path), str(path))
    assert f"{path}:3: {what}" in line
    assert "a number (1), a range of words (1-2) or an empty node (1.1)" in line


def test_conllu_ranges_and_empty_nodes_are_still_skipped(tmp_path: Path) -> None:
    path = tmp_path / "c.conllu"
    body = conllu(WORDS).replace(
        "\n2\tSmith", "\n1-2\tJS\t_\t_\t_\t_\t_\t_\t_\t_\n1.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n2\tSmith"
    )
    path.write_text(body, encoding="utf-8")
    result = nerve.score(str(path), str(path))
    assert result.micro.tp == 2
    assert result.notes["gold"] == {"multiword tokens and empty nodes (skipped)": 2}


def test_conllu_value_with_a_second_equals_sign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.conllu"
    path.write_text(conllu(WORDS).replace("NER=I-PER", "NER=I-PER=X"), encoding="utf-8")
    line = cli_error(capsys, "score", str(path), str(path))
    assert (
        f"{path}:3: MISC 'NER=I-PER=X': the NER value 'I-PER=X' holds a second '='; expected NER=TAG" in line
    )


# ---------------------------------------------------------------------------------------------
# Lone CR line ends (old Mac files), for every line-based reader.

CONLL_GOLD = "John B-PER\nSmith I-PER\nlives O\n\nParis B-LOC\n"
CONLL_PRED = "John B-PER\nSmith O\nlives O\n\nParis B-LOC\n"
MERGED = "John B-PER B-PER\nSmith I-PER O\nlives O O\n\nParis B-LOC B-LOC\n"
TAGS_ONLY = "B-PER\nO\nO\n\nB-LOC\n"
PRED_WORDS = [(t, "O" if t == "Smith" else tag) for t, tag in WORDS]
LINE_FILES = {  # gold, pred (None: merged), arguments
    "conll-pairs": (CONLL_GOLD, CONLL_PRED, ()),
    "conll-merged": (MERGED, None, ()),
    "conll-tags-only": (CONLL_GOLD, TAGS_ONLY, ()),
    "hipe": (hipe(WORDS, blank_after=(2,)), hipe(PRED_WORDS, blank_after=(2,)), ("--format", "hipe")),
    "conllu": (conllu(WORDS, blank_after=(2,)), conllu(PRED_WORDS, blank_after=(2,)), ("--format", "conllu")),
}


def score_files(
    tmp_path: Path, name: str, gold: str, pred: str | None, args: tuple[str, ...]
) -> nerve.Result:
    g = tmp_path / f"{name}.g"
    g.write_bytes(gold.encode("utf-8"))
    p = None
    if pred is not None:
        p = tmp_path / f"{name}.p"
        p.write_bytes(pred.encode("utf-8"))
    fmt = args[1] if args else None
    return nerve.score(str(g), str(p) if p else None, input_format=fmt)


@pytest.mark.parametrize("name", list(LINE_FILES))
@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_lone_cr_and_crlf_line_ends(tmp_path: Path, name: str, end: str) -> None:
    gold, pred, args = LINE_FILES[name]
    expected = score_files(tmp_path, "lf", gold, pred, args)
    assert (expected.micro.tp, expected.micro.fp, expected.micro.fn) == (1, 1, 1)
    old_mac = score_files(
        tmp_path, "cr", gold.replace("\n", end), pred.replace("\n", end) if pred else None, args
    )
    assert old_mac.exact == expected.exact
    assert old_mac.documents == expected.documents


def test_lone_cr_line_ends_on_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    stream = io.BytesIO(MERGED.replace("\n", "\r").encode("utf-8"))
    result = nerve.score(stream)
    assert (result.micro.tp, result.micro.fp, result.micro.fn) == (1, 1, 1)
    assert result.sentences == 2


def test_lone_cr_lines_are_numbered_as_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.conllu"
    path.write_bytes(conllu(WORDS).replace("NER=I-PER", "NER=I-PER=X").replace("\n", "\r").encode("utf-8"))
    assert f"{path}:3: MISC" in cli_error(capsys, "score", str(path), str(path))


# ---------------------------------------------------------------------------------------------
# A misaligned CoNLL prediction file: the first line that differs, and a hint only where it helps.


def sentences(n: int) -> list[list[str]]:
    return [[f"w{s}_{i} {'B-PER' if i % 4 == 0 else 'O'}" for i in range(3 + s % 5)] for s in range(n)]


def write_lines(path: Path, sents: list[list[str]]) -> str:
    path.write_text("".join("\n".join(s) + "\n\n" for s in sents), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("at_end", [False, True])
def test_a_deleted_line_is_named_not_its_sentence_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], at_end: bool
) -> None:
    sents = sentences(30)
    gold = write_lines(tmp_path / "g.conll", sents)
    flat = [line for s in sents for line in [*s, ""]]
    k = len(flat) - 3 if at_end else 99  # line 100, or a line of the last sentence
    pred_sents = [list(s) for s in sents]
    pred_flat = flat[:k] + flat[k + 1 :]
    (tmp_path / "p.conll").write_text("\n".join(pred_flat) + "\n", encoding="utf-8")
    del pred_sents
    pred = str(tmp_path / "p.conll")
    line = cli_error(capsys, "score", gold, pred)
    assert f"{gold}:{k + 1}: does not match {pred}:{k + 1}:" in line
    assert "seems to lack this line" in line
    assert "--ignore-tokens" not in line


def test_ignore_tokens_is_suggested_only_when_the_lines_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sents = sentences(10)
    gold = write_lines(tmp_path / "g.conll", sents)
    renamed = [[line.replace("w3_1 ", "W3_1 ") for line in s] for s in sents]
    pred = write_lines(tmp_path / "p.conll", renamed)
    line = cli_error(capsys, "score", gold, pred)
    assert "'w3_1 O' vs 'W3_1 O'; the files must align line by line (use --ignore-tokens)" in line
    assert nerve.score(gold, pred, check_tokens=False).micro.f1 == 1.0
    shorter = [list(s) for s in renamed]
    del shorter[-1][-1]  # and a line missing at the end: no hint, the tags would not pair
    pred = write_lines(tmp_path / "q.conll", shorter)
    line = cli_error(capsys, "score", gold, pred)
    assert "'w3_1 O' vs 'W3_1 O'" in line
    assert "--ignore-tokens" not in line


def test_a_deleted_line_is_named_in_threads_too(tmp_path: Path) -> None:
    sents = sentences(4000)
    gold = write_lines(tmp_path / "g.conll", sents)
    flat = [line for s in sents for line in [*s, ""]]
    k = len(flat) // 3 + 5  # a line inside the first of three ranges
    while not flat[k]:
        k += 1
    (tmp_path / "p.conll").write_text("\n".join(flat[:k] + flat[k + 1 :]) + "\n", encoding="utf-8")
    pred = str(tmp_path / "p.conll")
    for workers in (1, 3):
        with pytest.raises(InputError, match="seems to lack this line") as err:
            nerve.score(gold, pred, workers=workers)
        assert (err.value.source, err.value.line) == (gold, k + 1)


# ---------------------------------------------------------------------------------------------
# A tags-only prediction file without the gold file's -DOCSTART- lines pairs sentence by sentence.

DOC_GOLD = (
    "-DOCSTART- -X- -X- O\n\nEU NNP B-NP B-ORG\nrejects VBZ B-VP O\n\nPeter NNP B-NP B-PER\n\n"
    "-DOCSTART- -X- -X- O\n\nParis NNP B-NP B-LOC\n\n-DOCSTART- -X- -X- O\nRome NNP B-NP B-LOC\n"
)
DOC_MERGED = (
    "-DOCSTART- O O\n\nEU B-ORG B-ORG\nrejects O O\n\nPeter B-PER O\n\n"
    "-DOCSTART- O O\n\nParis B-LOC B-LOC\n\n-DOCSTART- O O\nRome B-LOC B-PER\n"
)
PRED_TAGS = {"EU": "B-ORG", "rejects": "O", "Peter": "O", "Paris": "B-LOC", "Rome": "B-PER"}


def grep_v_docstart(text: str, tokens: bool) -> str:
    """What ``grep -v -- -DOCSTART-`` then a tagger make of a gold file: its blank lines stay."""
    out = []
    for line in text.split("\n")[:-1]:
        if line.startswith("-DOCSTART-"):
            continue
        word = line.split(" ")[0]
        out.append("" if not line else f"{word} {PRED_TAGS[word]}" if tokens else PRED_TAGS[word])
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("tokens", [False, True])
@pytest.mark.parametrize("block_bytes", [1, 9, 1 << 20])
def test_a_prediction_file_of_grep_v_docstart(tmp_path: Path, tokens: bool, block_bytes: int) -> None:
    from nerve.io.tags.conll import iter_conll
    from nerve.io.tags.conll_align import SENTENCES_NOTE

    gold = tmp_path / "g.conll"
    gold.write_text(DOC_GOLD, encoding="utf-8")
    pred = tmp_path / "p.conll"
    pred.write_text(grep_v_docstart(DOC_GOLD, tokens), encoding="utf-8")
    assert pred.read_text(encoding="utf-8").startswith("\n")  # a leading blank line, and double ones
    assert "\n\n\n" in pred.read_text(encoding="utf-8")
    merged = tmp_path / "m.conll"
    merged.write_text(DOC_MERGED, encoding="utf-8")
    blocks = list(iter_conll(str(gold), str(pred), block_bytes=block_bytes))
    expected = list(iter_conll(str(merged)))
    for name in ("sentence_start", "document_start"):
        got = [x for b in blocks for x in getattr(b, name).tolist()]
        assert got == [x for b in expected for x in getattr(b, name).tolist()]
    result = nerve.score(str(gold), str(pred))
    reference = nerve.score(str(merged))
    assert result.exact == reference.exact
    assert (result.documents, result.sentences) == (3, 4)
    assert result.notes == {"pred": {SENTENCES_NOTE: 3}}


def test_the_notes_say_it_in_every_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from nerve.cli import main

    gold = tmp_path / "g.conll"
    gold.write_text(DOC_GOLD, encoding="utf-8")
    pred = tmp_path / "p.conll"
    pred.write_text(grep_v_docstart(DOC_GOLD, False), encoding="utf-8")
    assert main(["score", str(gold), str(pred)]) == 0
    assert "lacks (aligned by sentences): 3" in capsys.readouterr().out
    assert main(["score", str(gold), str(pred), "--output", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert notes == {
        "pred": {"-DOCSTART- lines of the gold file the prediction file lacks (aligned by sentences)": 3}
    }


def test_sentences_must_still_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "g.conll"
    gold.write_text(DOC_GOLD, encoding="utf-8")
    pred = tmp_path / "p.conll"
    text = grep_v_docstart(DOC_GOLD, False)
    pred.write_text(text.replace("B-ORG\nO\n", "B-ORG\n\nO\n"), encoding="utf-8")  # a sentence cut in two
    line = cli_error(capsys, "score", str(gold), str(pred))
    assert f"{gold}:4: does not match {pred}:3: 'rejects VBZ B-VP O' vs ''" in line
    pred.write_text(text.replace("B-PER\n", "").replace("O\n\n\n", "O\n\n"), encoding="utf-8")
    with pytest.raises(InputError):
        nerve.score(str(gold), str(pred))


# ---------------------------------------------------------------------------------------------
# Each file's delimiter is sniffed: tab-separated files keep their empty fields.


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\tB-X\nb\tO\n", 9),
        ("a\tB-X\nb\t\n\n\tO\n", 9),  # an empty tag, an empty token
        ("-DOCSTART-\n\na\tx\tB-X\n#\tcomment\tline\tmore\n", 9),
        ("New York\tB-LOC\n", 9),  # spaces inside a field
        ("a B-X\nb O\n", None),
        ("a\tB-X\nb O\n", None),  # tabs on some lines only
        ("a\tx\tB-X\nb\tO\n", None),  # another number of tabs
        ("a \tB-X\n", None),  # aligned by hand: a space beside a tab
        ("a\tB-X \n", None),
        (" a\tB-X\n", None),
        ("a\tB-X\rb\tO\r", 9),
        ("", None),
    ],
)
def test_sniff_delimiter(text: str, expected: int | None) -> None:
    from nerve.io.tags.delimiters import sniff_delimiter

    assert sniff_delimiter(text.encode("utf-8")) == expected


def test_each_file_is_split_as_it_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "g.tsv"
    gold.write_text("John\tNNP\tB-PER\nSmith\tNNP\tI-PER\n\n/\t:\tO\nParis\tNNP\tB-LOC\n", encoding="utf-8")
    spaced = tmp_path / "a.txt"
    spaced.write_text("John  B-PER\nSmith  I-PER\n\n/  O\nParis  O\n", encoding="utf-8")
    tabbed = tmp_path / "b.tsv"
    tabbed.write_text("John\tB-PER\nSmith\t\n\n\tO\nParis\tB-LOC\n", encoding="utf-8")  # empty fields
    a = nerve.score(str(gold), str(spaced))
    assert (a.micro.tp, a.micro.fp, a.micro.fn) == (1, 0, 1)
    b = nerve.score(str(gold), str(tabbed), check_tokens=False)
    assert (b.micro.tp, b.micro.fp, b.micro.fn) == (1, 1, 1)  # Smith's empty tag is O
    assert b.tokens.count == 4
    line = cli_error(capsys, "score", str(gold), str(tabbed))
    assert "'/\\t:\\tO' vs '\\tO'" in line  # the empty token is a token that differs
    assert "(use --ignore-tokens)" in line
    with pytest.raises(InputError, match="--delimiter tab"):
        nerve.score(str(gold), str(tabbed), delimiter="whitespace", check_tokens=False)


def test_sniffing_in_threads(tmp_path: Path) -> None:
    gold, pred = [], []
    for s in range(3000):
        for i in range(6):
            tag = "B-PER" if i == 0 else "I-PER" if i == 1 else "O"
            gold.append(f"w{i}\tX\t{tag}")
            pred.append(f"w{i}\t" + ("" if (s + i) % 7 == 0 else tag))  # empty tags here and there
        gold.append("")
        pred.append("")
    g, p = tmp_path / "g.tsv", tmp_path / "p.tsv"
    g.write_text("\n".join(gold) + "\n", encoding="utf-8")
    p.write_text("\n".join(pred) + "\n", encoding="utf-8")
    one = nerve.score(str(g), str(p), workers=1)
    assert nerve.score(str(g), str(p), workers=3) == one
    assert one == nerve.score(str(g), str(p), workers=1, delimiter="tab")
    assert one.tokens.count == 18000


GERMEVAL_FB1 = {  # conlleval.pl's FB1 on the derived merged files
    "germaner_trained_with_germeval_tested_on_germeval": 69.85,
    "lstm_trained_with_germeval_tested_on_germeval-evaluatoready": 70.94,
    "spacy_trained_with_germeval_tested_on_germeval": 64.84,
    "stanford_trained_with_conll_tested_on_germeval": 49.95,
    "stanford_trained_with_germeval_tested_on_germeval": 71.31,
}


def test_the_real_germeval_outputs_in_one_run(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One space-separated, two tab-separated with empty tokens (Stanford), one with empty tags (spaCy)."""
    from nerve.cli import main

    base = shared_data / "germeval2014"
    gold = base / "NER-de-test-conll-formated.txt"
    preds = [base / "predictions" / f"{name}.tsv" for name in GERMEVAL_FB1]
    assert b"\t" not in preds[0].read_bytes()[:1000]
    for name, path in zip(GERMEVAL_FB1, preds, strict=True):
        result = nerve.score(gold, path, check_tokens=False)
        assert round(result.micro.f1 * 100, 2) == GERMEVAL_FB1[name]
        assert result.exact == nerve.score(base / "merged" / f"{name}.gold-pred.txt").exact
    args = ["compare", str(gold), *map(str, preds), "--ignore-tokens", "--bootstrap", "20"]
    assert main(args) == 0
    out = capsys.readouterr().out
    for fb1 in list(GERMEVAL_FB1.values())[1:]:
        assert f"{fb1:.2f}" in out


# ---------------------------------------------------------------------------------------------
# Property: in every tag-column format, a prediction file with a token row deleted or added is
# refused, never scored.

TOKENS = st.sampled_from(["a", "b", "the", "Paris", "-", "x"])
TAGS = st.sampled_from(["O", "O", "B-PER", "I-PER", "B-LOC"])
Corpus = list[list[list[tuple[str, str]]]]  # documents of sentences of (token, tag)


def write_corpus(fmt: str, docs: Corpus, docstart: bool = True) -> str:
    """``docs`` in ``fmt``: conll (token and tag), tags (the tag alone), hipe or conllu."""
    out = HIPE_HEADER if fmt == "hipe" else ""
    for d, doc in enumerate(docs):
        if fmt in ("conll", "tags") and docstart:
            out += "-DOCSTART- O\n\n" if fmt == "conll" else "-DOCSTART-\n\n"
        out += f"# hipe2022:document_id = d{d}\n" if fmt == "hipe" else ""
        out += f"# newdoc id = d{d}\n" if fmt == "conllu" else ""
        for sentence in doc:
            for i, (token, tag) in enumerate(sentence, start=1):
                out += {
                    "conll": f"{token} {tag}\n",
                    "tags": f"{tag}\n",
                    "hipe": f"{token}\t{tag}\tO\tO\tO\tO\tO\t_\t_\t_\n",
                    "conllu": f"{i}\t{token}\t_\t_\t_\t_\t_\t_\t_\tNER={tag}\n",
                }[fmt]
            out += "\n"
    return out


@st.composite
def corpora(draw: st.DrawFn) -> tuple[Corpus, Corpus]:
    """A gold corpus, and a prediction with the same tokens and its own tags."""
    words = st.lists(st.tuples(TOKENS, TAGS), min_size=1, max_size=5)
    gold = draw(st.lists(st.lists(words, min_size=1, max_size=3), min_size=1, max_size=3))
    pred = [[[(t, draw(TAGS)) for t, _ in s] for s in doc] for doc in gold]
    return gold, pred


@settings(max_examples=60, deadline=None)
@given(
    drawn=corpora(),
    fmt=st.sampled_from(["conll", "tags", "hipe", "conllu"]),
    add=st.booleans(),
    docstart=st.booleans(),
    where=st.integers(min_value=0),
    extra=st.tuples(TOKENS, TAGS),
)
def test_a_token_row_deleted_or_added_is_refused(
    drawn: tuple[Corpus, Corpus], fmt: str, add: bool, docstart: bool, where: int, extra: tuple[str, str]
) -> None:
    import copy
    import tempfile

    gold, pred = drawn
    changed = copy.deepcopy(pred)
    places = [(d, s, i) for d, doc in enumerate(pred) for s, sent in enumerate(doc) for i in range(len(sent))]
    d, s, i = places[where % len(places)]
    if add:
        changed[d][s].insert(i, extra)
    else:
        del changed[d][s][i]
    read_as = "conll" if fmt == "tags" else fmt
    with tempfile.TemporaryDirectory() as tmp:
        g, p, q = Path(tmp) / "g", Path(tmp) / "p", Path(tmp) / "q"
        g.write_text(write_corpus(read_as, gold), encoding="utf-8")
        p.write_text(write_corpus(fmt, pred, docstart), encoding="utf-8")
        q.write_text(write_corpus(fmt, changed, docstart), encoding="utf-8")
        assert nerve.score(str(g), str(p), input_format=read_as).documents == len(gold)  # they pair
        with pytest.raises(InputError):
            nerve.score(str(g), str(q), input_format=read_as)
