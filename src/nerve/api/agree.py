"""`nerve.api.agree`: where `nerve.agree` was; it lives in `nerve.compiled_agree` (see there)."""

from __future__ import annotations

from ..compiled_agree import agree

__all__ = ["agree"]
