"""The streaming metric: ids, arrays and tensors against `nerve.score`, batch splits, merging, bad input."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerve
from conftest import need
from nerve import InputError, InvalidSequenceError, NerveError, StreamingMetric

torch = need("torch")  # the tensor path

LABELS = {
    "IOB2": ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"],
    "IOBES": ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC"],
    "BILOU": ["O", "B-PER", "I-PER", "L-PER", "U-PER", "B-LOC", "I-LOC", "L-LOC", "U-LOC"],
    "IOE2": ["O", "I-PER", "E-PER", "I-LOC", "E-LOC"],
}


def random_batch(rnd: random.Random, labels: list[str], rows: int, width: int) -> tuple[Any, Any, Any]:
    """Gold and predicted ids with padding after each row's length and -100 sub-word marks."""
    n = len(labels)
    gold = np.full((rows, width), -100, dtype=np.int64)
    pred = np.array([[rnd.randrange(n) for _ in range(width)] for _ in range(rows)], dtype=np.int64)
    lengths = np.array([rnd.randint(0, width) for _ in range(rows)], dtype=np.int64)
    for r in range(rows):
        for c in range(int(lengths[r])):
            gold[r, c] = -100 if rnd.random() < 0.15 else rnd.randrange(n)
            if rnd.random() < 0.5:
                pred[r, c] = gold[r, c] if gold[r, c] >= 0 else pred[r, c]
    return gold, pred, lengths


def decoded(gold: Any, pred: Any, lengths: Any, labels: list[str]) -> tuple[list[list[str]], list[list[str]]]:
    """The tag strings of the positions that count: within the length and gold not -100."""
    g_rows, p_rows = [], []
    for r in range(gold.shape[0]):
        keep = [c for c in range(int(lengths[r])) if gold[r, c] != -100]
        g_rows.append([labels[gold[r, c]] for c in keep])
        p_rows.append([labels[pred[r, c]] for c in keep])
    return g_rows, p_rows


def same(a: nerve.Result, b: nerve.Result) -> None:
    """Equal results but for the number of documents (a stream has none)."""
    da, db = a.to_dict(), b.to_dict()
    da.pop("documents", None)
    db.pop("documents", None)
    assert da == db


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(LABELS)),
    st.sampled_from(["begin", "discard"]),
    st.integers(0, 10**6),
    st.integers(1, 4),
)
def test_ids_equal_score_on_strings_and_batches_split_freely(
    scheme: str, repair: str, seed: int, parts: int
) -> None:
    rnd = random.Random(seed)
    labels = LABELS[scheme]
    gold, pred, lengths = random_batch(rnd, labels, rnd.randint(1, 12), rnd.randint(1, 9))
    one = StreamingMetric(labels, scheme=scheme, repair=repair)
    one.update(gold, pred, lengths)
    g, p = decoded(gold, pred, lengths, labels)
    same(one.compute(), nerve.score(g, p, scheme=scheme, repair=repair))
    # Any split into batches, numpy or torch, narrowed to the longest row or not.
    cuts = sorted(rnd.sample(range(1, gold.shape[0]), min(parts - 1, gold.shape[0] - 1)))
    # Tensors on the CPU go through numpy, or through the tensor decoder with device_decode.
    split = StreamingMetric(labels, scheme=scheme, repair=repair, device_decode=rnd.choice([None, True]))
    split.flush_tokens = rnd.choice([1, 7, 10**6])  # buffers decoded at any point
    for lo, hi in zip([0, *cuts], [*cuts, gold.shape[0]], strict=True):
        width = int(lengths[lo:hi].max(initial=0))
        g_b, p_b, l_b = gold[lo:hi, :width], pred[lo:hi, :width], lengths[lo:hi]
        if rnd.random() < 0.5:
            split.update(torch.as_tensor(g_b), torch.as_tensor(p_b), torch.as_tensor(l_b))
        else:
            split.update(g_b.tolist(), p_b.tolist(), l_b.tolist())
    assert split.compute() == one.compute()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(LABELS)), st.sampled_from(["begin", "discard", "auto"]), st.integers(0, 10**6))
def test_torch_path_equals_numpy_path(scheme: str, repair: str, seed: int) -> None:
    rnd = random.Random(seed)
    labels = LABELS[scheme]
    gold, pred, lengths = random_batch(rnd, labels, rnd.randint(1, 10), rnd.randint(1, 12))
    use_lengths = rnd.random() < 0.5
    kwargs: dict[str, Any] = {"scheme": scheme if repair != "auto" else "auto"}
    kwargs["repair"] = "begin" if repair == "auto" else repair
    a, b = StreamingMetric(labels, **kwargs), StreamingMetric(labels, device_decode=True, **kwargs)
    a.update(gold, pred, lengths if use_lengths else None)
    b.update(torch.as_tensor(gold), torch.as_tensor(pred), torch.as_tensor(lengths) if use_lengths else None)
    for side in ("gold_table", "pred_table"):
        ta, tb = getattr(a.accumulator, side), getattr(b.accumulator, side)
        assert ta.codes.tolist() == tb.codes.tolist()
        n = len(a.vocab)
        assert [np.pad(t.tags, (0, n - len(t.tags))).tolist() for t in (ta, tb)] == [ta.tags.tolist()] * 2
    assert a.compute() == b.compute()


def test_tensor_path_counts_sentences_and_tokens_as_score() -> None:
    from nerve.integrations.torchmetrics import EntityScore

    rnd = random.Random(11)
    labels = LABELS["IOB2"]
    numpy_path = StreamingMetric(labels)
    tensor_paths = [StreamingMetric(labels, device_decode=True) for _ in range(2)]
    tensor_paths[1].flush_tokens = 5  # decoded in several groups
    entity_score = EntityScore(labels)
    all_gold: list[list[str]] = []
    all_pred: list[list[str]] = []
    for width in (6, 6, 9, 4):
        gold, pred, lengths = random_batch(rnd, labels, 7, width)
        gold[0, :] = -100  # rows with nothing to count are no sentences
        lengths[1] = 0
        numpy_path.update(gold, pred, lengths)
        tensors = (torch.as_tensor(gold), torch.as_tensor(pred), torch.as_tensor(lengths))
        for metric in tensor_paths:
            metric.update(*tensors)
        entity_score.update(tensors[1], tensors[0], tensors[2])
        g, p = decoded(gold, pred, lengths, labels)
        all_gold += g
        all_pred += p
    scored = nerve.score(all_gold, all_pred)
    sentences = sum(1 for row in all_gold if row)
    assert 0 < sentences < len(all_gold)
    assert (scored.sentences, scored.tokens.count) == (sentences, sum(map(len, all_gold)))
    numpy_result = numpy_path.compute()
    for result in [metric.compute() for metric in tensor_paths] + [entity_score.result()]:
        assert result.sentences == numpy_result.sentences == scored.sentences
        assert result.tokens == numpy_result.tokens == scored.tokens
        assert result.documents == numpy_result.documents == 0  # a stream has no documents


@pytest.mark.skipif(
    not torch.cuda.is_available(), reason="no CUDA device here; the CPU tensor path is tested"
)
@pytest.mark.parametrize("scheme", sorted(LABELS))
def test_cuda_path_equals_numpy_path(scheme: str) -> None:
    rnd = random.Random(7)
    labels = LABELS[scheme]
    for repair in ("begin", "discard"):
        a, b = (
            StreamingMetric(labels, scheme=scheme, repair=repair),
            StreamingMetric(labels, scheme=scheme, repair=repair),
        )
        for _ in range(20):
            gold, pred, lengths = random_batch(rnd, labels, 32, 40)
            a.update(gold, pred, lengths)
            b.update(
                torch.as_tensor(gold).cuda(), torch.as_tensor(pred).cuda(), torch.as_tensor(lengths).cuda()
            )
        assert a.compute() == b.compute()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_merge_and_pickle_equal_one_pass(seed: int) -> None:
    rnd = random.Random(seed)
    labels = LABELS["IOB2"]
    batches = [
        random_batch(rnd, labels, rnd.randint(1, 6), rnd.randint(1, 8)) for _ in range(rnd.randint(1, 5))
    ]
    whole = StreamingMetric(labels)
    left, right = StreamingMetric(labels), StreamingMetric(labels)
    for i, (g, p, n) in enumerate(batches):
        whole.update(g, p, n)
        (left if i % 2 else right).update(g, p, n)
    merged = pickle.loads(pickle.dumps(left)).merge(pickle.loads(pickle.dumps(right)))
    assert merged.compute() == whole.compute()
    whole.reset()
    assert whole.compute().micro.gold == 0


def test_tag_strings_id2label_and_suffix_labels() -> None:
    m = StreamingMetric()
    m.update([["B-PER", "I-PER", "O"], ["B-LOC"]], [["B-PER", "I-PER", "O"], ["O"]])
    r = m.compute()
    assert (r.micro.tp, r.micro.fn, r.micro.fp) == (1, 1, 0)
    hf = StreamingMetric(labels={0: "O", 1: "B-PER", 2: "I-PER"})
    hf.update([[1, 2, -100, 0]], [[1, 2, 2, 0]])
    assert hf.compute().micro.f1 == 1.0
    suffix = StreamingMetric(labels=["O", "PER-B", "PER-I"], tag_format="X-B")
    suffix.update([[1, 2, 0]], [[1, 0, 0]])
    assert suffix.compute().micro.tp == 0


@pytest.mark.parametrize("device_decode", [None, True])
def test_bad_batches_name_the_position(device_decode: bool | None) -> None:
    labels = LABELS["IOB2"]
    m = StreamingMetric(labels, device_decode=device_decode)
    good = np.zeros((2, 3), dtype=np.int64)
    cases = [
        ((good, np.zeros((2, 4), dtype=np.int64), None), "expected shape (2, 3)"),
        ((good, np.zeros((2, 3, 7)), None), "argmax"),
        ((good, good, [3, 4]), "row 1: length 4 is not within 0..3"),
        ((good, good, [3]), "lengths: expected shape (2,)"),
        (
            (good, np.array([[0, 0, 0], [0, 9, 0]]), None),
            "row 1, position 1: predicted id 9 is not in the label list (0..6)",
        ),
        ((np.array([[0, -1, 0], [0, 0, 0]]), good, None), "row 0, position 1: gold id -1"),
        (
            (good, np.array([[0, 0, 0], [-3, 0, 0]], dtype=np.int8), None),
            "row 1, position 0: predicted id -3",
        ),
        ((good, good.astype(np.float32), None), "expected integers"),
        (([[0, 1], [0]], [[0, 1], [0]], None), "rows of different lengths"),
    ]
    for (g, p, n), message in cases:
        forms = [(g, p)] if isinstance(g, list) else [(g, p), (torch.as_tensor(g), torch.as_tensor(p))]
        for g_in, p_in in forms:

            def attempt(g_in: Any = g_in, p_in: Any = p_in, n: Any = n) -> None:
                m.update(g_in, p_in, n)
                m.compute()  # tensors are checked when their buffer is decoded

            with pytest.raises(InputError) as info:
                attempt()
            m.reset()
            assert message in str(info.value), (message, str(info.value))
            assert str(info.value).startswith("batch ")
    # Padding after the length is never looked at, whatever it holds.
    m.update(good, np.array([[0, 0, 99], [0, 0, 0]]), [2, 3])
    assert m.compute().tokens.count == 5


def test_devices_must_agree() -> None:
    m = StreamingMetric(LABELS["IOB2"])
    with pytest.raises(InputError, match="are on meta, but the gold ids are on cpu"):
        m.update(torch.zeros((1, 2), dtype=torch.long), torch.zeros((1, 2), dtype=torch.long, device="meta"))


def test_error_policy_names_batch_row_and_position() -> None:
    labels = LABELS["IOB2"]
    for convert, device_decode in ((np.asarray, None), (torch.as_tensor, None), (torch.as_tensor, True)):
        m = StreamingMetric(labels, repair="error", device_decode=device_decode)
        assert m.scheme is not None
        assert m.scheme.name == "IOB2"  # from the label list's letters
        m.update(convert(np.array([[1, 2, 0]])), convert(np.array([[1, 2, 0]])))
        with pytest.raises(InvalidSequenceError) as info:
            m.update(convert(np.array([[0, 0, 0], [1, 2, 0]])), convert(np.array([[0, 0, 0], [0, 0, 2]])))
        problem = info.value.problems[0]
        assert (problem.source, problem.line, problem.side) == ("batch 1, row 1", 2, "pred")
        assert m.compute().micro.tp == 1  # the bad batch added nothing


@pytest.mark.parametrize("device_decode", [None, True, False])
def test_where_tensors_are_decoded_and_buffers_are_copies(device_decode: bool | None) -> None:
    """Every choice of decoder counts the same, and reusing a tensor after update changes nothing."""
    labels = LABELS["IOBES"]
    rnd = random.Random(3)
    batches = [random_batch(rnd, labels, 8, 10) for _ in range(5)]
    expected = StreamingMetric(labels)
    for g, p, n in batches:
        expected.update(g, p, n)
    m = StreamingMetric(labels, device_decode=device_decode)
    m.flush_tokens = 10**6  # everything waits in the buffer until compute
    gold_buf, pred_buf = torch.empty((8, 10), dtype=torch.long), torch.empty((8, 10), dtype=torch.long)
    for g, p, n in batches:
        gold_buf.copy_(torch.as_tensor(g))
        pred_buf.copy_(torch.as_tensor(p))
        m.update(gold_buf, pred_buf, torch.as_tensor(n))
    gold_buf.fill_(1)  # the caller's buffers hold other ids by the time the metric decodes
    pred_buf.fill_(2)
    assert m.compute() == expected.compute()


def test_settings_and_options() -> None:
    with pytest.raises(NerveError, match="conlleval"):
        StreamingMetric(LABELS["IOB2"], repair="conlleval")
    with pytest.raises(NerveError, match="give scheme= or labels="):
        StreamingMetric(repair="discard")
    with pytest.raises(nerve.SchemeError, match="label list"):
        StreamingMetric(["O", "B-PER", "weird tag"])
    with pytest.raises(InputError, match="need a label list"):
        StreamingMetric().update([[0]], [[0]])
    m = StreamingMetric(LABELS["IOB2"], ignore_index=None)
    with pytest.raises(InputError, match="gold id -100"):
        m.update([[-100]], [[0]])


def test_import_nerve_does_not_import_torch() -> None:
    code = (
        "import sys, nerve; nerve.StreamingMetric(['O', 'B-X']).update([[1]], [[1]]); "
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.slow
def test_missing_torch_says_how_to_install_it() -> None:
    # nerve is not on PyPI: the hint must be a command that works (no "nerve[torch]" extra).
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from nerve.tagging.torch_decode import import_torch\n"
        "try:\n    import_torch()\nexcept Exception as e:\n    print(e)\n"
        "try:\n    import nerve.integrations.torchmetrics\nexcept Exception as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert lines == ["torch tensors need torch: pip install torch torchmetrics"] * 2
    code = (
        "import sys; sys.modules['torchmetrics'] = None\n"
        "try:\n    import nerve.integrations.torchmetrics\nexcept Exception as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "the torchmetrics integration needs torchmetrics: pip install torchmetrics\n"


def test_the_count_layout_has_one_home() -> None:
    """The count layout (``CORRECT``, ``FIXED``...) is `nerve.tagging.torch_decode`'s alone (issue 26)."""
    import nerve.streaming.tensors as tensors
    import nerve.tagging.torch_decode as torch_decode

    layout = ("CORRECT", "FIXED", "HOLES", "INVALID", "SENTENCES", "TOKENS")
    assert set(layout) <= set(torch_decode.__all__)
    assert not set(layout) & set(dir(tensors))
