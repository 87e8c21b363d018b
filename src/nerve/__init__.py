"""nerve: evaluation for named-entity recognition and other chunking tasks.

>>> import nerve
>>> result = nerve.score([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]])
>>> result.micro.f1
1.0
"""

from __future__ import annotations

from . import _deprecated
from ._version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: ``nerve --version`` stays cheap
if TYPE_CHECKING:
    from typing import Any

    from .analysis.agree_result import Agreement
    from .analysis.query import InstanceQuery
    from .api import decode, encode, score, score_text, validate, validate_spans
    from .api.compare import compare
    from .api.report import write_report
    from .compat.paddlenlp import ChunkEvaluator
    from .compiled_agree import agree
    from .errors import InputError, InvalidSequenceError, NerveError, OptionError, Problem, SchemeError
    from .io.tags.conll import TaggedCorpus, read_conll
    from .model.schemes import SUPPORTED_SCHEMES, TagFormat
    from .model.spans import Span, SpanArray
    from .report.renderers import render
    from .results import Counts, ExactScores, RepairStats, Result, Score, Settings, TokenStats
    from .streaming.metric import StreamingMetric

_deprecated.install()

# The public names and the module of each, imported on first use (PEP 562), so that
# ``import nerve.cli`` and ``nerve score`` load only what they use.
_LAZY = {
    **dict.fromkeys(("InputError", "InvalidSequenceError", "NerveError", "OptionError"), ".errors"),
    **dict.fromkeys(("Problem", "SchemeError"), ".errors"),
    "InstanceQuery": ".analysis.query",
    "Agreement": ".analysis.agree_result",
    "agree": ".compiled_agree",
    "compare": ".api",
    "decode": ".api",
    "encode": ".api",
    "score": ".api",
    "score_text": ".api",
    "validate": ".api",
    "validate_spans": ".api",
    "write_report": ".api.report",
    "ChunkEvaluator": ".compat.paddlenlp",
    "TaggedCorpus": ".io.tags.conll",
    "read_conll": ".io.tags.conll",
    "SUPPORTED_SCHEMES": ".model.schemes",
    "TagFormat": ".model.schemes",
    "Span": ".model.spans",
    "SpanArray": ".model.spans",
    "render": ".report.renderers",
    "Counts": ".results",
    "ExactScores": ".results",
    "RepairStats": ".results",
    "Result": ".results",
    "Score": ".results",
    "Settings": ".results",
    "TokenStats": ".results",
    "StreamingMetric": ".streaming.metric",
}


def __getattr__(name: str) -> Any:
    import importlib

    if name == "errors":  # ``import nerve; nerve.errors``, as when it was imported here eagerly
        return importlib.import_module(".errors", __name__)
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "SUPPORTED_SCHEMES",
    "Agreement",
    "ChunkEvaluator",
    "Counts",
    "ExactScores",
    "InputError",
    "InstanceQuery",
    "InvalidSequenceError",
    "NerveError",
    "OptionError",
    "Problem",
    "RepairStats",
    "Result",
    "SchemeError",
    "Score",
    "Settings",
    "Span",
    "SpanArray",
    "StreamingMetric",
    "TagFormat",
    "TaggedCorpus",
    "TokenStats",
    "__version__",
    "agree",
    "compare",
    "decode",
    "encode",
    "read_conll",
    "render",
    "score",
    "score_text",
    "validate",
    "validate_spans",
    "write_report",
]
