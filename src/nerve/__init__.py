"""nerve: evaluation for named-entity recognition and other chunking tasks.

>>> import nerve
>>> result = nerve.score([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]])
>>> result.micro.f1
1.0
"""

from ._version import __version__
from .chunk_evaluator import ChunkEvaluator
from .errors import InputError, InvalidSequenceError, NerveError, Problem, SchemeError
from .readers import TaggedCorpus, read_conll
from .renderers import render
from .results import Counts, ExactScores, RepairStats, Result, Score, Settings, TokenStats
from .schemes import SUPPORTED_SCHEMES, TagFormat
from .scoring import decode, encode, score, score_text, validate
from .spans import Span, SpanArray
from .streaming import StreamingMetric

__all__ = [
    "SUPPORTED_SCHEMES",
    "ChunkEvaluator",
    "Counts",
    "ExactScores",
    "InputError",
    "InvalidSequenceError",
    "NerveError",
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
    "decode",
    "encode",
    "read_conll",
    "render",
    "score",
    "score_text",
    "validate",
]
