"""The plan: `nerve.score`'s signature is the one list of its options, and `Plan.of` takes exactly it."""

from __future__ import annotations

import inspect
from dataclasses import fields
from typing import Any

import pytest

import nerve
from nerve.api.planned import keywords, plan_of
from nerve.plan import DEFAULTS, Plan, Reading


def _public() -> dict[str, Any]:
    found = inspect.signature(nerve.score).parameters.values()
    return {p.name: p.default for p in found if p.kind is inspect.Parameter.KEYWORD_ONLY}


def test_the_plan_takes_the_public_signatures_keywords_and_defaults() -> None:
    assert keywords() == _public()
    assert dict(DEFAULTS) == _public()  # in order too: the command plans with them, not importing the API
    assert list(DEFAULTS) == list(_public())
    assert Plan.of(_public()) == Plan()  # the signature's defaults are the plan's own
    for name in _public():
        rest = {k: v for k, v in _public().items() if k != name}
        with pytest.raises(KeyError, match=name):  # every keyword of the signature is read
            Plan.of(rest)


def test_the_reading_group_is_named_as_the_signature() -> None:
    assert {f.name for f in fields(Reading)} <= set(_public())


def test_a_keyword_the_signature_lacks_is_refused_as_python_refuses_it() -> None:
    with pytest.raises(TypeError, match=r"^score\(\) got an unexpected keyword argument 'bogus'$"):
        plan_of(bogus=1)
    with pytest.raises(TypeError, match=r"^score\(\) got an unexpected keyword argument 'bogus'$"):
        nerve.score([["O"]], [["O"]], bogus=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"^score\(\) takes from 1 to 2 positional arguments but 3"):
        nerve.score([["O"]], [["O"]], [["O"]])  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"^score\(\) missing 1 required positional argument: 'gold'$"):
        nerve.score()  # type: ignore[call-arg]


def test_help_shows_the_public_signature() -> None:
    shown = str(inspect.signature(nerve.score))
    assert shown.startswith("(gold: 'Source', pred: 'Source | None' = None, *, scheme: 'str' = 'auto',")
    assert nerve.score.__doc__ is not None
    assert nerve.score.__doc__.startswith("Score predicted entities")


def test_a_streaming_metric_of_a_plan_is_the_one_of_its_keywords() -> None:
    from nerve.plan import stream_plan
    from nerve.streaming.metric import StreamingMetric

    labels = ["O", "B-PER", "I-PER", "B-LOC"]
    given = StreamingMetric(labels, scheme="auto", repair="discard", outside="O", beta=2.0)
    planned = StreamingMetric.planned(labels, stream_plan("auto", "discard", None, "O", 2.0))
    assert planned.plan == given.plan
    assert planned.plan.tagging.scheme is not None  # the label list's scheme, as discard needs it
    assert planned.plan.tagging.inferred
    for metric in (given, planned):
        metric.update([[1, 2, 0, 3]], [[1, 2, 0, 0]])
    assert planned.compute() == given.compute()


def test_the_transformers_metric_goes_through_the_stream_plan() -> None:
    from nerve.integrations.transformers import compute_metrics

    np = pytest.importorskip("numpy")
    f = compute_metrics(["O", "B-PER", "I-PER"], repair="discard")
    assert f((np.array([[1, 2, 0]]), np.array([[1, 2, -100]])))["overall_f1"] == 1.0
    with pytest.raises(nerve.OptionError, match="conlleval"):
        compute_metrics(["O", "B-PER"], repair="conlleval")


def test_convert_hands_its_options_down_as_one_plan(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """`nerve.api.convert`'s keywords are the fields of its `Converting` group, read and written from it."""
    import nerve.api.convert as module
    from nerve.plan import Converting

    public = inspect.signature(module.convert).parameters
    group = {f.name for f in fields(Converting)}
    assert group | {"source", "out", "input_format", "offsets", "progress"} == set(public)
    for f in fields(Converting):
        if f.name != "to":
            assert public[f.name].default == f.default, f.name
    seen: list[Any] = []
    real = module.write_corpus

    def spy(corpus: Any, paths: tuple[str, str], how: Converting) -> Any:
        seen.append(how)
        return real(corpus, paths, how)

    monkeypatch.setattr(module, "write_corpus", spy)
    src = tmp_path / "in.conll"
    src.write_text("EU B-ORG\nrejects O\nGerman B-MISC\n", encoding="utf-8")
    module.convert(src, tmp_path / "out.conll", to="conll", scheme="IOBES", outside="O", side="gold")
    assert seen == [Converting("conll", "IOBES", "gold")]
    module.convert(src, tmp_path / "out.jsonl", to="jsonl", from_scheme="IOB2")
    assert seen[1] == Converting("jsonl", "IOB2", from_scheme="IOB2")  # the default scheme, named
