"""Generate a synthetic CoNLL-style NER corpus with noisy predictions, for benchmarking.

Usage::

    python bench/gen_corpus.py OUT_PREFIX --tokens N --seed S [--split]

writes ``OUT_PREFIX.txt`` with one ``token gold pred`` line per token (single space), a blank line after
every sentence and a ``-DOCSTART- O O`` line followed by a blank line before every document of about 200
sentences. With ``--split`` it also writes ``OUT_PREFIX.gold.txt`` and ``OUT_PREFIX.pred.txt``
(``token tag`` lines, same layout).

The corpus imitates CoNLL-2003 output of a mediocre tagger:

- sentences of 5-30 tokens, 4 entity types (PER, LOC, ORG, MISC), gold tags in IOB2;
- about 15 % of tokens inside gold entities, entities of 1-4 tokens (mostly 1-2);
- predictions derived from gold so that about 5 % of predicted tags differ from gold: dropped entities,
  type swaps, boundaries moved by one token, spurious entities, a type change inside an entity, and
  predictions that start with ``I-`` after ``O`` (ill-formed, as real model output is).

``N`` counts sentence tokens exactly; the ``-DOCSTART-`` lines come on top of it. The output depends only
on ``N`` and the seed. Only the standard library and numpy are used.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

TYPES = ("PER", "LOC", "ORG", "MISC")
# Tag ids: 0 = O, 1 + 2k = B-TYPES[k], 2 + 2k = I-TYPES[k].
TAGS = ("O", *(f"{prefix}-{t}" for t in TYPES for prefix in ("B", "I")))
N_TYPES = len(TYPES)

MIN_SENT, MAX_SENT = 5, 30
DOC_SENTS = (150, 250)  # sentences per document, drawn uniformly
ENTITY_LEN_P = np.array([0.45, 0.30, 0.15, 0.10])  # lengths 1..4, mean 1.9
INSIDE_FRACTION = 0.15
ADJACENT_P = 0.03  # probability that an entity follows the previous one without an O token between

# Per gold entity noise, applied to exclusive fractions of the entities.
NOISE_P = {
    "drop": 0.060,  # predicted as O
    "swap": 0.070,  # other type, same span
    "boundary": 0.110,  # one boundary moved by one token (extend or shrink)
    "i_start": 0.060,  # first predicted tag is I-X instead of B-X (O -> I-X after O)
    "mixed": 0.030,  # last token of a multi-token entity gets I-Y of another type (B-X I-Y)
}
SPURIOUS_PER_TOKEN = 0.012  # spurious entities per gold-O token
SPURIOUS_I_START_P = 0.25  # fraction of spurious entities that start with I-

CHUNK_SENTENCES = 20_000  # sentences rendered per write, bounds memory


@dataclass
class Corpus:
    sent_lens: np.ndarray  # int64, one per sentence
    doc_starts: np.ndarray  # indices of sentences that begin a document
    words: np.ndarray  # object array of str, one per token
    gold: np.ndarray  # int8 tag ids
    pred: np.ndarray  # int8 tag ids
    n_gold_entities: int


def sentence_lengths(rng: np.random.Generator, n_tokens: int) -> np.ndarray:
    """Draw 5-30 token sentence lengths summing to exactly ``n_tokens``."""
    if n_tokens < MIN_SENT:
        raise SystemExit(f"--tokens must be at least {MIN_SENT}")
    estimate = n_tokens // ((MIN_SENT + MAX_SENT) // 2) + 16
    lens = rng.integers(MIN_SENT, MAX_SENT + 1, size=estimate)
    while lens.sum() < n_tokens:
        lens = np.concatenate([lens, rng.integers(MIN_SENT, MAX_SENT + 1, size=estimate // 4 + 16)])
    n_sents = int(np.searchsorted(np.cumsum(lens), n_tokens)) + 1
    lens = lens[:n_sents].copy()
    excess = int(lens.sum()) - n_tokens
    i = n_sents - 1
    while excess > 0:  # shorten the last sentences, never below MIN_SENT
        cut = min(excess, int(lens[i]) - MIN_SENT)
        lens[i] -= cut
        excess -= cut
        i -= 1
    return lens


def document_starts(rng: np.random.Generator, n_sents: int) -> np.ndarray:
    sizes = rng.integers(DOC_SENTS[0], DOC_SENTS[1] + 1, size=n_sents // DOC_SENTS[0] + 2)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    return starts[starts < n_sents]


def gold_entities(
    rng: np.random.Generator, sent_lens: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Place gold entities as a renewal process of O gaps and entities, clipped at sentence ends.

    Returns (starts, lengths, types) of non-overlapping spans that never cross a sentence boundary.
    """
    n_tokens = int(sent_lens.sum())
    sent_end = np.repeat(np.cumsum(sent_lens), sent_lens)  # exclusive end of each token's sentence
    mean_len = float(ENTITY_LEN_P @ np.arange(1, 5))
    # Clipping at sentence ends and gaps that run over sentence ends lose a little; aim slightly higher.
    mean_gap = mean_len * (1 - INSIDE_FRACTION) / INSIDE_FRACTION * 0.94
    n_units = int(n_tokens / (mean_len + mean_gap) * 1.1) + 16
    gaps = rng.geometric(1.0 / mean_gap, size=n_units)
    gaps[rng.random(n_units) < ADJACENT_P] = 0
    lens = rng.choice(np.arange(1, 5), size=n_units, p=ENTITY_LEN_P)
    starts = np.cumsum(gaps + lens) - lens
    keep = starts < n_tokens
    starts, lens = starts[keep], lens[keep]
    lens = np.minimum(lens, sent_end[starts] - starts)
    types = rng.integers(0, N_TYPES, size=len(starts))
    return starts, lens, types


def render(
    n_tokens: int, starts: np.ndarray, lens: np.ndarray, types: np.ndarray, i_start: np.ndarray | None = None
) -> np.ndarray:
    """Tag ids for spans; later spans overwrite earlier ones where they overlap."""
    tags = np.zeros(n_tokens, dtype=np.int8)
    first = 1 + 2 * types
    if i_start is not None:
        first = first + i_start.astype(first.dtype)
    tags[starts] = first
    inner = lens > 1
    reps = lens[inner] - 1
    if reps.size:
        span_starts = np.repeat(starts[inner], reps)
        offsets = np.arange(int(reps.sum())) - np.repeat(np.cumsum(reps) - reps, reps) + 1
        tags[span_starts + offsets] = np.repeat(2 + 2 * types[inner], reps)
    return tags


def noisy_prediction(
    rng: np.random.Generator,
    sent_lens: np.ndarray,
    gold: np.ndarray,
    starts: np.ndarray,
    lens: np.ndarray,
    types: np.ndarray,
) -> np.ndarray:
    n_tokens = len(gold)
    n_ents = len(starts)
    sent_start = np.repeat(np.cumsum(sent_lens) - sent_lens, sent_lens)
    sent_end = np.repeat(np.cumsum(sent_lens), sent_lens)
    names = list(NOISE_P)
    probs = np.array([NOISE_P[k] for k in names])
    op = rng.choice(len(names) + 1, size=n_ents, p=[*probs, 1.0 - probs.sum()])

    def chosen(name: str) -> np.ndarray:
        return op == names.index(name)

    p_starts, p_lens, p_types = starts.copy(), lens.copy(), types.copy()

    swap = chosen("swap")
    p_types[swap] = (types[swap] + rng.integers(1, N_TYPES, size=int(swap.sum()))) % N_TYPES

    # Boundary: 0 = extend left, 1 = extend right, 2 = shrink left, 3 = shrink right, where possible.
    boundary = np.flatnonzero(chosen("boundary"))
    kind = rng.integers(0, 4, size=len(boundary))
    b_start, b_end = starts[boundary], starts[boundary] + lens[boundary]
    left_free = (b_start > sent_start[b_start]) & (gold[np.maximum(b_start - 1, 0)] == 0)
    right_free = (b_end < sent_end[b_start]) & (gold[np.minimum(b_end, n_tokens - 1)] == 0)
    can_shrink = lens[boundary] > 1
    ext_l = boundary[(kind == 0) & left_free]
    ext_r = boundary[(kind == 1) & right_free]
    shr_l = boundary[(kind == 2) & can_shrink]
    shr_r = boundary[(kind == 3) & can_shrink]
    p_starts[ext_l] -= 1
    p_lens[ext_l] += 1
    p_lens[ext_r] += 1
    p_starts[shr_l] += 1
    p_lens[shr_l] -= 1
    p_lens[shr_r] -= 1

    i_start = chosen("i_start")
    keep = ~chosen("drop")

    # Spurious entities of 1-2 tokens on gold-O tokens, rendered first so that real spans win overlaps.
    outside = np.flatnonzero(gold == 0)
    s_starts = np.sort(rng.choice(outside, size=int(len(outside) * SPURIOUS_PER_TOKEN), replace=False))
    s_lens = rng.integers(1, 3, size=len(s_starts))
    nxt = np.minimum(s_starts + 1, n_tokens - 1)
    s_lens[(s_starts + 1 >= sent_end[s_starts]) | (gold[nxt] != 0)] = 1
    s_types = rng.integers(0, N_TYPES, size=len(s_starts))
    s_i_start = rng.random(len(s_starts)) < SPURIOUS_I_START_P

    pred = render(
        n_tokens,
        np.concatenate([s_starts, p_starts[keep]]),
        np.concatenate([s_lens, p_lens[keep]]),
        np.concatenate([s_types, p_types[keep]]),
        np.concatenate([s_i_start, i_start[keep]]),
    )

    # Mixed: the last token of a multi-token entity gets I- of another type.
    mixed = chosen("mixed") & (lens > 1)
    last = starts[mixed] + lens[mixed] - 1
    other = (types[mixed] + rng.integers(1, N_TYPES, size=len(last))) % N_TYPES
    pred[last] = 2 + 2 * other
    return pred


def make_words(rng: np.random.Generator, n: int, capitalized: bool) -> list[str]:
    """Pseudo-words of 1-4 syllables; none starts with '-', so none is a boundary marker."""
    onsets = ("", "b", "br", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "st", "t", "v", "w")
    nuclei = ("a", "e", "i", "o", "u", "an", "er", "on")
    syllables = np.array([o + v for o in onsets for v in nuclei], dtype=object)
    n_syll = rng.integers(1, 5, size=n)
    parts = syllables[rng.integers(0, len(syllables), size=int(n_syll.sum()))].tolist()
    bounds = np.concatenate([[0], np.cumsum(n_syll)]).tolist()
    words = ["".join(parts[a:b]) for a, b in itertools.pairwise(bounds)]
    return [w.capitalize() for w in words] if capitalized else words


def draw_words(rng: np.random.Generator, gold: np.ndarray) -> np.ndarray:
    """Zipf-like draws: lower-case words and punctuation outside entities, capitalized inside."""
    common = [".", ",", "the", "of", "and", "to", "in", "a", '"', "(", ")", "'s", "-", ":", "%"]
    plain = np.array(common + make_words(rng, 20_000, capitalized=False), dtype=object)
    names = np.array(make_words(rng, 20_000, capitalized=True), dtype=object)

    def zipf(vocab: np.ndarray, size: int) -> np.ndarray:
        weights = 1.0 / np.arange(1, len(vocab) + 1)
        cdf = np.cumsum(weights / weights.sum())
        idx = np.minimum(np.searchsorted(cdf, rng.random(size)), len(vocab) - 1)
        return vocab[idx]

    words = np.empty(len(gold), dtype=object)
    inside = gold != 0
    words[~inside] = zipf(plain, int((~inside).sum()))
    words[inside] = zipf(names, int(inside.sum()))
    return words


def generate(n_tokens: int, seed: int) -> Corpus:
    rng = np.random.default_rng(seed)
    sent_lens = sentence_lengths(rng, n_tokens)
    doc_starts = document_starts(rng, len(sent_lens))
    starts, lens, types = gold_entities(rng, sent_lens)
    gold = render(n_tokens, starts, lens, types)
    pred = noisy_prediction(rng, sent_lens, gold, starts, lens, types)
    words = draw_words(rng, gold)
    return Corpus(sent_lens, doc_starts, words, gold, pred, len(starts))


def write_columns(path: Path, corpus: Corpus, columns: list[np.ndarray], docstart: str) -> None:
    """Write ``word col...`` lines, rendering CHUNK_SENTENCES sentences at a time."""
    tag_names = np.array(TAGS, dtype=object)
    if len(columns) == 2:
        pair = np.array([f" {g} {p}" for g in TAGS for p in TAGS], dtype=object)
        suffix_ids = columns[0].astype(np.int64) * len(TAGS) + columns[1]
        suffixes = pair
    else:
        suffix_ids = columns[0].astype(np.int64)
        suffixes = np.array([" " + t for t in tag_names], dtype=object)
    sent_ends = np.cumsum(corpus.sent_lens)
    sent_starts = sent_ends - corpus.sent_lens
    is_doc_start = np.zeros(len(corpus.sent_lens), dtype=bool)
    is_doc_start[corpus.doc_starts] = True
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for first in range(0, len(corpus.sent_lens), CHUNK_SENTENCES):
            last = min(first + CHUNK_SENTENCES, len(corpus.sent_lens))
            lo, hi = int(sent_starts[first]), int(sent_ends[last - 1])
            lines = corpus.words[lo:hi] + suffixes[suffix_ids[lo:hi]]
            lines[sent_ends[first:last] - 1 - lo] += "\n"  # blank line after every sentence
            docs = sent_starts[first:last][is_doc_start[first:last]] - lo
            lines[docs] = docstart + "\n\n" + lines[docs]
            out.write("\n".join(lines.tolist()))
            out.write("\n")


def summary(corpus: Corpus, seconds: float) -> str:
    gold, pred = corpus.gold, corpus.pred
    n = len(gold)
    prev = np.concatenate([[0], pred[:-1]])
    sent_first = np.zeros(n, dtype=bool)
    sent_first[np.cumsum(corpus.sent_lens) - corpus.sent_lens] = True
    prev[sent_first] = 0
    is_i = (pred > 0) & (pred % 2 == 0)
    o_to_i = int((is_i & (prev == 0)).sum())
    type_change = int((is_i & (prev > 0) & ((prev - 1) // 2 != (pred - 1) // 2)).sum())
    return (
        f"gen_corpus: {n} tokens, {len(corpus.sent_lens)} sentences, {len(corpus.doc_starts)} documents, "
        f"{corpus.n_gold_entities} gold entities, {(gold != 0).mean():.2%} of tokens inside gold entities, "
        f"{(gold != pred).mean():.2%} of predicted tags differ, "
        f"{o_to_i} O->I-X and {type_change} X->I-Y predicted transitions, {seconds:.1f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_prefix", type=Path, help="writes OUT_PREFIX.txt (and .gold.txt/.pred.txt)")
    parser.add_argument("--tokens", type=int, default=1_000_000, help="sentence tokens (default 1000000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--split", action="store_true", help="also write OUT_PREFIX.gold.txt and .pred.txt")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    corpus = generate(args.tokens, args.seed)
    prefix: Path = args.out_prefix
    prefix.parent.mkdir(parents=True, exist_ok=True)
    write_columns(Path(f"{prefix}.txt"), corpus, [corpus.gold, corpus.pred], "-DOCSTART- O O")
    if args.split:
        write_columns(Path(f"{prefix}.gold.txt"), corpus, [corpus.gold], "-DOCSTART- O")
        write_columns(Path(f"{prefix}.pred.txt"), corpus, [corpus.pred], "-DOCSTART- O")
    print(summary(corpus, time.perf_counter() - t0), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
