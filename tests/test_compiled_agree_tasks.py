"""`nerve.compiled_agree_tasks.run_tasks`: every task runs once, after what it needs, on two threads.

Random graphs (hypothesis): each task's result is computed from its needs' results, so a task run
before one it needs, or twice, or not at all, gives another answer than the graph evaluated in
order. By hand: an error stops the run and is raised; a need nobody gives is named; both threads
take tasks, the first ready in the order given.
"""

from __future__ import annotations

import _thread
from collections.abc import Hashable
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nerve.compiled_agree_tasks import Done, Task, run_tasks
from nerve.io.tags.agree_scan import both


@st.composite
def graphs(draw: st.DrawFn) -> list[tuple[int, list[int]]]:
    """Tasks 0..n-1, each needing some of those before it (shuffled after)."""
    n = draw(st.integers(0, 12))
    tasks = [(i, sorted(draw(st.sets(st.integers(0, i - 1), max_size=3))) if i else []) for i in range(n)]
    return draw(st.permutations(tasks))


@settings(max_examples=150, deadline=None)
@given(graphs())
def test_every_task_runs_once_after_its_needs(graph: list[tuple[int, list[int]]]) -> None:
    runs: list[int] = []

    def work(i: int, needs: list[int], done: Done) -> int:
        runs.append(i)
        return i + 1 + sum(done[n] for n in needs)

    tasks: list[Task] = [(i, needs, partial(work, i, needs)) for i, needs in graph]
    want: dict[Hashable, int] = {}
    for i, needs in sorted(graph):
        want[i] = i + 1 + sum(want[n] for n in needs)
    assert run_tasks(tasks) == want
    assert sorted(runs) == sorted(want)


def test_an_error_stops_the_run_and_is_raised() -> None:
    ran: list[str] = []

    def boom(done: Done) -> None:
        raise ValueError("boom")

    tasks: list[Task] = [
        ("a", (), boom),
        ("b", ("a",), lambda done: ran.append("b")),
        ("c", ("b",), lambda done: ran.append("c")),
    ]
    with pytest.raises(ValueError, match="boom"):
        run_tasks(tasks)
    assert ran == []


def test_a_need_nobody_gives_is_named() -> None:
    with pytest.raises(RuntimeError, match=r"never given.*'b'"):
        run_tasks([("a", (), lambda done: 1), ("b", ("missing",), lambda done: 2)])


def test_both_threads_take_tasks_the_first_ready_first() -> None:
    """x and y run at once, on two threads (each waits until the other has begun); a task waits for
    its needs even when listed first."""
    begun = {name: _thread.allocate_lock() for name in ("x", "y")}
    for lock in begun.values():
        lock.acquire()
    threads: dict[str, int] = {}

    def meet(name: str, other: str) -> bool:
        threads[name] = _thread.get_ident()
        begun[name].release()
        return begun[other].acquire(timeout=10)  # True: the other began meanwhile

    tasks: list[Task] = [
        ("last", ("x", "y"), lambda done: (done["x"], done["y"])),
        ("x", (), lambda done: meet("x", "y")),
        ("y", (), lambda done: meet("y", "x")),
    ]
    assert run_tasks(tasks) == {"x": True, "y": True, "last": (True, True)}
    assert threads["x"] != threads["y"]


def test_a_thread_that_waited_takes_tasks_again() -> None:
    """While a runs, the other thread has nothing ready and waits; once a is done, b and c run at once,
    one on each thread (each waits until the other has begun)."""
    begun = {name: _thread.allocate_lock() for name in ("b", "c")}
    for lock in begun.values():
        lock.acquire()

    def slow(done: Done) -> str:
        lock = _thread.allocate_lock()
        lock.acquire()
        lock.acquire(timeout=0.2)  # long enough for the other thread to find nothing ready and wait
        return "a"

    def meet(name: str, other: str) -> bool:
        begun[name].release()
        return begun[other].acquire(timeout=10)

    tasks: list[Task] = [
        ("a", (), slow),
        ("b", ("a",), lambda done: meet("b", "c")),
        ("c", ("a",), lambda done: meet("c", "b")),
    ]
    assert run_tasks(tasks) == {"a": "a", "b": True, "c": True}


def test_both_raises_either_side_error_once_both_are_done() -> None:
    """`both` (what run_tasks runs its two threads with): each side's result, or the error of the
    side that failed, raised here only once the other side is done too."""
    finished: list[str] = []

    def fails() -> None:
        raise ValueError("second")

    def first() -> str:
        lock = _thread.allocate_lock()
        lock.acquire()
        lock.acquire(timeout=0.1)  # the other thread fails meanwhile
        finished.append("first")
        return "one"

    assert both(lambda: 1, lambda: "two") == (1, "two")
    with pytest.raises(ValueError, match="second"):
        both(first, fails)
    assert finished == ["first"]
    with pytest.raises(KeyError):
        both(lambda: {}["x"], lambda: finished.append("second"))
    assert finished == ["first", "second"]
