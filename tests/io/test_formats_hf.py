"""Hugging Face datasets made by the real `datasets` package, scored as the same tags given as lists."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerve
from conftest import peer
from nerve.cli import main
from nerve.errors import InputError, OptionError
from nerve.io.reader_options import ReaderOptions
from nerve.io.tags.hf import read_hf, words_from_subwords

datasets = peer("datasets")
pa = peer("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

datasets.disable_progress_bars()

NAMES = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
FEATURES = datasets.Features(
    {
        "tokens": datasets.Sequence(datasets.Value("string")),
        "ner_tags": datasets.Sequence(datasets.ClassLabel(names=NAMES)),
        "pred_tags": datasets.Sequence(datasets.Value("string")),
    }
)
SAFE = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def dataset(gold: list[list[int]], pred: list[list[int]] | None = None) -> object:
    pred = pred if pred is not None else gold
    return datasets.Dataset.from_dict(
        {
            "tokens": [[f"w{i}" for i in range(len(s))] for s in gold],
            "ner_tags": gold,
            "pred_tags": [[NAMES[t] for t in s] for s in pred],
        },
        features=FEATURES,
    )


def named(rows: list[list[int]]) -> list[list[str]]:
    return [[NAMES[t] for t in row] for row in rows]


def counts(result: nerve.Result) -> tuple[int, int, int, dict[str, tuple[int, int, int]]]:
    per = {k: (v.tp, v.fp, v.fn) for k, v in result.per_type.items()}
    return result.micro.tp, result.micro.fp, result.micro.fn, per


sentences = st.lists(st.lists(st.integers(0, len(NAMES) - 1), max_size=8), min_size=1, max_size=6)


@settings(max_examples=25, deadline=None, suppress_health_check=SAFE)
@given(data=st.data(), gold=sentences)
def test_saved_parquet_and_arrow_score_as_tag_lists(
    tmp_path: Path, data: st.DataObject, gold: list[list[int]]
) -> None:
    pred = [data.draw(st.lists(st.integers(0, 4), min_size=len(s), max_size=len(s))) for s in gold]
    g, p = dataset(gold, pred), dataset(pred)
    g.save_to_disk(str(tmp_path / "g"))
    p.save_to_disk(str(tmp_path / "p"))
    g.to_parquet(str(tmp_path / "g.parquet"))
    p.to_parquet(str(tmp_path / "p.parquet"))
    arrow = next((tmp_path / "g").glob("*.arrow"))
    expected = counts(nerve.score(named(gold), named(pred)))
    corpus = read_hf(tmp_path / "g", tmp_path / "p")
    assert (corpus.gold, corpus.pred) == ([s for s in named(gold) if s], [s for s in named(pred) if s])
    assert counts(nerve.score(str(tmp_path / "g"), str(tmp_path / "p"))) == expected
    assert counts(nerve.score(str(tmp_path / "g.parquet"), str(tmp_path / "p.parquet"))) == expected
    assert counts(nerve.score(str(arrow), str(tmp_path / "p.parquet"))) == expected
    assert counts(nerve.score(read_hf(tmp_path / "g.parquet", pred_column="pred_tags"))) == expected


def test_cli_columns_and_label_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = [[1, 2, 0, 3], [0, 3, 4]]
    pred = [[1, 2, 0, 0], [0, 3, 4]]
    table = pa.table({"tokens": [["a"] * 4, ["b"] * 3], "gold": gold, "tags": pred})  # no features
    pq.write_table(table, tmp_path / "t.parquet")
    names = ",".join(NAMES)
    path = str(tmp_path / "t.parquet")
    args = ["score", "--tag-column", "gold", "--label-names", names, "-o", "json"]
    renamed = tmp_path / "p.parquet"
    pq.write_table(table.rename_columns(["tokens", "x", "gold"]), renamed)
    assert main([*args, path, str(renamed)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["exact"]["micro"]["tp"], out["exact"]["micro"]["fp"], out["exact"]["micro"]["fn"]) == (
        2,
        0,
        1,
    )
    assert counts(
        nerve.score(path, str(renamed), reader=ReaderOptions(tag_column="gold", label_names=NAMES))
    ) == counts(nerve.score(named(gold), named(pred)))


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["score", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_bad_datasets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = dataset([[1, 2, 0], [3]])
    good.to_parquet(str(tmp_path / "g.parquet"))
    g = str(tmp_path / "g.parquet")
    err = fails(capsys, g, g, "--tag-column", "labels")
    assert (
        f"{g}: has no column 'labels'; its columns: ['tokens', 'ner_tags', 'pred_tags'] (use --tag-column)"
        in err
    )
    # an id outside the names, written by pyarrow under the dataset's own features
    table = pq.read_table(g)
    ids = pa.array([[1, 2, 0], [7]], type=table.schema.field("ner_tags").type)
    bad = table.set_column(1, "ner_tags", ids)
    pq.write_table(bad, tmp_path / "b.parquet")
    b = str(tmp_path / "b.parquet")
    assert f"{b}: row 1, token 0: tag id 7 is outside the 5 names of column 'ner_tags' (0..4)" in fails(
        capsys, b, b
    )
    pq.write_table(pa.table({"tokens": [["a"]], "ner_tags": [[1]]}), tmp_path / "n.parquet")
    n = str(tmp_path / "n.parquet")
    assert f"{n}: column 'ner_tags' holds ids: its features name no ClassLabel" in fails(capsys, n, n)
    assert "(use --label-names)" in fails(capsys, n, n)
    short = dataset([[1, 2], [3]])
    short.to_parquet(str(tmp_path / "s.parquet"))
    s = str(tmp_path / "s.parquet")
    assert (
        f"{s}: row 0: its tokens are not the gold's: they differ at token 2 (prediction vs gold: 2 vs 3"
        in fails(capsys, g, s)
    )
    short.remove_columns("tokens").to_parquet(str(tmp_path / "s.parquet"))  # no tokens to compare
    assert f"{s}: row 0: 2 predicted tags for 3 gold ones" in fails(capsys, g, s)
    pq.write_table(pa.table({"tokens": [["a", "b"]], "ner_tags": [[1]]}), tmp_path / "m.parquet")
    m = str(tmp_path / "m.parquet")
    assert f"{m}: row 0: has 2 tokens but 1 tag in 'ner_tags'" in fails(
        capsys, m, m, "--label-names", "O,B-X"
    )
    junk = tmp_path / "j.parquet"
    junk.write_bytes(b"not parquet at all")
    assert f"{junk}: cannot be read as a Parquet file" in fails(capsys, str(junk), g)
    dd = datasets.DatasetDict({"train": good, "test": good})
    dd.save_to_disk(str(tmp_path / "dd"))
    assert "holds the splits train, test: give one split's directory" in fails(capsys, str(tmp_path / "dd"))
    conll = str(Path(__file__).parents[2] / "examples" / "news.conll")
    assert "--tag-column: applies to Hugging Face datasets" in fails(capsys, conll, "--tag-column", "x")


def naive(labels: list[int], words: list[int | None], policy: str) -> list[int]:
    """A word's label, found with a loop: its sub-tokens' labels, skipping -100 and None."""
    per: dict[int, list[int]] = {}
    for label, word in zip(labels, words, strict=True):
        if word is not None and label != -100:
            per.setdefault(word, []).append(label)
    n = max((w for w in words if w is not None), default=-1) + 1
    out = []
    for w in range(n):
        seen = per[w]
        if policy == "first":
            out.append(seen[0])
        elif policy == "last":
            out.append(seen[-1])
        else:
            top = max(Counter(seen).values())
            out.append(next(x for x in seen if Counter(seen)[x] == top))
    return out


@st.composite
def subwords(draw: st.DrawFn) -> tuple[list[int], list[int | None]]:
    pieces = draw(st.lists(st.integers(1, 4), max_size=8))  # sub-tokens of each word
    words: list[int | None] = [None]
    for w, k in enumerate(pieces):
        words.extend([w] * k)
    words.append(None)
    labels = [draw(st.sampled_from([-100, 0, 1, 2])) for _ in words]
    for w in range(len(pieces)):  # every word keeps one labelled sub-token
        i = words.index(w) + draw(st.integers(0, pieces[w] - 1))
        labels[i] = draw(st.integers(0, 2))
    return labels, words


@settings(max_examples=300, deadline=None)
@given(case=subwords(), policy=st.sampled_from(["first", "last", "majority"]))
def test_words_from_subwords_against_a_loop(case: tuple[list[int], list[int | None]], policy: str) -> None:
    labels, words = case
    assert words_from_subwords(labels, words, policy).tolist() == naive(labels, words, policy)
    as_array = np.asarray([-1 if w is None else w for w in words])
    assert words_from_subwords(np.asarray(labels), as_array, policy).tolist() == naive(labels, words, policy)


def test_model_outputs_with_word_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = [[1, 2, 0], [3, 0]]
    words: list[list[int | None]] = [[None, 0, 0, 1, 2, 2, None], [None, 0, 0, 1]]
    labels = [[-100, 1, 2, 2, 0, 2, -100], [-100, 0, 3, 0]]  # ids of NAMES, one a sub-token
    dataset(gold).save_to_disk(str(tmp_path / "g"))
    outputs = datasets.Dataset.from_dict({"ner_tags": labels, "word_ids": words})
    outputs.to_parquet(str(tmp_path / "o.parquet"))
    for policy in ("first", "last", "majority"):
        pred = [words_from_subwords(lab, w, policy).tolist() for lab, w in zip(labels, words, strict=True)]
        corpus = read_hf(tmp_path / "g", tmp_path / "o.parquet", subwords=policy)
        assert corpus.pred == named(pred)
        expected = counts(nerve.score(named(gold), named(pred)))
        assert (
            main(
                [
                    "score",
                    str(tmp_path / "g"),
                    str(tmp_path / "o.parquet"),
                    "--subwords",
                    policy,
                    "-o",
                    "json",
                ]
            )
            == 0
        )
        micro = json.loads(capsys.readouterr().out)["exact"]["micro"]
        assert (micro["tp"], micro["fp"], micro["fn"]) == expected[:3]
    assert read_hf(tmp_path / "g", tmp_path / "o.parquet").pred == named([[1, 2, 0], [0, 0]])  # first
    masked = datasets.Dataset.from_dict(
        {"ner_tags": [[1, -100, 0, 0], [0, 3, 0]], "word_ids": [[0, 1, 2, 2], [0, 0, 1]]}
    )
    masked.to_parquet(str(tmp_path / "m.parquet"))
    err = fails(capsys, str(tmp_path / "g"), str(tmp_path / "m.parquet"))
    assert "m.parquet: row 0: word 1 has no sub-token with a label (all are -100) (use --subwords)" in err
    g = str(tmp_path / "g")
    assert f"--subwords: applies to predictions with a word_ids column, and {g} has none" in fails(
        capsys, g, g, "--subwords", "last"
    )


def test_words_from_subwords_refuses() -> None:
    assert words_from_subwords([5, 6, 6, 7], [0, 0, 1, 1], "majority").tolist() == [5, 6]  # tie: earliest
    with pytest.raises(InputError, match="word 1 has no sub-token with a label"):
        words_from_subwords([1, -100], [0, 1], "first")
    with pytest.raises(OptionError, match="expected one of first, last, majority"):
        words_from_subwords([1], [0], "all")
    with pytest.raises(OptionError, match="expected 2 word ids"):
        words_from_subwords([1, 2], [0], "first")


def test_validate_reads_datasets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dataset([[1, 2], [0, 2]]).to_parquet(str(tmp_path / "g.parquet"))  # row 1: O then I-PER
    g = str(tmp_path / "g.parquet")
    assert main(["validate", g]) == 1
    out = capsys.readouterr().out
    assert f"{g}:2: gold: invalid transition 'O' -> 'I-PER'" in out
    assert out.endswith("1 invalid transition: scheme IOB2 (auto)\n")


def test_a_missing_library_is_named_with_its_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    from nerve.io.tags.hf import read_hf

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a)
    )
    path = tmp_path / "g.parquet"
    path.write_bytes(b"")
    with pytest.raises(nerve.InputError, match=r"reading it needs pyarrow: pip install pyarrow"):
        read_hf(path)


def test_validate_takes_the_tag_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = str(tmp_path / "g.parquet")
    dataset([[1, 2], [0, 2]]).rename_column("ner_tags", "labels").to_parquet(g)
    assert main(["validate", g, "--tag-column", "labels"]) == 1
    assert f"{g}:2: gold: invalid transition 'O' -> 'I-PER'" in capsys.readouterr().out
    assert main(["validate", g]) == 2  # no ner_tags column: refused, naming the option
    assert "--tag-column" in capsys.readouterr().err
    assert main(["validate", g, "--tag-column", "labels", "--misc-key", "ner"]) == 2
    assert capsys.readouterr().err.strip() == "nerve: error: --column: does not apply to hf input"


def naive_all(gold: list[int], labels: list[int], words: list[int | None]) -> tuple[list[str], list[str]]:
    """``--subwords all`` as Hugging Face's run_ner.py scores ``label_all_tokens``, one sub-token at a time:
    every sub-token with a word and a label, the word's gold tag on it, ``B-X`` as ``I-X`` after the
    word's first (``b_to_i_label``)."""
    g, p, seen = [], [], set()
    for label, w in zip(labels, words, strict=True):
        if w is None or label == -100:
            continue
        tag = NAMES[gold[w]]
        if w in seen and tag.startswith("B-") and "I-" + tag[2:] in NAMES:
            tag = "I-" + tag[2:]
        seen.add(w)
        g.append(tag)
        p.append(NAMES[label])
    return g, p


@st.composite
def subword_rows(draw: st.DrawFn) -> tuple[list[list[int]], list[list[int]], list[list[int | None]]]:
    rows = draw(st.lists(subwords(), min_size=1, max_size=4))
    gold = [
        [
            draw(st.integers(0, len(NAMES) - 1))
            for _ in range(max((w for w in ws if w is not None), default=-1) + 1)
        ]
        for _, ws in rows
    ]
    return gold, [labels for labels, _ in rows], [ws for _, ws in rows]


@settings(max_examples=40, deadline=None, suppress_health_check=SAFE)
@given(case=subword_rows())
def test_subwords_all_scores_every_labelled_subtoken(
    tmp_path_factory: pytest.TempPathFactory,
    case: tuple[list[list[int]], list[list[int]], list[list[int | None]]],
) -> None:
    gold, labels, words = case
    d = tmp_path_factory.mktemp("all")
    dataset(gold).to_parquet(str(d / "g.parquet"))
    outputs = datasets.Dataset.from_dict(
        {"ner_tags": labels, "word_ids": words},
        features=datasets.Features(
            {
                "ner_tags": datasets.Sequence(datasets.Value("int64")),
                "word_ids": datasets.Sequence(datasets.Value("int64")),
            }
        ),
    )
    outputs.to_parquet(str(d / "o.parquet"))
    expected = [naive_all(g, lab, w) for g, lab, w in zip(gold, labels, words, strict=True)]
    corpus = read_hf(d / "g.parquet", d / "o.parquet", subwords="all")
    assert corpus.gold == [g for g, _ in expected if g]  # a row without words is no sentence
    assert corpus.pred == [p for _, p in expected if p]
    result = nerve.score(str(d / "g.parquet"), str(d / "o.parquet"), reader=ReaderOptions(subwords="all"))
    assert counts(result) == counts(nerve.score([g for g, _ in expected], [p for _, p in expected]))


def test_subwords_all_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One word of two sub-tokens, B-PER: gold B-PER I-PER; a model that tagged B-PER B-PER is wrong."""
    dataset([[1, 0]]).to_parquet(str(tmp_path / "g.parquet"))
    outputs = datasets.Dataset.from_dict(
        {"ner_tags": [[-100, 1, 1, 0, -100]], "word_ids": [[None, 0, 0, 1, None]]}
    )
    outputs.to_parquet(str(tmp_path / "o.parquet"))
    args = ["score", str(tmp_path / "g.parquet"), str(tmp_path / "o.parquet"), "-o", "json"]
    assert main([*args, "--subwords", "all"]) == 0
    micro = json.loads(capsys.readouterr().out)["exact"]["micro"]
    assert (micro["tp"], micro["fp"], micro["fn"]) == (0, 2, 1)
    assert main([*args, "--subwords", "first"]) == 0  # the same outputs, aggregated to words: right
    micro = json.loads(capsys.readouterr().out)["exact"]["micro"]
    assert (micro["tp"], micro["fp"], micro["fn"]) == (1, 0, 0)
