"""A pytest plugin for tests/fuzz/valgrind.sh: Hypothesis without deadlines or health checks, few examples.

Under valgrind every draw is some fifty times slower, which Hypothesis would report as a failed
health check (or a missed deadline) rather than run the test.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile("valgrind", max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile("valgrind")
