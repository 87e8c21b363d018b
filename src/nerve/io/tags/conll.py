"""Readers: CoNLL column files into blocks of tag ids, and whole corpora into memory.

Files are read in blocks of whole sentences and split into fields with array operations over the
raw bytes (`io.bytes.split_fields`), so memory does not grow with the file and no Python code runs
per token. Each block is a `TagBlock`: gold and predicted tag ids plus sentence and document starts
and the line every token came from.

Two layouts are read: one merged file whose last two columns are the gold and the predicted tag
(as conlleval.pl reads), or a gold file and a prediction file aligned line by line whose last
column is the tag. Blank lines end sentences; ``-DOCSTART-`` lines start documents and are not
tokens; fields are separated by runs of spaces and tabs, or by each tab in a file sniffed as
tab-separated (`io.tags.delimiters`); ``#`` lines are comments only when asked. Big files
are cut into ranges of whole sentences by `io.tags.ranges.split_files`. Names that lived here before
(`TagBlock`, `split_fields`, `intern`, `iter_lists`, `split_files`...) are re-exported for
``nerve.readers``.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from ..._frozen import frozen
from ...errors import InputError
from ...model.blocks import TagBlock
from ...model.vocab import TagVocab
from ..bytes import BLOCK_BYTES, DOCSTART, FieldTable, column_delimiter, intern, split_fields
from ..sources import FileRange, LineSource, Readable
from .conll_align import SENTENCES_NOTE, lacks_docstarts, rest_pairs, sentence_rows
from .conll_lines import (
    BLANK,
    COMMENT,
    DOC,
    ONE_FILE,
    TOKEN,
    ColumnCheck,
    Lines,
    MergedCheck,
    check_aligned,
    classify_lines,
    first_token_columns,
    length_error,
)
from .delimiters import file_delimiter
from .lists import iter_lists
from .ranges import split_files
from .tag_ids import tag_ids, token_words

if TYPE_CHECKING:
    import numpy.typing as npt

    from ...model.arrays import Bool, Int

__all__ = [
    "BLOCK_BYTES",
    "DOCSTART",
    "ConllReader",
    "FieldTable",
    "FileRange",
    "Readable",
    "TagBlock",
    "TaggedCorpus",
    "first_token_columns",
    "intern",
    "iter_conll",
    "iter_lists",
    "read_conll",
    "split_fields",
    "split_files",
]


class ConllReader:
    """Reads one merged file, or a gold and a prediction file, into `TagBlock`s.

    Args:
        gold: the merged file (last two columns gold and predicted tag), or the gold file.
        pred: the prediction file (tag in the last column), or ``None`` for a merged file.
        vocab: the vocabulary that tags are added to.
        comments: treat lines starting with ``#`` as comments.
        encoding: the files' encoding.
        check_tokens: require the first column (the token) of both files to agree.
        single: read ``gold`` alone (one tag in the last column), for validation.
        block_bytes: about how many bytes to read at a time.
        delimiter: what separates columns (`io.bytes.column_delimiter`): ``None`` to sniff it
            file by file (`io.tags.delimiters.sniff_delimiter`: a tab, or runs of spaces and tabs),
            ``"whitespace"`` for runs of spaces and tabs, or ``"tab"``, ``"space"`` or one
            character, each occurrence of which separates two columns; an empty tag is then the
            outside tag.
        words: keep each block's tokens (its first column) as `Words`, for error analysis.
    """

    def __init__(
        self,
        gold: Readable,
        pred: Readable | None,
        vocab: TagVocab,
        *,
        comments: bool = False,
        encoding: str = "utf-8",
        check_tokens: bool = True,
        single: bool = False,
        block_bytes: int = BLOCK_BYTES,
        delimiter: str | None = None,
        words: bool = False,
    ):
        self.words = words
        self.vocab = vocab
        self.comments = comments
        self.check_tokens = check_tokens
        self.single = single
        self.gold = LineSource(gold, encoding, block_bytes)
        self.pred = LineSource(pred, encoding, block_bytes) if pred is not None else None
        given = column_delimiter(delimiter)  # or sniffed file by file
        self.delimiters = (
            given if delimiter is not None else file_delimiter(gold, encoding),
            given if delimiter is not None or pred is None else file_delimiter(pred, encoding),
        )
        if self.pred is not None:
            self.gold_columns = ColumnCheck(self.gold.name, 1, "the tag")
            self.pred_columns = ColumnCheck(self.pred.name, 1, "the tag")
        elif single:
            self.gold_columns = ColumnCheck(self.gold.name, 1, "the tag")
        else:
            self.gold_columns = ColumnCheck(self.gold.name, 2, "gold tag, predicted tag", f"; {ONE_FILE}")
        self._after_doc = self.gold.line == 0  # a document starts at the start of the file
        self._skip_docs: bool | None = None  # the prediction file lacks the -DOCSTART- lines
        #: What the reading did that the result should say (`SENTENCES_NOTE`), counted.
        self.notes: dict[str, int] = {}
        self.merged = MergedCheck(self.gold.name) if self.pred is not None else None

    @property
    def names(self) -> tuple[str, str]:
        """The gold (or merged) and prediction file names."""
        return self.gold.name, self.pred.name if self.pred is not None else self.gold.name

    def __iter__(self) -> Iterator[TagBlock]:
        gbuf, pbuf = b"", b""
        while True:
            # Read at least one more piece of each file, then take the whole sentences.
            if not self.gold.done:
                gbuf += self.gold.more()
            if self.pred is not None:
                while not self.pred.done and (pbuf.count(b"\n") < gbuf.count(b"\n") or self.gold.done):
                    pbuf += self.pred.more()
            at_end = self.gold.done and (self.pred is None or self.pred.done)
            if not gbuf and not pbuf and at_end:
                break
            try:
                block, gbuf, pbuf = self._block(gbuf, pbuf, at_end)
            except InputError as err:
                raise self._checked_hint(err, gbuf, pbuf) from None
            if block is not None and len(block):
                yield block
            if at_end and not gbuf and not pbuf:
                break
        if self.merged is not None:
            self.merged.finish()

    def _block(self, gbuf: bytes, pbuf: bytes, at_end: bool) -> tuple[TagBlock | None, bytes, bytes]:
        """Read the whole sentences at the start of the buffers; return what is left over."""
        g = classify_lines(gbuf, self.gold.line + 1, self.comments, self.delimiters[0])
        p = (
            None
            if self.pred is None
            else classify_lines(pbuf, self.pred.line + 1, self.comments, self.delimiters[1])
        )
        g_rows = np.flatnonzero(g.kind != COMMENT)
        p_rows = np.flatnonzero(p.kind != COMMENT) if p is not None else g_rows
        g_align, p_rows = self._aligned(g, g_rows, p, p_rows)  # the rows that pair
        n = min(g_align.shape[0], p_rows.shape[0])
        uneven = None  # the error of files of different lengths, raised after the lines they share
        if at_end:
            take = n
            if p is not None and g_align.shape[0] != p_rows.shape[0]:
                uneven = length_error(g, g_align, p, p_rows, self.names, bool(self._skip_docs))
        else:
            # Cut after the last blank line both sides have (or -DOCSTART- line, by sentences).
            blanks = np.flatnonzero(
                g.kind[g_align[:n]] == BLANK if not self._skip_docs else g.kind[g_align[:n]] != TOKEN
            )
            if blanks.shape[0] == 0:
                return None, gbuf, pbuf
            take = int(blanks[-1]) + 1
        gr, pr = g_align[:take], p_rows[:take]
        if at_end:
            g_lines, p_lines = len(g), len(p) if p is not None else 0
        else:  # comment (and unpaired -DOCSTART-) lines after the cut stay for the next block
            g_lines = int(g_align[take - 1]) + 1
            p_lines = int(p_rows[take - 1]) + 1 if p is not None else 0
        block = self._tags(g, gr, p, pr, g_rows[g_rows < g_lines], same_length=uneven is None)
        if uneven is not None:
            raise uneven
        g_end = g.fields.line_end(g_lines - 1) + 1 if g_lines else 0
        self.gold.line += g_lines
        if p is not None and self.pred is not None:
            p_end = p.fields.line_end(p_lines - 1) + 1 if p_lines else 0
            self.pred.line += p_lines
            return block, gbuf[g_end:], pbuf[p_end:]
        return block, gbuf[g_end:], pbuf

    def _aligned(self, g: Lines, g_rows: Int, p: Lines | None, p_rows: Int) -> tuple[Int, Int]:
        """The gold and the prediction rows that pair, line by line.

        All of them, unless the prediction file has no -DOCSTART- line where the gold file has
        its first (a tags-only prediction file, say): then the files pair sentence by sentence
        (`io.tags.conll_align.sentence_rows`), and the notes count the gold's -DOCSTART- lines.
        """
        if p is None:
            return g_rows, p_rows
        if self._skip_docs is None:
            self._skip_docs = lacks_docstarts(g.kind[g_rows], p.kind[p_rows])
        if not self._skip_docs:
            return g_rows, p_rows
        return sentence_rows(g.kind, g_rows), sentence_rows(p.kind, p_rows)

    def _checked_hint(self, err: InputError, gbuf: bytes, pbuf: bytes) -> InputError:
        """``err``, without its ``--ignore-tokens`` hint unless the rest of the files pairs line by line.

        ``gbuf`` and ``pbuf`` are the lines read but not yet taken; the rest is read to tell.
        """
        if err.option != "--ignore-tokens" or self.pred is None:
            return err
        sources = ((self.gold, gbuf, self.delimiters[0]), (self.pred, pbuf, self.delimiters[1]))
        if rest_pairs(sources, self.comments, bool(self._skip_docs)):
            return err
        return InputError(err.source, err.line, err.detail)

    def _tags(
        self, g: Lines, gr: Int, p: Lines | None, pr: Int, g_all: Int, same_length: bool = True
    ) -> TagBlock:
        """The block of gold rows ``gr`` and prediction rows ``pr`` (paired line by line).

        ``g_all`` are all the gold rows of the block, -DOCSTART- lines that pair with nothing
        included, for the sentence and document starts; ``same_length``: whether the files end
        together (`check_aligned`).
        """
        gk = g.kind[gr]
        if p is not None:
            how = {"check_tokens": self.check_tokens, "sentences": bool(self._skip_docs)}
            check_aligned(g, gr, p, pr, self.names, same_length=same_length, **how)
        tokens = gr[gk == TOKEN]
        self.gold_columns.check(g, tokens)
        if self.merged is not None:
            self.merged.add(g, tokens, self.vocab.format, self.vocab.outside)
        if p is not None:
            p_tokens = pr[gk == TOKEN]
            self.pred_columns.check(p, p_tokens)
            gold_field = g.fields.last[tokens]
            pred_field = p.fields.last[p_tokens]
            gold_ids = tag_ids(self.vocab, g, gold_field, tokens, self.gold.name)
            pred_ids = tag_ids(self.vocab, p, pred_field, p_tokens, self.pred.name if self.pred else "")
            pred_line = p.first_line + p_tokens
        elif self.single:
            gold_ids = tag_ids(self.vocab, g, g.fields.last[tokens], tokens, self.gold.name)
            pred_ids = None
        else:
            both = np.concatenate([g.fields.second_last[tokens], g.fields.last[tokens]])
            ids = tag_ids(self.vocab, g, both, np.concatenate([tokens, tokens]), self.gold.name, merged=True)
            gold_ids, pred_ids = ids[: tokens.shape[0]], ids[tokens.shape[0] :]
        line = g.first_line + tokens
        sentence_start, document_start = self._starts(g.kind[g_all])
        if self._skip_docs:
            n_docs = int(np.count_nonzero(g.kind[g_all] == DOC))
            self.notes[SENTENCES_NOTE] = self.notes.get(SENTENCES_NOTE, 0) + n_docs
        return TagBlock(
            gold=gold_ids,
            pred=pred_ids,
            sentence_start=sentence_start,
            document_start=document_start,
            line=line,
            pred_line=pred_line if p is not None else line,
            words=token_words(g, tokens) if self.words else None,
        )

    def _starts(self, gk: npt.NDArray[np.int8]) -> tuple[Bool, Bool]:
        """Sentence and document starts of the token lines among lines of kinds ``gk``.

        A token starts a sentence when the content line before it is not a token line, and a
        document when a -DOCSTART- line came since the last token (of this block or an earlier one).
        """
        is_token = gk == TOKEN
        before = np.zeros(is_token.shape[0], dtype=np.bool_)
        before[1:] = is_token[:-1]
        sentence_start = ~before[is_token]
        docs = np.cumsum(gk == DOC)
        at_token = docs[is_token]
        document_start = np.empty(at_token.shape[0], dtype=np.bool_)
        if at_token.shape[0]:
            document_start[0] = bool(at_token[0] > 0) or self._after_doc
            document_start[1:] = at_token[1:] != at_token[:-1]
            self._after_doc = bool(docs[-1] > at_token[-1])
        elif docs.shape[0] and docs[-1] > 0:
            self._after_doc = True
        return sentence_start, document_start


def iter_conll(
    gold: str | os.PathLike[str] | BinaryIO,
    pred: str | os.PathLike[str] | BinaryIO | None = None,
    *,
    vocab: TagVocab | None = None,
    comments: bool = False,
    encoding: str = "utf-8",
    check_tokens: bool = True,
    block_bytes: int = BLOCK_BYTES,
    delimiter: str | None = None,
) -> ConllReader:
    """Stream a merged CoNLL file, or a gold and a prediction file, as `TagBlock`s."""
    return ConllReader(
        gold,
        pred,
        vocab if vocab is not None else TagVocab(),
        comments=comments,
        encoding=encoding,
        check_tokens=check_tokens,
        block_bytes=block_bytes,
        delimiter=delimiter,
    )


@frozen
class TaggedCorpus:
    """A whole corpus read into memory: gold and predicted tag ids with sentence structure.

    Attributes:
        blocks: the blocks as read; score with `nerve.score(corpus)`.
        vocab: the tag vocabulary of the ids.
        source: the file(s) it came from.
    """

    blocks: tuple[TagBlock, ...]
    vocab: TagVocab
    source: str

    def _side(self, pred: bool) -> list[list[str]]:
        out: list[list[str]] = []
        tags = self.vocab.tags
        for b in self.blocks:
            ids = b.pred if pred else b.gold
            if ids is None:
                return []
            starts = [*np.flatnonzero(b.sentence_start).tolist(), len(b)]
            names = [tags[i] for i in ids.tolist()]
            out.extend(names[s:e] for s, e in itertools.pairwise(starts))
        return out

    @property
    def gold(self) -> list[list[str]]:
        """The gold tags, one list per sentence."""
        return self._side(False)

    @property
    def pred(self) -> list[list[str]]:
        """The predicted tags, one list per sentence (empty if none were read)."""
        return self._side(True)


def read_conll(
    gold: str | os.PathLike[str],
    pred: str | os.PathLike[str] | None = None,
    *,
    comments: bool = False,
    encoding: str = "utf-8",
    check_tokens: bool = True,
    outside: str = "O",
    delimiter: str | None = None,
) -> TaggedCorpus:
    """Read a merged CoNLL file, or a gold and a prediction file, into memory.

    ``delimiter`` is as for `ConllReader`.

    Raises:
        InputError: for a missing file, a malformed line or misaligned files.
    """
    vocab = TagVocab(outside=outside)
    reader = iter_conll(
        gold,
        pred,
        vocab=vocab,
        comments=comments,
        encoding=encoding,
        check_tokens=check_tokens,
        delimiter=delimiter,
    )
    blocks = tuple(reader)
    source = os.fspath(gold) + (f" + {os.fspath(pred)}" if pred is not None else "")
    return TaggedCorpus(blocks, vocab, source)
