"""Mistakes on the command line: the error every subcommand raises and the checks they share.

A subcommand refuses a bad argument by raising :class:`UsageError` with one line that says
what is wrong and what is allowed; the ``barbu`` command (:func:`barbu.cli.main`) prints it
as ``barbu COMMAND: error: …`` on standard error and exits with status 2. Every check here
runs before any long work, so a mistake never costs the games already played.

:class:`CommandParser` is :class:`argparse.ArgumentParser` raising :class:`UsageError`
instead of printing its usage and exiting; :func:`whole_number` and :func:`number` are
argument types with a range; :func:`output_file`, :func:`output_folder`, :func:`read_text`
and :func:`database_url` check paths and URLs up front, with messages free of Python's own
words (no ``[Errno 2]``, no exception class names).

>>> parser = CommandParser(prog="barbu demo")
>>> _ = parser.add_argument("--games", type=whole_number(1), default=1)
>>> parser.parse_args(["--games", "0"])
Traceback (most recent call last):
...
barbu.usage.UsageError: argument --games: '0' is out of range; give a whole number 1 or more
>>> database_url("bogus://x")
Traceback (most recent call last):
...
barbu.usage.UsageError: --db 'bogus://x' is not a database barbu can use; give sqlite:///FILE or postgresql://USER@HOST:PORT/DB
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from barbu.errors import BarbuError

if TYPE_CHECKING:
    from pathlib import Path

DATABASE_SCHEMES = ("sqlite", "postgresql", "postgres")
"""The schemes a ``--db`` URL may have (``postgresql+psycopg`` and the like are accepted too)."""


class UsageError(BarbuError):
    """A mistake in a command's arguments: one line, what is wrong, then ``;`` and what is allowed.

    ``command`` is the program that refuses (``barbu score new``), when it is not just the
    subcommand the ``barbu`` command ran.
    """

    def __init__(self, message: str, command: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.command = command

    def line(self, command: str) -> str:
        """The message as ``barbu`` prints it: one line, ``COMMAND: error: MESSAGE``.

        >>> UsageError("--pace -1 is below 0;\\n give 0 or more").line("barbu play")
        'barbu play: error: --pace -1 is below 0; give 0 or more'
        """
        return f"{self.command or command}: error: {' '.join(self.message.split())}"


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose refusals are :class:`UsageError` (``--help`` still prints and exits).

    >>> CommandParser(prog="barbu x").parse_args(["--fast"])
    Traceback (most recent call last):
    ...
    barbu.usage.UsageError: unrecognized arguments: --fast; barbu x --help lists the options
    """

    def error(self, message: str) -> NoReturn:
        """Raise the refusal instead of printing the usage and exiting."""
        if message.startswith(("unrecognized arguments", "the following arguments are required")):
            message += f"; {self.prog} --help lists the options"
        raise UsageError(message, self.prog)


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` (to ``high``, when given).

    >>> whole_number(0, 65535)("8000")
    8000
    >>> whole_number(0, 65535)("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '99999' is out of range; give a whole number from 0 to 65535
    """
    allowed = f"from {low} to {high}" if high is not None else f"{low} or more"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; give one {allowed}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r} is out of range; give a whole number {allowed}")
        return value

    return parse


def number(low: float, above: bool = False) -> Callable[[str], float]:
    """An argument type: a number, at least ``low`` (more than ``low`` with ``above``).

    >>> number(0)("0.5")
    0.5
    >>> number(0, above=True)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '0' is out of range; give a number above 0
    """
    allowed = f"above {low:g}" if above else f"{low:g} or more"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number; give one {allowed}") from None
        if not (value > low if above else value >= low) or not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text!r} is out of range; give a number {allowed}")
        return value

    return parse


def _why(e: OSError) -> str:
    """What the system said, in words (``permission denied``), without its error number."""
    return (e.strerror or "not allowed").lower()


def _writable_folder(folder: Path) -> str | None:
    """Why no file can be created in ``folder``, or None when one can."""
    import tempfile  # here: most commands write no file, and tempfile costs the start of each of them

    try:
        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as e:
        return _why(e)


def output_file(path: str, option: str) -> None:
    """Refuse, before any work, an output file that cannot be written (``-`` is standard output).

    >>> output_file("/no-such-folder/report.json", "--json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    barbu.usage.UsageError: --json /no-such-folder/report.json: the folder /no-such-folder does not exist; ...
    """
    from pathlib import Path  # here: a command that reads or writes no file does not pay pathlib's import

    if path == "-":
        return
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{option} {path} is a folder; give the name of a file to write")
    folder = p.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise UsageError(f"{option} {path}: the folder {folder} {what}; give a file in an existing folder")
    if p.exists():
        try:
            with open(p, "a", encoding="utf-8"):
                pass
        except OSError as e:
            raise UsageError(f"{option} {path} cannot be written ({_why(e)}); give a file you may write") from None
        return
    why = _writable_folder(folder)
    if why is not None:
        raise UsageError(f"{option} {path}: cannot write in the folder {folder} ({why}); give another folder")


def output_folder(path: str | os.PathLike[str], option: str) -> None:
    """Refuse, before any work, a folder to write files in that is a file or cannot be made or written.

    A missing folder is fine when it can be made (it is made when the files are written).

    >>> import tempfile
    >>> output_folder(tempfile.gettempdir(), "--records")
    """
    from pathlib import Path  # here: a command that reads or writes no file does not pay pathlib's import

    p = Path(path)
    existing = p
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        where = "is a file" if existing == p else f"is under {existing}, which is a file"
        raise UsageError(f"{option} {path} {where}; give a folder (it is made if missing)")
    why = _writable_folder(existing)
    if why is not None:
        raise UsageError(f"{option} {path}: cannot write in {existing} ({why}); give another folder")


def read_text(path: str, what: str = "file") -> str:
    """The text of a UTF-8 file (a byte order mark is skipped); ``-`` reads standard input.

    >>> read_text("/no-such-file.json", "record")
    Traceback (most recent call last):
    ...
    barbu.usage.UsageError: cannot read the record /no-such-file.json: no such file or directory; give a readable file
    """
    from pathlib import Path  # here: a command that reads or writes no file does not pay pathlib's import

    try:
        if path == "-":
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        else:
            data = Path(path).read_bytes()
    except OSError as e:
        raise UsageError(f"cannot read the {what} {path}: {_why(e)}; give a readable file") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(
            f"the {what} {path} is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
            "give a text file saved as UTF-8"
        ) from None


def database_url(url: str, option: str = "--db") -> str:
    """``url`` when it names a database barbu can use; refused before anything connects.

    An SQLite file must be in an existing folder (the file itself is made when missing).

    >>> database_url("sqlite:///barbu.db"), database_url("postgresql://postgres@127.0.0.1/test")
    ('sqlite:///barbu.db', 'postgresql://postgres@127.0.0.1/test')
    """
    from pathlib import Path  # here: a command that reads or writes no file does not pay pathlib's import

    scheme, sep, rest = url.partition("://")
    allowed = "give sqlite:///FILE or postgresql://USER@HOST:PORT/DB"
    if not sep or scheme.partition("+")[0] not in DATABASE_SCHEMES:
        raise UsageError(f"{option} {url!r} is not a database barbu can use; {allowed}")
    if scheme.startswith("sqlite"):
        file = rest[1:] if rest.startswith("/") else rest
        file = file.partition("?")[0]
        if file not in ("", ":memory:"):
            p = Path(file)
            if p.is_dir():
                raise UsageError(f"{option} {url}: {file} is a folder; give a database file")
            if not p.parent.is_dir():
                raise UsageError(
                    f"{option} {url}: the folder {p.parent} does not exist; give a file in an existing folder"
                )
    return url


_SEAT = re.compile(r"\(seat (\d+)\)|\bseat (\d+)\b")


def name_seats(text: str, players: Sequence[str] | None) -> str:
    """``text`` with each ``seat N`` called by that player's name, when the names are known.

    A seat in parentheses keeps its number beside the name:

    >>> name_seats("deal 1, call 1 (seat 1): it is seat 1's call, not seat 2's", ["Ann", "Bob", "Cat", "Dan"])
    "deal 1, call 1 (Bob, seat 1): it is Bob's call, not Cat's"
    """
    if not players:
        return text
    names = list(players)

    def named(m: re.Match[str]) -> str:
        number = m.group(1) or m.group(2)
        seat = int(number)
        if seat >= len(names) or not isinstance(names[seat], str) or not names[seat]:
            return m.group(0)
        return f"({names[seat]}, seat {number})" if m.group(1) else names[seat]

    return _SEAT.sub(named, text)


__all__ = [
    "DATABASE_SCHEMES",
    "CommandParser",
    "UsageError",
    "database_url",
    "name_seats",
    "number",
    "output_file",
    "output_folder",
    "read_text",
    "whole_number",
]
