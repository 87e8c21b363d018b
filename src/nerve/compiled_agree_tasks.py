"""Tasks run by two threads, each as soon as the tasks it needs are done, for `nerve.agree`'s compiled path.

In: the tasks, each a name, the names of the tasks it needs and a function of the results so far.
Out: every task's result, by name. The C work the tasks call releases the GIL, so the two threads
run at once. A thread takes the first ready task in the order given: the order is the priority.

Why: agreement's steps wait on one another unevenly (a pair needs only its two columns decoded,
the bootstrap every pair and the token counts, the disagreements only the columns). Run stage
after stage, one thread idled at the end of each; run as a graph, a thread idles only when nothing
it could take is ready.

An exception in a task stops both threads from taking new tasks, and is raised once both stopped.
This module imports no numpy, and no `threading` (3 ms to import): `_thread`'s locks are enough.
"""

from __future__ import annotations

import _thread
from collections.abc import Callable, Hashable, Sequence

from .io.tags.agree_scan import both

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (3 ms)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Task", "run_tasks"]

Done = dict[Hashable, "Any"]
Task = tuple[Hashable, Sequence[Hashable], Callable[[Done], object]]  # name, what it needs, its work


class _Board:
    """The tasks not yet taken, the results, and the threads asleep until a task is done."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        self.pending = list(tasks)
        self.done: Done = {}
        self.running = 0
        self.failed: list[BaseException] = []
        self.asleep: list[_thread.LockType] = []  # a held lock each, released to wake its thread
        self.mutex = _thread.allocate_lock()

    def take(self) -> Task | _thread.LockType | None:
        """The first ready task (counted as running); a lock to wait on; or ``None``: nothing is left."""
        with self.mutex:
            if self.failed or not self.pending:
                return None
            for i, (_, needs, _) in enumerate(self.pending):
                if all(n in self.done for n in needs):
                    self.running += 1
                    return self.pending.pop(i)
            if self.running == 0:
                names = [str(name) for name, _, _ in self.pending]
                self.failed.append(RuntimeError(f"tasks that wait on tasks never given: {names}"))
                return None
            lock = _thread.allocate_lock()
            lock.acquire()
            self.asleep.append(lock)
            return lock

    def finish(self, name: Hashable, value: object, error: BaseException | None) -> None:
        """A task's result (or its error) recorded, and every sleeping thread woken."""
        with self.mutex:
            self.running -= 1
            if error is None:
                self.done[name] = value
            else:
                self.failed.append(error)
            for lock in self.asleep:
                lock.release()
            self.asleep.clear()


def run_tasks(tasks: Sequence[Task]) -> Done:
    """Every task run (see the module), on this thread and one more; their results by name."""
    board = _Board(tasks)

    def work() -> None:
        while (got := board.take()) is not None:
            if not isinstance(got, tuple):
                got.acquire()  # asleep until a task is done
                continue
            name, _, run = got
            try:
                value = run(board.done)
            except BaseException as e:  # raised in the caller's thread once both stopped
                board.finish(name, None, e)
            else:
                board.finish(name, value, None)

    both(work, work)
    if board.failed:
        raise board.failed[0]
    return board.done
