"""A CPU-time sampling profiler for the server's processes, and its report.

A process that imports this with ``STACKS_CPU_PROFILE`` set to a folder (and
every process forked from it) samples its own stack each millisecond of CPU it
uses (``ITIMER_PROF``, so a greenlet waiting for a socket is never counted as
busy) while the file ``<folder>/on`` exists, and writes the stacks it saw,
folded, to ``<folder>/<pid>.folded``.
``bench/move_cost.py --profile`` sets this up for ``serve``'s processes;

    python bench/cpu_profile.py FOLDER [--top 40]

prints where the CPU went: each function's share of all samples with it
anywhere on the stack (inclusive) and at the top (self).
"""

from __future__ import annotations

import argparse
import atexit
import collections
import os
import signal
import time
from pathlib import Path
from types import FrameType

INTERVAL_S = 0.001
WRITE_EVERY_S = 1.0  # a worker may be killed, not exit: its file is kept up to date


def install(folder: str) -> None:
    """Sample this process, and each process forked from it, into ``folder``."""
    _start(folder)
    os.register_at_fork(after_in_child=lambda: _start(folder))
    # A process that replaces itself (serve's supervisor does) keeps the timer but
    # not its handler, and one that exits puts the default handler back before it
    # is gone: either way the next signal would kill it. Stop the timer first.
    atexit.register(signal.setitimer, signal.ITIMER_PROF, 0)
    execv = os.execv

    def stop_then_execv(path: str, args: list[str]) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0)
        execv(path, args)

    os.execv = stop_then_execv  # type: ignore[assignment]


def _start(folder: str) -> None:
    counts: collections.Counter[str] = collections.Counter()
    path, switch = Path(folder) / f"{os.getpid()}.folded", Path(folder) / "on"
    written, looked, on = [time.monotonic()], [0.0], [False]

    def sample(signum: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        if now - looked[0] > 0.1:
            was, looked[0], on[0] = on[0], now, switch.exists()
            if was and not on[0]:
                write()
        if not on[0]:
            return
        stack = []
        while frame is not None:
            code = frame.f_code
            stack.append(f"{_where(code.co_filename)}:{code.co_name}")
            frame = frame.f_back
        counts[";".join(reversed(stack))] += 1
        if now - written[0] > WRITE_EVERY_S:
            written[0] = now
            write()

    def write() -> None:
        path.write_text("".join(f"{stack} {n}\n" for stack, n in counts.items()))

    signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, INTERVAL_S, INTERVAL_S)


def _where(filename: str) -> str:
    """A file's name shortened to its package and module."""
    parts = filename.split("/")
    for marker in ("site-packages", "stacks_api", "lib"):
        if marker in parts:
            at = len(parts) - 1 - parts[::-1].index(marker)
            return "/".join(parts[at + (marker != "stacks_api") :])
    return "/".join(parts[-2:])


def report(folder: Path, top: int) -> None:
    """Inclusive and self shares of the samples in ``folder``'s files."""
    inclusive: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for file in folder.glob("*.folded"):
        for line in file.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            n = int(count)
            frames = stack.split(";")
            total += n
            own[frames[-1]] += n
            for frame in set(frames):
                inclusive[frame] += n
    print(f"{total} samples of {INTERVAL_S * 1000:g} ms of CPU")
    for title, counter in (("inclusive", inclusive), ("self", own)):
        print(f"-- {title}")
        for frame, n in counter.most_common(top):
            print(f"  {100 * n / total:5.1f}%  {frame}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    report(args.folder, args.top)


if __name__ == "__main__":
    main()
