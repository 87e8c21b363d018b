"""A drop-in for seqeval 1.2.2: the same imports, arguments, numbers, report and warnings.

Replace ``seqeval`` with ``nerve.compat.seqeval`` in the imports::

    from nerve.compat.seqeval.metrics import classification_report, f1_score
    from nerve.compat.seqeval.scheme import IOB2

`metrics` has ``accuracy_score``, ``classification_report`` (the text table byte for byte, or
``output_dict=True``), ``f1_score``, ``precision_score``, ``recall_score`` and
``performance_measure``; `metrics.sequence_labeling` adds ``get_entities`` and
``precision_recall_fscore_support``; `metrics.v1` the strict ``precision_recall_fscore_support``
and ``classification_report``; `scheme` the scheme classes (IOB1, IOE1, IOB2, IOE2, IOBES,
BILOU) and ``auto_detect``. ``mode``, ``scheme`` (a class of either package, or a name),
``average``, ``suffix``, ``zero_division`` and ``digits`` are seqeval's. Results are seqeval's
types (numpy scalars and arrays). Entities are decoded and counted by `nerve.score`:
``mode=None`` (conlleval-like) with ``repair="begin"``, ``mode="strict"`` with
``repair="discard"`` (`nerve.compat.seqeval.counts`); the scores follow from the counts with
seqeval's arithmetic (`nerve.compat.seqeval.prf`). scikit-learn is not needed:
`UndefinedMetricWarning` is this package's (a ``UserWarning``), issued with seqeval's messages
through `warnings.warn` (a filter on scikit-learn's class of that name does not catch it).

Where seqeval 1.2.2 is wrong, this differs (each case is pinned in
``tests/compat/test_compat_seqeval.py``):

- **No entities at all.** seqeval's ``classification_report`` raises ``ValueError: max() arg is
  an empty sequence``, and its macro averages are ``nan`` (with RuntimeWarnings). Here the report
  has the three average rows, and a macro average over no types is the micro one: 0 (1 with
  ``zero_division=1``). ``accuracy_score`` of no tokens is 0.0, not ``ZeroDivisionError``.
- **BILOU (and BMES) tags in the default mode** (seqeval issue #71: the same entities in IOBES
  and in BILOU get different supports). seqeval's default mode knows only B, I, E and S, so
  ``B-LOC I-LOC L-LOC U-LOC`` is one entity there; here the tags are decoded in the scheme their
  letters name (or ``scheme``), two entities. On B, I, E, S and O tags the counts are seqeval's.
- **IOE1 and IOB1 in strict mode.** seqeval drops the one-token IOE1 entity ``E-LOC`` in
  ``E-LOC I-LOC I-LOC`` (two entities, one in seqeval; its source says IOE1 "hasn't yet been
  able to handle some cases"); in IOB1 it drops the valid one-token ``B-X`` of
  ``I-X B-X B-Y`` and keeps ``I-Y`` alone from the ill-formed ``O B-Y I-Y``. Here the scheme's
  definition decides.
- **``mode="strict"`` without ``scheme``**: the ``*_score`` functions give seqeval's numbers,
  those of the default mode, as seqeval's do, but warn (a ``UserWarning``) that ``mode`` is
  ignored; ``classification_report`` is strict in the scheme seqeval's ``auto_detect`` finds in
  the gold tags, as seqeval's is (a ``ValueError`` where it finds none, IOB1's for instance).
  Where the gold tags are all ``O`` the report looks at the predicted ones instead of raising.
- **Mistakes are errors.** Sentences of different lengths (which ``accuracy_score`` and
  ``performance_measure`` silently cut to the shorter) and tags nerve cannot read (``PER``,
  ``b-PER``, ``<PAD>``, which seqeval reads by their first character after a "seems not to be
  NE tag" warning) raise `nerve.InputError` naming the sentence and token. So do tags outside a
  given ``scheme`` with ``mode=None`` (``E-X`` with IOB2), where seqeval ignores the scheme; on
  the scheme's own letters the lenient decoding counts what seqeval counts. A ``mode`` other
  than None and ``"strict"`` and a ``zero_division`` other than ``"warn"``, 0 and 1 raise
  `nerve.OptionError` (seqeval takes them as None and 1). A scheme seqeval's ``auto_detect``
  cannot place raises `nerve.SchemeError`. All three are ``ValueError`` subclasses, so
  ``except ValueError:`` written for seqeval catches them.
- **``sample_weight``** is ignored with a warning; seqeval 1.2.2 ignores it silently.
"""
