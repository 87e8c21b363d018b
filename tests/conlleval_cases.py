r"""Tricky inputs for conlleval.pl with their exact expected outputs.

Every ``stdout`` and ``status`` below was produced by running the reference
script conlleval.pl, version 2004-01-26 (Erik Tjong Kim Sang), under perl
5.36.0, as ``perl conlleval.pl [args] < input``.  The copy used had
md5 ab1d982c6c2229d74bc66e446db4b68f.  Stderr was not recorded and is not part of
the expected result.  ``nerve conlleval`` is meant to be a byte-identical
drop-in replacement, so it should print exactly ``stdout`` and exit with
``status`` on the same stdin bytes and arguments.

Notes on the table:

* Behaviours are described in ../shared/research/peers-chunk.md, sections
  1, 7 and 8.  Cases named ``s7_*`` are the 20 differential cases of section 7
  as merged ``tok gold pred`` input (``/`` there is a blank line here).
* CRLF input is deliberately absent: nerve intentionally differs from Perl
  there (Perl keeps the ``\r`` on the guessed tag).
* Exit status 255 comes from Perl ``die``, 1 from the explicit ``exit(1)`` on
  an inconsistent field count; in both cases stdout is empty.
* ``-d`` is a Perl regular expression; ``("-d", "\\t")`` is the two
  characters backslash and ``t``, as a shell passes ``-d '\t'``.
* The literals were pasted in by a throwaway script; this module never runs
  perl.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class ConllevalCase:
    name: str
    input: bytes  # the exact stdin bytes
    args: tuple[str, ...]  # command-line options, e.g. ("-l",) or ("-d", "\\t")
    stdout: bytes  # exact expected stdout
    status: int  # expected exit status


# One line of input or output per bytes literal; keep that layout.
# fmt: off
CASES: list[ConllevalCase] = [
    # peers-chunk.md s7 01_iob2_clean: gold `B-PER I-PER O B-LOC I-LOC O B-ORG` / pred `B-PER I-PER O
    # B-LOC O O B-ORG`
    ConllevalCase(
        name="s7_01_iob2_clean",
        input=(
            b"w1 B-PER B-PER\n"
            b"w2 I-PER I-PER\n"
            b"w3 O O\n"
            b"w4 B-LOC B-LOC\n"
            b"w5 I-LOC O\n"
            b"w6 O O\n"
            b"w7 B-ORG B-ORG\n"
        ),
        args=(),
        stdout=(
            b"processed 7 tokens with 3 phrases; found: 3 phrases; correct: 2.\n"
            b"accuracy:  85.71%; precision:  66.67%; recall:  66.67%; FB1:  66.67\n"
            b"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 02_I_after_O_pred: gold `B-ORG I-ORG O O` / pred `I-ORG I-ORG O O`
    ConllevalCase(
        name="s7_02_I_after_O_pred",
        input=(
            b"w1 B-ORG I-ORG\n"
            b"w2 I-ORG I-ORG\n"
            b"w3 O O\n"
            b"w4 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  75.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 03_I_after_O_gold: gold `O I-ORG I-ORG O` / pred `O B-ORG I-ORG O`
    ConllevalCase(
        name="s7_03_I_after_O_gold",
        input=(
            b"w1 O O\n"
            b"w2 I-ORG B-ORG\n"
            b"w3 I-ORG I-ORG\n"
            b"w4 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  75.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 04_B-X_I-Y: gold `B-PER I-PER O` / pred `B-PER I-LOC O`
    ConllevalCase(
        name="s7_04_B-X_I-Y",
        input=(
            b"w1 B-PER B-PER\n"
            b"w2 I-PER I-LOC\n"
            b"w3 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 2 phrases; correct: 0.\n"
            b"accuracy:  66.67%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 05_I-X_I-Y: gold `B-PER I-PER I-LOC O` / pred `B-PER I-PER B-LOC O`
    ConllevalCase(
        name="s7_05_I-X_I-Y",
        input=(
            b"w1 B-PER B-PER\n"
            b"w2 I-PER I-PER\n"
            b"w3 I-LOC B-LOC\n"
            b"w4 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy:  75.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 06_IOB1_input: gold `I-PER I-PER B-PER O I-LOC` / pred `I-PER I-PER I-PER O I-LOC`
    ConllevalCase(
        name="s7_06_IOB1_input",
        input=(
            b"w1 I-PER I-PER\n"
            b"w2 I-PER I-PER\n"
            b"w3 B-PER I-PER\n"
            b"w4 O O\n"
            b"w5 I-LOC I-LOC\n"
        ),
        args=(),
        stdout=(
            b"processed 5 tokens with 3 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  80.00%; precision:  50.00%; recall:  33.33%; FB1:  40.00\n"
            b"              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 07_sentence_break: gold `O B-PER / I-PER O` / pred `O B-PER / B-PER O`
    ConllevalCase(
        name="s7_07_sentence_break",
        input=(
            b"w1 O O\n"
            b"w2 B-PER B-PER\n"
            b"\n"
            b"w3 I-PER B-PER\n"
            b"w4 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy:  75.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 08_IOBES_E_then_B: gold `B-MISC E-MISC B-MISC E-MISC` / pred `B-MISC I-MISC I-MISC
    # E-MISC`
    ConllevalCase(
        name="s7_08_IOBES_E_then_B",
        input=(
            b"w1 B-MISC B-MISC\n"
            b"w2 E-MISC I-MISC\n"
            b"w3 B-MISC I-MISC\n"
            b"w4 E-MISC E-MISC\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  50.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"             MISC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 09_IOBES_S_S: gold `S-PER S-PER O` / pred `B-PER E-PER O`
    ConllevalCase(
        name="s7_09_IOBES_S_S",
        input=(
            b"w1 S-PER B-PER\n"
            b"w2 S-PER E-PER\n"
            b"w3 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  33.33%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 10_IOBES_missing_E: gold `B-LOC E-LOC O` / pred `B-LOC I-LOC O`
    ConllevalCase(
        name="s7_10_IOBES_missing_E",
        input=(
            b"w1 B-LOC B-LOC\n"
            b"w2 E-LOC I-LOC\n"
            b"w3 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  66.67%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 11_IOBES_no_B: gold `B-LOC E-LOC O` / pred `I-LOC E-LOC O`
    ConllevalCase(
        name="s7_11_IOBES_no_B",
        input=(
            b"w1 B-LOC I-LOC\n"
            b"w2 E-LOC E-LOC\n"
            b"w3 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  66.67%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 12_BILOU: gold `B-PER L-PER U-PER` / pred `U-PER U-PER U-PER`
    ConllevalCase(
        name="s7_12_BILOU",
        input=(
            b"w1 B-PER U-PER\n"
            b"w2 L-PER U-PER\n"
            b"w3 U-PER U-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  33.33%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 13_IOE2: gold `I-NP E-NP I-NP E-NP` / pred `I-NP I-NP I-NP E-NP`
    ConllevalCase(
        name="s7_13_IOE2",
        input=(
            b"w1 I-NP I-NP\n"
            b"w2 E-NP I-NP\n"
            b"w3 I-NP I-NP\n"
            b"w4 E-NP E-NP\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 2 phrases; found: 1 phrases; correct: 0.\n"
            b"accuracy:  75.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"               NP: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 14_empty_pred: gold `B-PER I-PER O B-LOC` / pred `O O O O`
    ConllevalCase(
        name="s7_14_empty_pred",
        input=(
            b"w1 B-PER O\n"
            b"w2 I-PER O\n"
            b"w3 O O\n"
            b"w4 B-LOC O\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 2 phrases; found: 0 phrases; correct: 0.\n"
            b"accuracy:  25.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 15_all_O: gold `O O O` / pred `O O O`
    ConllevalCase(
        name="s7_15_all_O",
        input=(
            b"w1 O O\n"
            b"w2 O O\n"
            b"w3 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"
            b"accuracy: 100.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 16_spurious_only: gold `O O O` / pred `O B-PER O`
    ConllevalCase(
        name="s7_16_spurious_only",
        input=(
            b"w1 O O\n"
            b"w2 O B-PER\n"
            b"w3 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 0 phrases; found: 1 phrases; correct: 0.\n"
            b"accuracy:  66.67%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 17_untyped_tags: gold `B I O B` / pred `B I O I`
    ConllevalCase(
        name="s7_17_untyped_tags",
        input=(
            b"w1 B B\n"
            b"w2 I I\n"
            b"w3 O O\n"
            b"w4 B I\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy:  75.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
            b"                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 18_lowercase_prefix: gold `b-PER i-PER O` / pred `B-PER I-PER O`
    ConllevalCase(
        name="s7_18_lowercase_prefix",
        input=(
            b"w1 b-PER B-PER\n"
            b"w2 i-PER I-PER\n"
            b"w3 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  33.33%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 19_I_after_O_both: gold `B-PER I-PER I-PER O` / pred `B-PER O I-PER O`
    ConllevalCase(
        name="s7_19_I_after_O_both",
        input=(
            b"w1 B-PER B-PER\n"
            b"w2 I-PER O\n"
            b"w3 I-PER I-PER\n"
            b"w4 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 1 phrases; found: 2 phrases; correct: 0.\n"
            b"accuracy:  75.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
        ),
        status=0,
    ),
    # peers-chunk.md s7 20_B_after_E_type: gold `B-A E-A S-A B-B E-B` / pred `B-A E-A S-A B-B E-B`
    ConllevalCase(
        name="s7_20_B_after_E_type",
        input=(
            b"w1 B-A B-A\n"
            b"w2 E-A E-A\n"
            b"w3 S-A S-A\n"
            b"w4 B-B B-B\n"
            b"w5 E-B E-B\n"
        ),
        args=(),
        stdout=(
            b"processed 5 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"                A: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                B: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # peers-chunk.md s1 example; the -DOCSTART- line counts as a token (13)
    ConllevalCase(
        name="example_docstart",
        input=(
            b"-DOCSTART- O O\n"
            b"\n"
            b"John B-PER B-PER\n"
            b"Smith I-PER I-PER\n"
            b"visited O O\n"
            b"New B-LOC B-LOC\n"
            b"York I-LOC B-LOC\n"
            b". O O\n"
            b"\n"
            b"The O O\n"
            b"UN B-ORG B-MISC\n"
            b"said O O\n"
            b"Kofi B-PER I-PER\n"
            b"Annan I-PER I-PER\n"
            b". O O\n"
        ),
        args=(),
        stdout=(
            b"processed 13 tokens with 4 phrases; found: 5 phrases; correct: 2.\n"
            b"accuracy:  76.92%; precision:  40.00%; recall:  50.00%; FB1:  44.44\n"
            b"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
            b"             MISC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              ORG: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
        ),
        status=0,
    ),
    # s1 example with -l (LaTeX table, no overall header)
    ConllevalCase(
        name="example_docstart_latex",
        input=(
            b"-DOCSTART- O O\n"
            b"\n"
            b"John B-PER B-PER\n"
            b"Smith I-PER I-PER\n"
            b"visited O O\n"
            b"New B-LOC B-LOC\n"
            b"York I-LOC B-LOC\n"
            b". O O\n"
            b"\n"
            b"The O O\n"
            b"UN B-ORG B-MISC\n"
            b"said O O\n"
            b"Kofi B-PER I-PER\n"
            b"Annan I-PER I-PER\n"
            b". O O\n"
        ),
        args=("-l",),
        stdout=(
            b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\n"
            b"LOC     &    0.00\\% &   0.00\\% &   0.00 \\\\\n"
            b"MISC    &    0.00\\% &   0.00\\% &   0.00 \\\\\n"
            b"ORG     &    0.00\\% &   0.00\\% &   0.00 \\\\\n"
            b"PER     &  100.00\\% & 100.00\\% & 100.00 \\\\\\hline\n"
            b"Overall &   40.00\\% &  50.00\\% &  44.44 \\\\\\hline\n"
        ),
        status=0,
    ),
    # s1 example with -r -l: every non-O tag is its own chunk
    ConllevalCase(
        name="example_docstart_raw_latex",
        input=(
            b"-DOCSTART- O O\n"
            b"\n"
            b"John B-PER B-PER\n"
            b"Smith I-PER I-PER\n"
            b"visited O O\n"
            b"New B-LOC B-LOC\n"
            b"York I-LOC B-LOC\n"
            b". O O\n"
            b"\n"
            b"The O O\n"
            b"UN B-ORG B-MISC\n"
            b"said O O\n"
            b"Kofi B-PER I-PER\n"
            b"Annan I-PER I-PER\n"
            b". O O\n"
        ),
        args=("-r", "-l"),
        stdout=(
            b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\n"
            b"B-LOC   &   50.00\\% & 100.00\\% &  66.67 \\\\\n"
            b"B-MISC  &    0.00\\% &   0.00\\% &   0.00 \\\\\n"
            b"B-ORG   &    0.00\\% &   0.00\\% &   0.00 \\\\\n"
            b"B-PER   &  100.00\\% &  50.00\\% &  66.67 \\\\\n"
            b"I-LOC   &    0.00\\% &   0.00\\% &   0.00 \\\\\n"
            b"I-PER   &   66.67\\% & 100.00\\% &  80.00 \\\\\\hline\n"
            b"Overall &   57.14\\% &  57.14\\% &  57.14 \\\\\\hline\n"
        ),
        status=0,
    ),
    # -X- lines (first field -X-) separate sentences and are not tokens; I-PER after the boundary starts a
    # new chunk
    ConllevalCase(
        name="boundary_X_lines",
        input=(
            b"a B-PER B-PER\n"
            b"b I-PER I-PER\n"
            b"-X- O O\n"
            b"c I-PER I-PER\n"
            b"d O O\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
        ),
        status=0,
    ),
    # a -X- line whose tags are not O is still a boundary: tags forced to O, not counted as a token
    ConllevalCase(
        name="boundary_X_tags_not_O",
        input=(
            b"a B-PER B-PER\n"
            b"-X- B-PER B-LOC\n"
            b"b I-PER I-PER\n"
            b"-X- I-LOC O\n"
            b"c B-LOC B-LOC\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 3 phrases; found: 3 phrases; correct: 3.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
        ),
        status=0,
    ),
    # -X- only counts in the first field; lower-case -x- is an ordinary token
    ConllevalCase(
        name="boundary_X_only_first_field",
        input=(
            b"-x- B-PER B-PER\n"
            b"a I-PER I-PER\n"
            b"b -X- O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 2 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  66.67%; precision: 100.00%; recall:  50.00%; FB1:  66.67\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"               X-: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
        ),
        status=0,
    ),
    # first line `-X-` alone fixes the field count at 1; the following 3-field line is an error (exit 1)
    ConllevalCase(
        name="boundary_X_alone_first_line",
        input=(
            b"-X-\n"
            b"a B-PER B-PER\n"
        ),
        args=(),
        stdout=b"",
        status=1,
    ),
    # first line `-X-` alone fixes the count at 1; a later 1-field non-boundary line dies (exit 255)
    ConllevalCase(
        name="boundary_X_alone_then_one_field",
        input=(
            b"-X-\n"
            b"-X-\n"
            b"q\n"
        ),
        args=(),
        stdout=b"",
        status=255,
    ),
    # only `-X-` lines: all boundaries, header line only
    ConllevalCase(
        name="boundary_X_alone_only",
        input=(
            b"-X-\n"
            b"-X-\n"
        ),
        args=(),
        stdout=b"processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n",
        status=0,
    ),
    # the field-count check runs before the boundary check: a bare -X- line in 3-field input is an error
    # (exit 1)
    ConllevalCase(
        name="boundary_X_count_mismatch",
        input=(
            b"a B-PER B-PER\n"
            b"-X-\n"
            b"b B-LOC B-LOC\n"
        ),
        args=(),
        stdout=b"",
        status=1,
    ),
    # no input at all: header line only
    ConllevalCase(
        name="empty_input",
        input=b"",
        args=(),
        stdout=b"processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n",
        status=0,
    ),
    # only blank lines: header line only
    ConllevalCase(
        name="only_blank_lines",
        input=(
            b"\n"
            b"\n"
            b"\n"
        ),
        args=(),
        stdout=b"processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n",
        status=0,
    ),
    # lines of spaces split to no fields (trailing empty fields dropped), so they are boundaries and do
    # not fix the field count
    ConllevalCase(
        name="only_space_lines",
        input=(
            b"   \n"
            b" \n"
        ),
        args=(),
        stdout=b"processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n",
        status=0,
    ),
    # a line of spaces between sentences acts as a blank line
    ConllevalCase(
        name="space_line_as_boundary",
        input=(
            b" \n"
            b"a B-PER B-PER\n"
            b"  \n"
            b"b I-PER I-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 2 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
        ),
        status=0,
    ),
    # last line without a newline
    ConllevalCase(
        name="no_trailing_newline",
        input=(
            b"a B-PER B-PER\n"
            b"b I-PER O"
        ),
        args=(),
        stdout=(
            b"processed 2 tokens with 1 phrases; found: 1 phrases; correct: 0.\n"
            b"accuracy:  50.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # -l on empty input
    ConllevalCase(
        name="latex_empty_input",
        input=b"",
        args=("-l",),
        stdout=(
            b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\\hline\n"
            b"Overall &    0.00\\% &   0.00\\% &   0.00 \\\\\\hline\n"
        ),
        status=0,
    ),
    # untyped B/I/O tags: type is the empty string (printed twice)
    ConllevalCase(
        name="untyped_bio",
        input=(
            b"w1 B B\n"
            b"w2 I I\n"
            b"w3 O O\n"
            b"w4 B B\n"
            b"w5 I O\n"
            b"w6 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 6 tokens with 2 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  83.33%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            b"                 : precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
            b"                 : precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
        ),
        status=0,
    ),
    # bare S (no type) neither starts nor ends a chunk; the B chunk it follows is not closed by O
    ConllevalCase(
        name="untyped_S_never_closed",
        input=(
            b"w1 B B\n"
            b"w2 S O\n"
            b"w3 O O\n"
            b"w4 O O\n"
            b"w5 B B\n"
        ),
        args=(),
        stdout=(
            b"processed 5 tokens with 2 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  80.00%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            b"                 : precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
            b"                 : precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
        ),
        status=0,
    ),
    # bare S after O is not a chunk start; only the B starts are counted
    ConllevalCase(
        name="untyped_S_after_O",
        input=(
            b"w1 O O\n"
            b"w2 S S\n"
            b"w3 S O\n"
            b"w4 B B\n"
            b"w5 S O\n"
            b"w6 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 6 tokens with 0 phrases; found: 1 phrases; correct: 0.\n"
            b"accuracy:  66.67%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # EACL'99 bracket tags: [ and ] are one-token chunks, . is exempt from the type rule
    ConllevalCase(
        name="bracket_tags",
        input=(
            b"w1 [ [\n"
            b"w2 . .\n"
            b"w3 ] .\n"
            b"w4 O O\n"
            b"w5 [ [\n"
            b"w6 ] O\n"
        ),
        args=(),
        stdout=(
            b"processed 6 tokens with 4 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy:  66.67%; precision: 100.00%; recall:  50.00%; FB1:  66.67\n"
            b"                 : precision: 100.00%; recall:  50.00%; FB1:  66.67  2\n"
            b"                 : precision: 100.00%; recall:  50.00%; FB1:  66.67  2\n"
        ),
        status=0,
    ),
    # typed bracket tags [-NP, ]-NP and .-NP mixed with O
    ConllevalCase(
        name="bracket_tags_typed",
        input=(
            b"w1 [-NP [-NP\n"
            b"w2 .-NP .-NP\n"
            b"w3 ]-NP .-NP\n"
            b"w4 O O\n"
            b"w5 [-VP [-NP\n"
        ),
        args=(),
        stdout=(
            b"processed 5 tokens with 3 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  60.00%; precision:  50.00%; recall:  33.33%; FB1:  40.00\n"
            b"               NP: precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
            b"               VP: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
        ),
        status=0,
    ),
    # B-0 has type `0`, which Perl truthiness turns into the empty type; B-00 stays `00`
    ConllevalCase(
        name="type_zero",
        input=(
            b"w1 B-0 B-0\n"
            b"w2 I-0 I-0\n"
            b"w3 O O\n"
            b"w4 B-00 B-00\n"
            b"w5 O O\n"
        ),
        args=(),
        stdout=(
            b"processed 5 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"               00: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # B-0, B- and B all have the empty type, so they match each other (chunks and accuracy)
    ConllevalCase(
        name="type_zero_vs_untyped",
        input=(
            b"w1 B-0 B\n"
            b"w2 O O\n"
            b"w3 B- B-0\n"
            b"w4 O O\n"
            b"w5 B B-\n"
        ),
        args=(),
        stdout=(
            b"processed 5 tokens with 3 phrases; found: 3 phrases; correct: 3.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  3\n"
            b"                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  3\n"
        ),
        status=0,
    ),
    # type `B-` (empty) in gold and pred: the empty-type line is printed twice
    ConllevalCase(
        name="empty_type_doubled",
        input=(
            b"w1 B- B-\n"
            b"w2 I- O\n"
            b"w3 O O\n"
            b"w4 B-PER B-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 2 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  75.00%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            b"                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # empty type only in gold: printed once
    ConllevalCase(
        name="empty_type_gold_only",
        input=(
            b"w1 B- O\n"
            b"w2 I- O\n"
            b"w3 O O\n"
            b"w4 B-PER B-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 2 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy:  50.00%; precision: 100.00%; recall:  50.00%; FB1:  66.67\n"
            b"                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # empty type only in pred: printed once
    ConllevalCase(
        name="empty_type_pred_only",
        input=(
            b"w1 O B-\n"
            b"w2 O I-\n"
            b"w3 O O\n"
            b"w4 B-PER B-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 1 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  50.00%; precision:  50.00%; recall: 100.00%; FB1:  66.67\n"
            b"                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # types keep everything after the first hyphen: Generic-Measure, PER-X
    ConllevalCase(
        name="type_with_hyphens",
        input=(
            b"w1 B-Generic-Measure B-Generic-Measure\n"
            b"w2 I-Generic-Measure I-Generic-Measure\n"
            b"w3 O O\n"
            b"w4 B-PER-X B-PER-X\n"
            b"w5 I-PER-X B-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 5 tokens with 2 phrases; found: 3 phrases; correct: 1.\n"
            b"accuracy:  80.00%; precision:  33.33%; recall:  50.00%; FB1:  40.00\n"
            b"  Generic-Measure: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"            PER-X: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # non-ASCII UTF-8 type names: %17s pads by bytes (ÖRG is 4 bytes -> 13 spaces)
    ConllevalCase(
        name="type_utf8",
        input=(
            b"w1 B-\xc3\x96RG B-\xc3\x96RG\n"
            b"w2 I-\xc3\x96RG I-\xc3\x96RG\n"
            b"w3 O O\n"
            b"w4 B-PERS\xc3\x96N B-PERS\xc3\x96N\n"
            b"w5 B-\xe6\x97\xa5\xe6\x9c\xac O\n"
        ),
        args=(),
        stdout=(
            b"processed 5 tokens with 3 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy:  80.00%; precision: 100.00%; recall:  66.67%; FB1:  80.00\n"
            b"          PERS\xc3\x96N: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"             \xc3\x96RG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"           \xe6\x97\xa5\xe6\x9c\xac: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
        ),
        status=0,
    ),
    # non-ASCII UTF-8 type names with -l: %-7s pads by bytes
    ConllevalCase(
        name="type_utf8_latex",
        input=(
            b"w1 B-\xc3\x96RG B-\xc3\x96RG\n"
            b"w2 I-\xc3\x96RG I-\xc3\x96RG\n"
            b"w3 O O\n"
            b"w4 B-\xe6\x97\xa5\xe6\x9c\xac B-\xe6\x97\xa5\xe6\x9c\xac\n"
        ),
        args=("-l",),
        stdout=(
            b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\n"
            b"\xc3\x96RG    &  100.00\\% & 100.00\\% & 100.00 \\\\\n"
            b"\xe6\x97\xa5\xe6\x9c\xac  &  100.00\\% & 100.00\\% & 100.00 \\\\\\hline\n"
            b"Overall &  100.00\\% & 100.00\\% & 100.00 \\\\\\hline\n"
        ),
        status=0,
    ),
    # type names longer than 17 bytes are printed in full, not truncated
    ConllevalCase(
        name="type_long",
        input=(
            b"w1 B-VERY_LONG_ENTITY_TYPE_NAME B-VERY_LONG_ENTITY_TYPE_NAME\n"
            b"w2 I-VERY_LONG_ENTITY_TYPE_NAME O\n"
            b"w3 O O\n"
            b"w4 B-X B-X\n"
        ),
        args=(),
        stdout=(
            b"processed 4 tokens with 2 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  75.00%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            b"VERY_LONG_ENTITY_TYPE_NAME: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"                X: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # long and empty type names with -l
    ConllevalCase(
        name="type_long_latex",
        input=(
            b"w1 B-VERY_LONG_ENTITY_TYPE_NAME B-VERY_LONG_ENTITY_TYPE_NAME\n"
            b"w2 O O\n"
            b"w3 B- B-\n"
            b"w4 O O\n"
            b"w5 B-X B-Y\n"
        ),
        args=("-l",),
        stdout=(
            b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\n"
            b"        &  100.00\\% & 100.00\\% & 100.00 \\\\\n"
            b"        &  100.00\\% & 100.00\\% & 100.00 \\\\\n"
            b"VERY_LONG_ENTITY_TYPE_NAME &  100.00\\% & 100.00\\% & 100.00 \\\\\n"
            b"X       &    0.00\\% &   0.00\\% &   0.00 \\\\\n"
            b"Y       &    0.00\\% &   0.00\\% &   0.00 \\\\\\hline\n"
            b"Overall &   66.67\\% &  66.67\\% &  66.67 \\\\\\hline\n"
        ),
        status=0,
    ),
    # types sorted by byte order: digits < upper case < _ < lower case
    ConllevalCase(
        name="type_sort_order",
        input=(
            b"w1 B-b B-b\n"
            b"w2 B-a B-a\n"
            b"w3 B-_x B-_x\n"
            b"w4 B-Z B-Z\n"
            b"w5 B-A O\n"
            b"w6 B-10 B-10\n"
            b"w7 B-9 B-9\n"
            b"w8 B-aa B-aa\n"
            b"w9 B-B B-B\n"
        ),
        args=(),
        stdout=(
            b"processed 9 tokens with 9 phrases; found: 8 phrases; correct: 8.\n"
            b"accuracy:  88.89%; precision: 100.00%; recall:  88.89%; FB1:  94.12\n"
            b"               10: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                9: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                A: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
            b"                B: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                Z: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"               _x: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                a: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"               aa: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                b: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # -r: every non-O tag becomes B-<tag>, one chunk per token
    ConllevalCase(
        name="raw_mode",
        input=(
            b"a PER PER\n"
            b"b PER PER\n"
            b"c O O\n"
            b"d LOC ORG\n"
            b"e O LOC\n"
        ),
        args=("-r",),
        stdout=(
            b"processed 5 tokens with 3 phrases; found: 4 phrases; correct: 2.\n"
            b"accuracy:  60.00%; precision:  50.00%; recall:  66.67%; FB1:  57.14\n"
            b"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              ORG: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
        ),
        status=0,
    ),
    # -r with already prefixed tags: B-PER becomes B-B-PER, type `B-PER`
    ConllevalCase(
        name="raw_mode_prefixed_tags",
        input=(
            b"w1 B-PER B-PER\n"
            b"w2 I-PER B-PER\n"
            b"w3 O O\n"
            b"w4 B-LOC I-LOC\n"
        ),
        args=("-r",),
        stdout=(
            b"processed 4 tokens with 3 phrases; found: 3 phrases; correct: 1.\n"
            b"accuracy:  50.00%; precision:  33.33%; recall:  33.33%; FB1:  33.33\n"
            b"            B-LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
            b"            B-PER: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
            b"            I-LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"            I-PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
        ),
        status=0,
    ),
    # -r with a tag `0`: becomes B-0, i.e. the empty type
    ConllevalCase(
        name="raw_mode_zero_tag",
        input=(
            b"a 0 0\n"
            b"b O 0\n"
            b"c X X\n"
        ),
        args=("-r",),
        stdout=(
            b"processed 3 tokens with 2 phrases; found: 3 phrases; correct: 2.\n"
            b"accuracy:  66.67%; precision:  66.67%; recall: 100.00%; FB1:  80.00\n"
            b"                 : precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
            b"                 : precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
            b"                X: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # -r -o NONE: NONE is the outside tag
    ConllevalCase(
        name="raw_mode_o_none",
        input=(
            b"a PER PER\n"
            b"b NONE NONE\n"
            b"c LOC NONE\n"
            b"d NONE LOC\n"
            b"e O O\n"
        ),
        args=("-r", "-o", "NONE"),
        stdout=(
            b"processed 5 tokens with 2 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  60.00%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            b"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # -r without -o: NONE is a chunk type
    ConllevalCase(
        name="raw_mode_no_o_none",
        input=(
            b"a PER PER\n"
            b"b NONE NONE\n"
            b"c LOC NONE\n"
            b"d NONE LOC\n"
            b"e O O\n"
        ),
        args=("-r",),
        stdout=(
            b"processed 5 tokens with 4 phrases; found: 4 phrases; correct: 2.\n"
            b"accuracy:  60.00%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            b"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"             NONE: precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # -o NONE without -r has no effect: NONE tokens form chunks of empty type
    ConllevalCase(
        name="o_without_raw",
        input=(
            b"w1 B-PER B-PER\n"
            b"w2 I-PER I-PER\n"
            b"w3 NONE NONE\n"
            b"w4 NONE B-LOC\n"
            b"w5 B-LOC B-LOC\n"
        ),
        args=("-o", "NONE"),
        stdout=(
            b"processed 5 tokens with 3 phrases; found: 4 phrases; correct: 2.\n"
            b"accuracy:  80.00%; precision:  50.00%; recall:  66.67%; FB1:  57.14\n"
            b"                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              LOC: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # same input as o_without_raw, no options (identical output)
    ConllevalCase(
        name="o_without_raw_baseline",
        input=(
            b"w1 B-PER B-PER\n"
            b"w2 I-PER I-PER\n"
            b"w3 NONE NONE\n"
            b"w4 NONE B-LOC\n"
            b"w5 B-LOC B-LOC\n"
        ),
        args=(),
        stdout=(
            b"processed 5 tokens with 3 phrases; found: 4 phrases; correct: 2.\n"
            b"accuracy:  80.00%; precision:  50.00%; recall:  66.67%; FB1:  57.14\n"
            b"                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"                 : precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              LOC: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # -d '\t' (regex escape) on tab-separated input; a space inside a field is fine
    ConllevalCase(
        name="delim_tab_escape",
        input=(
            b"a\tB-PER\tB-PER\n"
            b"b c\tI-PER\tO\n"
            b"\n"
            b"d\tB-LOC\tB-LOC\n"
        ),
        args=("-d", "\\t"),
        stdout=(
            b"processed 3 tokens with 2 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  66.67%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            b"              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # -d with a literal tab character
    ConllevalCase(
        name="delim_tab_literal",
        input=(
            b"a\tB-PER\tB-PER\n"
            b"b c\tI-PER\tO\n"
            b"\n"
            b"d\tB-LOC\tB-LOC\n"
        ),
        args=("-d", "\t"),
        stdout=(
            b"processed 3 tokens with 2 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  66.67%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            b"              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # tab-separated input with the default space delimiter: one field, die (exit 255), stdout empty
    ConllevalCase(
        name="delim_tab_default_die",
        input=(
            b"a\tB-PER\tB-PER\n"
            b"b\tI-PER\tI-PER\n"
        ),
        args=(),
        stdout=b"",
        status=255,
    ),
    # -d '\t' with trailing tabs: Perl split drops trailing empty fields
    ConllevalCase(
        name="delim_tab_trailing",
        input=(
            b"a\tB-PER\tB-PER\t\n"
            b"b\tI-PER\tI-PER\n"
        ),
        args=("-d", "\\t"),
        stdout=(
            b"processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # -d ' +' regex: runs of spaces are one delimiter
    ConllevalCase(
        name="delim_regex_plus",
        input=(
            b"a  B-PER   B-PER\n"
            b"b I-PER  I-PER\n"
            b"c O O\n"
        ),
        args=("-d", " +"),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # -d ' +' with a leading space gives an empty first field, changing the count (exit 1)
    ConllevalCase(
        name="delim_regex_plus_leading",
        input=(
            b"a B-PER B-PER\n"
            b" b I-PER I-PER\n"
        ),
        args=("-d", " +"),
        stdout=b"",
        status=1,
    ),
    # -d '|' is a regex matching the empty string: every character is a field; lines of different length
    # -> exit 1
    ConllevalCase(
        name="delim_pipe_error",
        input=(
            b"a B-PER B-PER\n"
            b"b O O\n"
        ),
        args=("-d", "|"),
        stdout=b"",
        status=1,
    ),
    # -d '|' with lines of equal length: no error; the last two characters are the tags
    ConllevalCase(
        name="delim_pipe_same_length",
        input=(
            b"a B-X B-X\n"
            b"b O-O O-O\n"
        ),
        args=("-d", "|"),
        stdout=(
            b"processed 2 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"
            b"accuracy:   0.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
        ),
        status=0,
    ),
    # double space after the token on every line: an empty field, but a consistent count of 4
    ConllevalCase(
        name="double_space_consistent",
        input=(
            b"a  B-PER B-PER\n"
            b"b  I-PER O\n"
        ),
        args=(),
        stdout=(
            b"processed 2 tokens with 1 phrases; found: 1 phrases; correct: 0.\n"
            b"accuracy:  50.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # double space on one line only: 4 fields vs 3 (exit 1)
    ConllevalCase(
        name="double_space_mismatch",
        input=(
            b"a B-PER B-PER\n"
            b"b  I-PER I-PER\n"
        ),
        args=(),
        stdout=b"",
        status=1,
    ),
    # double space before the guess tag on every line: the gold tag is the empty field
    ConllevalCase(
        name="double_space_empty_gold",
        input=(
            b"a B-PER  B-PER\n"
            b"b O  O\n"
        ),
        args=(),
        stdout=(
            b"processed 2 tokens with 0 phrases; found: 1 phrases; correct: 0.\n"
            b"accuracy:   0.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        ),
        status=0,
    ),
    # leading space on every line: empty first field, consistent count
    ConllevalCase(
        name="leading_space_consistent",
        input=(
            b" a B-PER B-PER\n"
            b" b I-PER I-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # leading space on the second line only: 4 fields vs 3 (exit 1)
    ConllevalCase(
        name="leading_space_mismatch",
        input=(
            b"a B-PER B-PER\n"
            b" b I-PER I-PER\n"
        ),
        args=(),
        stdout=b"",
        status=1,
    ),
    # leading space before -X-: first field is empty, so the line is a token, not a boundary
    ConllevalCase(
        name="leading_space_hides_boundary",
        input=(
            b" a B-PER B-PER\n"
            b" -X- I-PER I-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # trailing spaces are dropped by Perl split (trailing empty fields), count stays 3
    ConllevalCase(
        name="trailing_spaces",
        input=(
            b"a B-PER B-PER \n"
            b"b I-PER I-PER   \n"
            b"c O O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # 4 fields then 3 fields: `unexpected number of features`, stdout empty, exit 1
    ConllevalCase(
        name="inconsistent_features",
        input=(
            b"a NNP B-PER B-PER\n"
            b"b I-PER I-PER\n"
        ),
        args=(),
        stdout=b"",
        status=1,
    ),
    # error on a late line: nothing printed even though earlier lines were fine
    ConllevalCase(
        name="inconsistent_after_output_lines",
        input=(
            b"a B-PER B-PER\n"
            b"b I-PER I-PER\n"
            b"\n"
            b"c d e f\n"
        ),
        args=(),
        stdout=b"",
        status=1,
    ),
    # a single 1-field line: die (exit 255), stdout empty
    ConllevalCase(
        name="one_field_die",
        input=b"justonefield\n",
        args=(),
        stdout=b"",
        status=255,
    ),
    # 2-field lines (no token column) are valid; the first field is the gold tag
    ConllevalCase(
        name="two_field_input",
        input=(
            b"B-PER B-PER\n"
            b"I-PER I-PER\n"
            b"O B-LOC\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 1 phrases; found: 2 phrases; correct: 1.\n"
            b"accuracy:  66.67%; precision:  50.00%; recall: 100.00%; FB1:  66.67\n"
            b"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # 2-field input: a gold tag of -X- is the first field, so the line is a boundary
    ConllevalCase(
        name="two_field_gold_X_boundary",
        input=(
            b"B-PER B-PER\n"
            b"-X- I-PER\n"
            b"I-PER I-PER\n"
        ),
        args=(),
        stdout=(
            b"processed 2 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
        ),
        status=0,
    ),
    # well-formed IOBES: B I E and S chunks of different types
    ConllevalCase(
        name="iobes_clean",
        input=(
            b"w1 B-PER B-PER\n"
            b"w2 I-PER I-PER\n"
            b"w3 E-PER E-PER\n"
            b"w4 O O\n"
            b"w5 S-LOC S-LOC\n"
            b"w6 O O\n"
            b"w7 S-ORG S-LOC\n"
        ),
        args=(),
        stdout=(
            b"processed 7 tokens with 3 phrases; found: 3 phrases; correct: 2.\n"
            b"accuracy:  85.71%; precision:  66.67%; recall:  66.67%; FB1:  66.67\n"
            b"              LOC: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
            b"              ORG: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
            b"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        ),
        status=0,
    ),
    # IOBES E-X followed by B-X does not split: gold two chunks counted as one
    ConllevalCase(
        name="iobes_E_B_merge",
        input=(
            b"w1 B-X B-X\n"
            b"w2 E-X E-X\n"
            b"w3 B-X O\n"
            b"w4 E-X B-X\n"
            b"w5 O E-X\n"
            b"w6 S-X S-X\n"
        ),
        args=(),
        stdout=(
            b"processed 6 tokens with 2 phrases; found: 2 phrases; correct: 0.\n"
            b"accuracy:  50.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"                X: precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
        ),
        status=0,
    ),
    # IOBES S-X S-X and E-X S-X do not split (same type)
    ConllevalCase(
        name="iobes_S_S_merge",
        input=(
            b"w1 S-X S-X\n"
            b"w2 S-X O\n"
            b"w3 O S-X\n"
            b"w4 B-X B-X\n"
            b"w5 E-X E-X\n"
            b"w6 S-X O\n"
        ),
        args=(),
        stdout=(
            b"processed 6 tokens with 2 phrases; found: 2 phrases; correct: 0.\n"
            b"accuracy:  50.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
            b"                X: precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
        ),
        status=0,
    ),
    # BILOU U-X U-X merges; U-X U-Y splits by the type rule
    ConllevalCase(
        name="bilou_U_U_merge",
        input=(
            b"w1 U-PER U-PER\n"
            b"w2 U-PER O\n"
            b"w3 O U-PER\n"
            b"w4 U-PER U-PER\n"
            b"w5 U-LOC U-LOC\n"
            b"w6 O O\n"
            b"w7 B-LOC B-LOC\n"
            b"w8 L-LOC L-LOC\n"
        ),
        args=(),
        stdout=(
            b"processed 8 tokens with 4 phrases; found: 4 phrases; correct: 2.\n"
            b"accuracy:  75.00%; precision:  50.00%; recall:  50.00%; FB1:  50.00\n"
            b"              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
            b"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
        ),
        status=0,
    ),
    # BMES tags: M is an unknown prefix that acts only through the type rule
    ConllevalCase(
        name="bmes_M_tags",
        input=(
            b"w1 B-X B-X\n"
            b"w2 M-X M-X\n"
            b"w3 E-X E-X\n"
            b"w4 S-Y S-Y\n"
            b"w5 O O\n"
            b"w6 B-Y S-Y\n"
            b"w7 M-Y M-Y\n"
            b"w8 E-Y E-Y\n"
        ),
        args=(),
        stdout=(
            b"processed 8 tokens with 3 phrases; found: 3 phrases; correct: 3.\n"
            b"accuracy:  87.50%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
            b"                X: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                Y: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
        ),
        status=0,
    ),
    # (correct, gold, found) = (1, 1, 63): percent-scale FB1 is 3.13 (0-1 scale would print 3.12)
    ConllevalCase(
        name="rounding_1_1_63",
        input=(
            b"t1 B-X B-X\n"
            b"t2 O B-X\n"
            b"t3 O B-X\n"
            b"t4 O B-X\n"
            b"t5 O B-X\n"
            b"t6 O B-X\n"
            b"t7 O B-X\n"
            b"t8 O B-X\n"
            b"t9 O B-X\n"
            b"t10 O B-X\n"
            b"t11 O B-X\n"
            b"t12 O B-X\n"
            b"t13 O B-X\n"
            b"t14 O B-X\n"
            b"t15 O B-X\n"
            b"t16 O B-X\n"
            b"t17 O B-X\n"
            b"t18 O B-X\n"
            b"t19 O B-X\n"
            b"t20 O B-X\n"
            b"t21 O B-X\n"
            b"t22 O B-X\n"
            b"t23 O B-X\n"
            b"t24 O B-X\n"
            b"t25 O B-X\n"
            b"t26 O B-X\n"
            b"t27 O B-X\n"
            b"t28 O B-X\n"
            b"t29 O B-X\n"
            b"t30 O B-X\n"
            b"t31 O B-X\n"
            b"t32 O B-X\n"
            b"t33 O B-X\n"
            b"t34 O B-X\n"
            b"t35 O B-X\n"
            b"t36 O B-X\n"
            b"t37 O B-X\n"
            b"t38 O B-X\n"
            b"t39 O B-X\n"
            b"t40 O B-X\n"
            b"t41 O B-X\n"
            b"t42 O B-X\n"
            b"t43 O B-X\n"
            b"t44 O B-X\n"
            b"t45 O B-X\n"
            b"t46 O B-X\n"
            b"t47 O B-X\n"
            b"t48 O B-X\n"
            b"t49 O B-X\n"
            b"t50 O B-X\n"
            b"t51 O B-X\n"
            b"t52 O B-X\n"
            b"t53 O B-X\n"
            b"t54 O B-X\n"
            b"t55 O B-X\n"
            b"t56 O B-X\n"
            b"t57 O B-X\n"
            b"t58 O B-X\n"
            b"t59 O B-X\n"
            b"t60 O B-X\n"
            b"t61 O B-X\n"
            b"t62 O B-X\n"
            b"t63 O B-X\n"
        ),
        args=(),
        stdout=(
            b"processed 63 tokens with 1 phrases; found: 63 phrases; correct: 1.\n"
            b"accuracy:   1.59%; precision:   1.59%; recall: 100.00%; FB1:   3.13\n"
            b"                X: precision:   1.59%; recall: 100.00%; FB1:   3.13  63\n"
        ),
        status=0,
    ),
    # (correct, gold, found) = (1, 1, 32): precision 3.125 prints as 3.12
    ConllevalCase(
        name="rounding_1_1_32",
        input=(
            b"t1 B-X B-X\n"
            b"t2 O B-X\n"
            b"t3 O B-X\n"
            b"t4 O B-X\n"
            b"t5 O B-X\n"
            b"t6 O B-X\n"
            b"t7 O B-X\n"
            b"t8 O B-X\n"
            b"t9 O B-X\n"
            b"t10 O B-X\n"
            b"t11 O B-X\n"
            b"t12 O B-X\n"
            b"t13 O B-X\n"
            b"t14 O B-X\n"
            b"t15 O B-X\n"
            b"t16 O B-X\n"
            b"t17 O B-X\n"
            b"t18 O B-X\n"
            b"t19 O B-X\n"
            b"t20 O B-X\n"
            b"t21 O B-X\n"
            b"t22 O B-X\n"
            b"t23 O B-X\n"
            b"t24 O B-X\n"
            b"t25 O B-X\n"
            b"t26 O B-X\n"
            b"t27 O B-X\n"
            b"t28 O B-X\n"
            b"t29 O B-X\n"
            b"t30 O B-X\n"
            b"t31 O B-X\n"
            b"t32 O B-X\n"
        ),
        args=(),
        stdout=(
            b"processed 32 tokens with 1 phrases; found: 32 phrases; correct: 1.\n"
            b"accuracy:   3.12%; precision:   3.12%; recall: 100.00%; FB1:   6.06\n"
            b"                X: precision:   3.12%; recall: 100.00%; FB1:   6.06  32\n"
        ),
        status=0,
    ),
    # accuracy 2/3 and precision/recall thirds
    ConllevalCase(
        name="rounding_accuracy",
        input=(
            b"w1 B-X B-X\n"
            b"w2 B-Y B-Y\n"
            b"w3 B-Z O\n"
        ),
        args=(),
        stdout=(
            b"processed 3 tokens with 3 phrases; found: 2 phrases; correct: 2.\n"
            b"accuracy:  66.67%; precision: 100.00%; recall:  66.67%; FB1:  80.00\n"
            b"                X: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                Y: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"                Z: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
        ),
        status=0,
    ),
    # six types with mixed results (exact, partial, missed, spurious, wrong type)
    ConllevalCase(
        name="many_types_mixed",
        input=(
            b"EU B-ORG B-ORG\n"
            b"rejects O O\n"
            b"German B-MISC B-MISC\n"
            b"call O O\n"
            b"Peter B-PER B-PER\n"
            b"Blackburn I-PER O\n"
            b"in O O\n"
            b"BRUSSELS B-LOC B-ORG\n"
            b"\n"
            b"1996-08-22 B-DATE B-DATE\n"
            b"Mr O O\n"
            b"Smith B-PER B-PER\n"
            b"paid O O\n"
            b"$ B-MONEY B-MONEY\n"
            b"5 I-MONEY I-MONEY\n"
            b"in O O\n"
            b"Paris B-LOC B-LOC\n"
            b"Monday O B-DATE\n"
        ),
        args=(),
        stdout=(
            b"processed 17 tokens with 8 phrases; found: 9 phrases; correct: 6.\n"
            b"accuracy:  82.35%; precision:  66.67%; recall:  75.00%; FB1:  70.59\n"
            b"             DATE: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
            b"              LOC: precision: 100.00%; recall:  50.00%; FB1:  66.67  1\n"
            b"             MISC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"            MONEY: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
            b"              ORG: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
            b"              PER: precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
        ),
        status=0,
    ),
    # the many-types input with -l
    ConllevalCase(
        name="many_types_latex",
        input=(
            b"EU B-ORG B-ORG\n"
            b"rejects O O\n"
            b"German B-MISC B-MISC\n"
            b"call O O\n"
            b"Peter B-PER B-PER\n"
            b"Blackburn I-PER O\n"
            b"in O O\n"
            b"BRUSSELS B-LOC B-ORG\n"
            b"\n"
            b"1996-08-22 B-DATE B-DATE\n"
            b"Mr O O\n"
            b"Smith B-PER B-PER\n"
            b"paid O O\n"
            b"$ B-MONEY B-MONEY\n"
            b"5 I-MONEY I-MONEY\n"
            b"in O O\n"
            b"Paris B-LOC B-LOC\n"
            b"Monday O B-DATE\n"
        ),
        args=("-l",),
        stdout=(
            b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\n"
            b"DATE    &   50.00\\% & 100.00\\% &  66.67 \\\\\n"
            b"LOC     &  100.00\\% &  50.00\\% &  66.67 \\\\\n"
            b"MISC    &  100.00\\% & 100.00\\% & 100.00 \\\\\n"
            b"MONEY   &  100.00\\% & 100.00\\% & 100.00 \\\\\n"
            b"ORG     &   50.00\\% & 100.00\\% &  66.67 \\\\\n"
            b"PER     &   50.00\\% &  50.00\\% &  50.00 \\\\\\hline\n"
            b"Overall &   66.67\\% &  75.00\\% &  70.59 \\\\\\hline\n"
        ),
        status=0,
    ),
    # unknown option: die (exit 255), stdout empty
    ConllevalCase(
        name="args_unknown_option",
        input=b"a B-X B-X\n",
        args=("-x",),
        stdout=b"",
        status=255,
    ),
    # a file argument: `unexpected command line argument`, die (exit 255)
    ConllevalCase(
        name="args_file_argument",
        input=b"a B-X B-X\n",
        args=("input.txt",),
        stdout=b"",
        status=255,
    ),
    # options cannot be bundled: -lr is an unknown argument (exit 255)
    ConllevalCase(
        name="args_bundled_options",
        input=b"a B-X B-X\n",
        args=("-lr",),
        stdout=b"",
        status=255,
    ),
    # -d without a value: die (exit 255)
    ConllevalCase(
        name="args_d_missing_value",
        input=b"a B-X B-X\n",
        args=("-d",),
        stdout=b"",
        status=255,
    ),
    # options may repeat; the last -d wins
    ConllevalCase(
        name="args_repeated_options",
        input=b"a\tB-X\tB-X\n",
        args=("-l", "-d", ",", "-l", "-d", "\t"),
        stdout=(
            b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\n"
            b"X       &  100.00\\% & 100.00\\% & 100.00 \\\\\\hline\n"
            b"Overall &  100.00\\% & 100.00\\% & 100.00 \\\\\\hline\n"
        ),
        status=0,
    ),
]
# fmt: on
