"""Reading an input file of one's own: only a regular file, and at most MAX_INPUT_BYTES of it.

Every data file (sheets, decks, plans, opponents, editions, expansions) and every settings file
(--config, tuned sets) is read through read_regular(): a device (/dev/zero) would otherwise be read
until memory ran out, a FIFO or a process substitution (`<(cat file)`, a pipe under /dev/fd) would
block or could be read only once, while the kernel and the referee each read the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_INPUT_BYTES = 1 << 20  # 1 MiB: the largest shipped data file is under 10 KiB
CAP_TEXT = "1 MiB"


class Unreadable(Exception):
    """Why a file cannot be read, in words that follow its path (`<path>: <problem>`)."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(problem)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a pipe (a FIFO, or a process substitution such as <(...))"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_regular(path: str | Path, cap: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most `cap` bytes; else Unreadable saying why."""
    try:
        st = os.stat(path)  # stat, never open, first: opening a FIFO blocks until a writer comes
    except (FileNotFoundError, NotADirectoryError):
        raise Unreadable("file not found") from None
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise Unreadable("is a directory; give a file")
    if not stat.S_ISREG(st.st_mode):
        raise Unreadable(
            f"is {_kind(st.st_mode)}, not a regular file; save the content to a file and give its path"
        )
    too_big = f"is larger than {CAP_TEXT}, the most an input file may hold; is it the right file?"
    if st.st_size > cap:
        raise Unreadable(too_big)
    try:
        with open(path, "rb") as fh:
            data = fh.read(cap + 1)  # a file may say size 0 (/proc) or grow while read
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror}") from None
    if len(data) > cap:
        raise Unreadable(too_big)
    return data
