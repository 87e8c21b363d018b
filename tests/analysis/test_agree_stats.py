"""`nerve.analysis.agree_stats`: the flags of too few documents, the memory check of the bootstrap,
and the resampled alphas, against `alpha` one row at a time.

The flags name their case and the fix (more documents); two documents are enough to resample; a
bootstrap too large for memory is refused naming how many columns it resamples and how many
resamples fit. Found by mutation testing: these passed every other test.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nerve.analysis.agree_formulas import FIX, document_flags
from nerve.analysis.agree_stats import agree_intervals
from nerve.analysis.agreement import alpha, alphas
from nerve.analysis.units import BYTES_PER_VALUE, MEMORY_BUDGET, MIN_UNITS
from nerve.errors import OptionError


def test_document_flags_name_the_case_and_the_fix() -> None:
    (none,) = document_flags(0)
    assert (none.kind, none.type) == ("no_units", None)
    assert none.message == f"no documents: nothing to resample, so intervals are n/a; {FIX}"
    (one,) = document_flags(1)
    assert one.kind == "one_unit"
    assert one.message.startswith("one document only: every resample is the corpus itself")
    assert one.message.endswith(FIX)
    (few,) = document_flags(5)
    assert few.kind == "few_units"
    assert few.message == f"only 5 documents: intervals from fewer than {MIN_UNITS} are unreliable; {FIX}"
    assert [f.kind for f in document_flags(MIN_UNITS - 1)] == ["few_units"]
    assert document_flags(MIN_UNITS) == ()


def test_two_documents_are_resampled() -> None:
    pairs = [np.asarray([[3, 0, 0], [0, 2, 2]])]
    parts = np.asarray([[4, 4, 2, 2], [4, 0, 2, 2]])
    f1, a, flags = agree_intervals(pairs, parts, 2, (200, 1, 0.9))
    assert f1 is not None
    assert f1[0] < f1[1]
    assert a is not None
    assert [f.kind for f in flags] == ["few_units"]


def test_a_bootstrap_too_big_for_memory_names_its_columns() -> None:
    """Three pairs (3 counts each) and alpha's 5 parts: 14 columns a resample."""
    pairs = [np.zeros((3, 3), dtype=np.int64)] * 3
    parts = np.zeros((3, 5), dtype=np.int64)
    n = MEMORY_BUDGET // (16 * BYTES_PER_VALUE) + 1
    with pytest.raises(OptionError) as err:
        agree_intervals(pairs, parts, 2, (n, 1, 0.95))
    assert err.value.option == "bootstrap"
    assert "resamples of 14 columns need" in err.value.detail
    assert f"at most {n - 1:,} resamples fit" in err.value.detail
    agree_intervals(pairs, parts, 2, (100, 1, 0.95))  # few enough: no refusal


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=4, max_size=4), min_size=1, max_size=8))
def test_alphas_are_alpha_row_by_row(rows: list[list[int]]) -> None:
    """Resampled parts, undefined ones (fewer than 2 labels, one value) NaN, the rest `alpha`'s."""
    parts = np.asarray(rows, dtype=np.float64)
    parts[:, 0] = parts[:, 2:].sum(axis=1)  # n is the sum of the label counts
    ours = alphas(parts, 2)
    for row, value in zip(parts, ours.tolist(), strict=True):
        want = alpha(row, 2)
        assert np.isnan(value) if want is None else value == pytest.approx(want)


def test_alphas_at_their_edges() -> None:
    parts = np.asarray(
        [[2.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 0.0], [4.0, 4.0, 4.0, 0.0], [3.0, 3.0, 3.0, 0.0]]
    )
    found = alphas(parts, 2)
    assert found[0] == pytest.approx(0.0)
    assert np.isnan(found[1:]).all()
