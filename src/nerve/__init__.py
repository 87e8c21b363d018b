"""nerve: evaluation for named-entity recognition and other chunking tasks.

>>> import nerve
>>> result = nerve.score([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]])
>>> result.micro.f1
1.0
"""

from . import _deprecated
from ._version import __version__
from .analysis.query import InstanceQuery
from .api import compare, decode, encode, score, score_text, validate, validate_spans
from .api.report import write_report
from .compat.paddlenlp import ChunkEvaluator
from .errors import InputError, InvalidSequenceError, NerveError, OptionError, Problem, SchemeError
from .io.conll import TaggedCorpus, read_conll
from .model.schemes import SUPPORTED_SCHEMES, TagFormat
from .model.spans import Span, SpanArray
from .report.renderers import render
from .results import Counts, ExactScores, RepairStats, Result, Score, Settings, TokenStats
from .streaming.metric import StreamingMetric

_deprecated.install()

__all__ = [
    "SUPPORTED_SCHEMES",
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
