"""Exact entity scores, accumulated block by block from tag ids.

`ExactAccumulator` keeps only additive counts: per-type gold, predicted and matched entities,
token counts, and how often each kind of transition (pair code, `nerve.model.pairs`) and each tag
occurs. Those are what the scheme is inferred from and what repairs are counted from, once the
whole input is read; they grow with the number of tags, not with its square.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import OptionError, Problem, SchemeError
from ..matching.exact import exact_match_aligned
from ..matching.overlap import one_document
from ..model.blocks import TagBlock
from ..model.chunks import Chunks
from ..model.counts import Counts, ExactTotals, RepairStats, TokenStats
from ..model.labels import LabelMap, TypeIds
from ..model.pairs import code_tables
from ..model.schemes import Scheme, check_letters
from ..model.vocab import TagVocab
from ..options import flag
from ..tagging.conlleval_rules import PerlChunker, vocab_codes
from ..tagging.decode import (
    Decoded,
    DecodeRules,
    decode_block,
    repair_kinds,
)
from .muc import FIELDS as MUC_FIELDS
from .muc import MODES, MucOptions, MucResult, count_all, mode_scores
from .transitions import TransitionTable, evidence, infer_from
from .transitions import grow as _grow

if TYPE_CHECKING:
    import numpy.typing as npt

    from ..model.arrays import Bool, Int

__all__ = ["ExactAccumulator", "ExactTotals", "TransitionTable", "infer_from"]


class ExactAccumulator:
    """Exact-match counts over blocks of tag ids.

    Args:
        vocab: the vocabulary of the ids.
        policy: the repair policy (``begin``, ``conlleval``, ``discard`` or ``error``).
        scheme: the scheme; required for ``discard`` and ``error``, inferred at the end otherwise.
        sources: the gold and prediction file names, for problems found by ``error``.
    """

    def __init__(
        self,
        vocab: TagVocab,
        policy: str,
        scheme: Scheme | None,
        sources: tuple[str, str],
        overlap: MucOptions | None = None,
        labels: LabelMap | None = None,
        pred_scheme: Scheme | str | None = "same",
    ):
        self.schemes = (scheme, scheme if isinstance(pred_scheme, str) else pred_scheme)
        self.split = not isinstance(pred_scheme, str)  # each side decoded with its own scheme
        if (labels or self.split) and policy == "conlleval":
            detail = "conlleval's rules count chunks of the tags as read, in one scheme: with a label map, "
            raise OptionError(
                flag("repair"), detail + "a type filter or two schemes use begin, discard or error"
            )
        if policy in ("discard", "error") and None in self.schemes:
            raise ValueError(f"the {policy} policy needs the scheme before reading")
        if overlap is not None and policy == "conlleval":
            raise SchemeError("the muc metrics need entity spans; use --repair begin, discard or error")
        self.overlap = overlap
        self.muc: dict[str, dict[str, Int]] = {}  # by type id
        self.muc_total: dict[str, dict[str, Int]] = {}  # one entry: greedy types need not add up
        self.muc_docs: dict[str, dict[str, Int]] = {}  # by document id, for the document average
        self.vocab = vocab
        self.policy = policy
        self.scheme = scheme
        self.sources = sources
        self.gold_table = TransitionTable()
        self.pred_table = TransitionTable()
        self.gold: Int = np.zeros(0, dtype=np.int64)
        self.pred: Int = np.zeros(0, dtype=np.int64)
        self.matched: Int = np.zeros(0, dtype=np.int64)
        self.tokens = TokenStats()
        self.sentences = 0
        self.documents = 0
        self.problems: list[Problem] = []
        self.perl = PerlChunker() if policy == "conlleval" else None
        self._rules_cache: list[DecodeRules | None] = [None, None]
        self.mapped = TypeIds(labels) if labels else None

    @property
    def type_names(self) -> list[str]:
        """The names of the types counted: the vocabulary's, or those a label map turns them into."""
        return self.mapped.names if self.mapped is not None else self.vocab.type_names

    def _map(self, chunks: Chunks) -> Chunks:
        """The chunks with their types mapped (`LabelMap`), those filtered out removed."""
        if self.mapped is None:
            return chunks
        ids = self.mapped.of(self.vocab.type_names)[chunks.type]
        keep = ids >= 0
        return Chunks(chunks.start[keep], chunks.end[keep], ids[keep])

    def update(self, block: TagBlock) -> tuple[Chunks, Chunks] | None:
        """Add the counts of one block; return its gold and predicted chunks (``None`` for conlleval)."""
        assert block.pred is not None
        gold = self._decode(block.gold, block.sentence_start, 0, block.line)
        pred = self._decode(block.pred, block.sentence_start, 1, block.pred_line)
        self.tokens = self.tokens + TokenStats(len(block), int(np.count_nonzero(block.gold == block.pred)))
        self.sentences += int(np.count_nonzero(block.sentence_start))
        doc_base = self.documents
        self.documents += int(np.count_nonzero(block.document_start))
        if self.perl is not None:
            self._update_perl(block)
            return None
        chunks = self._map(gold.chunks), self._map(pred.chunks)
        self._count_chunks(*chunks, len(block))
        if self.overlap is not None:
            self._count_muc(*chunks, block.document_start, doc_base)
        return chunks

    def _decode(self, ids: npt.NDArray[np.int32], sentence_start: Bool, side: int, lines: Int) -> Decoded:
        """Decode one side (0 gold, 1 pred) of a block; count its transitions, keep its problems."""
        found = decode_block(
            ids,
            sentence_start,
            self.vocab,
            self._rules(side),
            self.policy,
            transitions=True,
            side=("gold", "pred")[side],
            source=self.sources[side],
            lines=lines,
        )
        assert found.transitions is not None
        (self.gold_table, self.pred_table)[side].add_counts(found.transitions)
        self.problems.extend(found.problems)
        return found

    def _count_chunks(self, gold: Chunks, pred: Chunks, length: int) -> None:
        """Count gold, predicted and exactly matched chunks per type (positions within a block)."""
        n_types = len(self.type_names)
        self.gold = _grow(self.gold, n_types) + _grow(np.bincount(gold.type, minlength=n_types), n_types)
        self.pred = _grow(self.pred, n_types) + _grow(np.bincount(pred.type, minlength=n_types), n_types)
        hits = exact_match_aligned(
            (gold.start, gold.end, gold.type), (pred.start, pred.end, pred.type), length, n_types
        )
        self.matched = _grow(self.matched, n_types) + _grow(hits, n_types)

    def _count_muc(self, gold: Chunks, pred: Chunks, document_start: Bool, doc_base: int) -> None:
        """Add the MUC tallies of a block's chunks (by type, in total, and by document)."""
        assert self.overlap is not None
        n_types = len(self.type_names)
        # Entities never cross sentences, so matching within a block is matching per document.
        docs = None
        size = 1
        if self.overlap.document_average:
            # Documents are numbered from 1; 0 is the one an earlier range of the file ended in.
            doc = np.cumsum(document_start, dtype=np.int64)
            size = int(doc[-1]) + 1 if doc.shape[0] else 1
            docs = (doc[gold.start], doc[pred.start], size)
        tallies = count_all(
            one_document(gold.start, gold.end, gold.type, self.type_names),
            one_document(pred.start, pred.end, pred.type, self.type_names),
            n_types,
            self.overlap,
            docs,
        )
        _add_columns(self.muc, tallies.by_type, np.arange(n_types))
        _add_columns(self.muc_total, tallies.total, np.zeros(1, dtype=np.int64))
        if tallies.by_document is not None:
            _add_columns(self.muc_docs, tallies.by_document, np.arange(size) + doc_base)

    def add_counts(
        self,
        gold_transitions: Int,
        pred_transitions: Int,
        gold: Int,
        pred: Int,
        matched: Int,
        tokens: int,
        correct: int,
        sentences: int,
    ) -> None:
        """Add counts made elsewhere (on a GPU, say) in this vocabulary's ids.

        Transitions are `nerve.tagging.decode.transition_counts` vectors (by pair code, then
        by tag id); the per-type arrays are indexed by type id. They may cover fewer ids than
        the vocabulary has now.
        """
        if self.perl is not None:
            raise ValueError("conlleval counting carries state from one sentence to the next")
        self.gold_table.add_counts(gold_transitions)
        self.pred_table.add_counts(pred_transitions)
        n = max(len(self.vocab.type_names), gold.shape[0])
        self.gold = _grow(self.gold, n) + _grow(gold.astype(np.int64), n)
        self.pred = _grow(self.pred, n) + _grow(pred.astype(np.int64), n)
        self.matched = _grow(self.matched, n) + _grow(matched.astype(np.int64), n)
        self.tokens = self.tokens + TokenStats(tokens, correct)
        self.sentences += sentences

    def absorb(self, other: ExactAccumulator) -> None:
        """Add the counts of an accumulator of the same settings that read other sentences.

        Its vocabulary may number tags differently: ids are mapped through the tag strings.
        """
        if self.perl is not None:
            raise ValueError("conlleval counting carries state from one sentence to the next")
        ids = self.vocab.add(other.vocab.tags)
        if (ids < 0).any():
            raise SchemeError(self.vocab.explain(other.vocab.tags[int(np.argmin(ids))]))
        self.gold_table.absorb(other.gold_table, ids)
        self.pred_table.absorb(other.pred_table, ids)
        index = {name: i for i, name in enumerate(self.type_names)}
        add = self.mapped.add if self.mapped is not None else index.__getitem__  # mapped: maybe new here
        types = np.asarray([add(name) for name in other.type_names], dtype=np.int64)
        n = len(self.type_names)
        for name in ("gold", "pred", "matched"):
            mine_counts = _grow(getattr(self, name), n)
            theirs_counts = getattr(other, name)
            np.add.at(mine_counts, types[: theirs_counts.shape[0]], theirs_counts)
            setattr(self, name, mine_counts)
        _add_columns(self.muc, other.muc, types)
        _add_columns(self.muc_total, other.muc_total, np.zeros(1, dtype=np.int64))
        if other.muc_docs:
            size = max(v.shape[0] for c in other.muc_docs.values() for v in c.values())
            _add_columns(self.muc_docs, other.muc_docs, np.arange(size) + self.documents)
        self.tokens = self.tokens + other.tokens
        self.sentences += other.sentences
        self.documents += other.documents
        self.problems.extend(other.problems)

    def _rules(self, side: int) -> DecodeRules:
        """A side's decoding tables for the vocabulary as it is now (cached while it does not grow)."""
        rules = self._rules_cache[side]
        if rules is None or rules.size != len(self.vocab):
            rules = self._rules_cache[side] = DecodeRules.of(self.vocab, self.schemes[side])
        return rules

    def _repairs(self) -> tuple[RepairStats, Scheme, Scheme]:
        """The invalid transitions of each side under its scheme, and the schemes (inferred for ``auto``)."""
        vocab, tables = self.vocab, (self.gold_table, self.pred_table)
        if self.split:
            schemes = [s or infer_from(vocab, [t]) for s, t in zip(self.schemes, tables, strict=True)]
        else:
            schemes = [self.scheme or infer_from(vocab, list(tables))] * 2
        invalid = [(lambda t: t[1] | t[2])(code_tables(sc)) for sc in schemes]
        if self.split:
            for side, scheme, t in zip(("gold", "pred"), schemes, tables, strict=True):
                check_letters(scheme, (vocab.letters[i] for i in t.used().tolist()), side)
        kinds = repair_kinds(tables[0].codes, invalid[0])
        for k, v in repair_kinds(tables[1].codes, invalid[1]).items():
            kinds[k] = kinds.get(k, 0) + v
        gold, pred = (int(t.codes[i].sum()) for t, i in zip(tables, invalid, strict=True))
        found = evidence(vocab, list(tables)) if self.scheme is not None and not self.split else None
        return (
            RepairStats(self.policy, gold, pred, dict(sorted(kinds.items())), found),
            schemes[0],
            schemes[1],
        )

    def _update_perl(self, block: TagBlock) -> None:
        assert self.perl is not None
        assert block.pred is not None
        codes, perl_type = vocab_codes(self.vocab)
        starts = np.flatnonzero(block.sentence_start)
        gold = np.insert(block.gold, starts, 0)
        pred = np.insert(block.pred, starts, 0)
        self.perl.update(codes[gold], perl_type[gold], codes[pred], perl_type[pred])

    def finish(self) -> ExactTotals:
        """The totals, with the scheme inferred (for ``auto``) and repairs counted."""
        repairs, scheme, pred_scheme = self._repairs()
        names = list(self.type_names)
        if self.perl is not None:
            perl = self.perl.finish()
            labels = ["", *names]
            size_t = len(labels)
            gold, pred, matched = (_grow(a, size_t) for a in (perl.gold, perl.pred, perl.correct))
            names = labels
        else:
            n = len(names)
            gold, pred, matched = (_grow(a, n) for a in (self.gold, self.pred, self.matched))
        counts: dict[str, Counts] = {}
        for i, name in enumerate(names):
            g, p, m = int(gold[i]), int(pred[i]), int(matched[i])
            if g or p:
                c = counts.get(name, Counts())
                counts[name] = c + Counts(m, p - m, g - m)
        muc = None
        if self.overlap is not None:
            empty: dict[str, Int] = {f: np.zeros(0, dtype=np.int64) for f in MUC_FIELDS}
            per_document = None
            if self.overlap.document_average:
                per_document = {m: {f: self.muc_docs.get(m, empty)[f] for f in MUC_FIELDS} for m in MODES}
            modes = {
                m: mode_scores(
                    m,
                    self.muc.get(m, empty),
                    self.type_names,
                    per_document[m] if per_document else None,
                    self.muc_total.get(m, empty),
                )
                for m in MODES
            }
            muc = MucResult(modes, overlap=self.overlap, per_document=per_document)
        other = pred_scheme if self.split else None
        return ExactTotals(counts, self.tokens, repairs, scheme, self.sentences, self.documents, muc, other)


def _add_columns(total: dict[str, dict[str, Int]], more: dict[str, dict[str, Int]], ids: Int) -> None:
    """Add MUC count arrays into ``total`` (in place), entry i of ``more`` at ``ids[i]``."""
    for mode, columns in more.items():
        mine = total.setdefault(mode, {})
        for name, values in columns.items():
            target = ids[: values.shape[0]]
            grown = _grow(mine.get(name, np.zeros(0, dtype=np.int64)), int(target.max(initial=-1)) + 1)
            np.add.at(grown, target, values)
            mine[name] = grown
