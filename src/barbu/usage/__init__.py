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
import errno
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, overload

from barbu.errors import BarbuError
from barbu.language import LANGUAGES, N_, _, from_environment, use

if TYPE_CHECKING:
    from pathlib import Path

_N = TypeVar("_N")

DATABASE_SCHEMES = ("sqlite", "postgresql", "postgres")
"""The schemes a ``--db`` URL may have (``postgresql+psycopg`` and the like are accepted too)."""


class Phrase(str):
    """A text for people with values in it (a ``help=`` line naming the rule sets): in English
    as a string, and translated where it is shown, from its ``template`` in the catalogues.

    >>> from barbu.language import speaking
    >>> line = Phrase("rule set: {variants}", variants="classic, king")
    >>> line
    'rule set: classic, king'
    >>> with speaking("fr"):
    ...     spoken(line)
    'règles : classic, king'
    """

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, /, **params: object) -> Phrase:
        text = super().__new__(cls, template.format(**params))
        text.template = template
        text.params = params
        return text


def spoken(text: str) -> str:
    """``text`` (an English text marked for the catalogues, or a :class:`Phrase`) in the
    language of the moment; a text the catalogues lack stays as it is."""
    if isinstance(text, Phrase):
        return _(text.template, **text.params)
    return _(text) if text else text


ARGPARSE_WORDS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
)
"""argparse's own words in a command's help, translated where the help is written (:class:`HelpFormatter`)."""

ARGPARSE_ERRORS = (
    N_("argument {argument}: {message}"),
    N_("unrecognized arguments: {arguments}"),
    N_("the following arguments are required: {arguments}"),
    N_("invalid choice: {value} (choose from {choices})"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("expected {count} argument"),
    N_("expected {count} arguments"),
    N_("invalid {type} value: {value}"),
    N_("ambiguous option: {option} could match {matches}"),
    N_("not allowed with argument {argument}"),
    N_("one of the arguments {arguments} is required"),
    N_("ignored explicit argument {value}"),
    N_("unknown parser {parser} (choices: {choices})"),
    N_("unexpected option string: {option}"),
)
"""argparse's refusals, written as argparse writes them with ``{name}`` for what it fills in:
each is read back from argparse's English and said again in the language of the moment
(:func:`argparse_error`). The specific come before the general (``expected one argument``
before ``expected {count} argument``)."""


@cache
def _error_patterns() -> list[tuple[re.Pattern[str], str]]:
    patterns = []
    for template in ARGPARSE_ERRORS:
        parts = re.split(r"\{(\w+)\}", template)
        regex = "".join(f"(?P<{p}>.*?)" if i % 2 else re.escape(p) for i, p in enumerate(parts))
        patterns.append((re.compile(regex, re.S), template))
    return patterns


def argparse_error(message: str) -> str:
    """argparse's English refusal ``message`` in the language of the moment; an ``argument X:``
    refusal has its reason translated too (a project's check has already said it in the language).

    >>> from barbu.language import speaking
    >>> with speaking("fr"):
    ...     argparse_error("argument --lang: invalid choice: 'de' (choose from 'en', 'fr')")
    "argument --lang : choix impossible : 'de' (choisir parmi 'en', 'fr')"
    """
    for pattern, template in _error_patterns():
        found = pattern.fullmatch(message)
        if found:
            params = found.groupdict()
            if "message" in params:
                params["message"] = argparse_error(params["message"])
            return _(template, **params)
    return message


def spoken_language(args: Sequence[str]) -> str:
    """The language a command speaks: the last ``--lang xx`` or ``--lang=xx`` among its
    arguments (before a ``--``) that names one of :data:`~barbu.language.LANGUAGES`, else
    the environment's (:func:`~barbu.language.from_environment`).

    >>> spoken_language(["--seed", "3", "--lang", "fr"]), spoken_language(["new", "--lang=fr"])
    ('fr', 'fr')
    >>> spoken_language(["--lang", "fr", "--", "--lang", "en"])
    'fr'
    """
    lang = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = args[i + 1] if arg == "--lang" and i + 1 < len(args) else arg.partition("=")[2]
        if (arg == "--lang" or arg.startswith("--lang=")) and value in LANGUAGES:
            lang = value
    return lang or from_environment()


class UsageError(BarbuError):
    """A mistake in a command's arguments: one line, what is wrong, then ``;`` and what is allowed.

    ``command`` is the program that refuses (``barbu score new``), when it is not just the
    subcommand the ``barbu`` command ran. The message is written in the language of the moment.
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
        return _("{command}: error: {message}", command=self.command or command, message=" ".join(self.message.split()))


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help in the language of the moment: its own words (``usage:``, ``options``),
    the command's description and every option's ``help=`` line (marked for the catalogues)."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        # argparse writes "HEADING:"; the catalogue's "{heading}:" says how the language writes it
        # (French: "options :"), and argparse's own colon ends it.
        if heading:
            heading = _("{heading}:", heading=spoken(heading)).removesuffix(":")
        super().start_section(heading)

    def add_text(self, text: str | None) -> None:
        super().add_text(spoken(text) if text and text is not argparse.SUPPRESS else text)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return spoken(action.help) if action.help else action.help


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose refusals are :class:`UsageError` (``--help`` still prints and
    exits), whose help and refusals speak the language of the moment, and which, when it has a
    ``--lang`` option (:meth:`add_language`), chooses that language before it parses anything.

    >>> CommandParser(prog="barbu x").parse_args(["--fast"])
    Traceback (most recent call last):
    ...
    barbu.usage.UsageError: unrecognized arguments: --fast; barbu x --help lists the options
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self.speaks = False

    def add_language(self, default: Any = None) -> None:
        """Add ``--lang``: the language of the command's texts, chosen (with :func:`spoken_language`)
        before the arguments are parsed, so that their refusals and ``--help`` speak it too."""
        self.add_argument(
            "--lang",
            choices=sorted(LANGUAGES),
            default=default,
            help=N_("the language (default: LANGUAGE, LC_ALL or LANG)"),
        )
        self.speaks = True

    @overload
    def parse_known_args(
        self, args: Iterable[str] | None = None, namespace: None = None
    ) -> tuple[argparse.Namespace, list[str]]: ...
    @overload
    def parse_known_args(self, args: Iterable[str] | None, namespace: _N) -> tuple[_N, list[str]]: ...
    @overload
    def parse_known_args(self, *, namespace: _N) -> tuple[_N, list[str]]: ...
    def parse_known_args(self, args: Iterable[str] | None = None, namespace: Any = None) -> tuple[Any, list[str]]:
        """Choose the language first when the command has ``--lang``, then parse."""
        given = list(sys.argv[1:] if args is None else args)
        if self.speaks:
            use(spoken_language(given))
        return super().parse_known_args(given, namespace)

    def error(self, message: str) -> NoReturn:
        """Raise the refusal, in the language of the moment, instead of printing the usage and exiting."""
        text = argparse_error(message)
        if message.startswith(("unrecognized arguments", "the following arguments are required")):
            text = _("{message}; {command} --help lists the options", message=text, command=self.prog)
        raise UsageError(text, self.prog)


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` (to ``high``, when given).

    >>> whole_number(0, 65535)("8000")
    8000
    >>> whole_number(0, 65535)("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '99999' is out of range; give a whole number from 0 to 65535
    """

    def parse(text: str) -> int:
        allowed = _("from {low} to {high}", low=low, high=high) if high is not None else _("{low} or more", low=low)
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("{text} is not a whole number; give one {allowed}", text=repr(text), allowed=allowed)
            ) from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                _("{text} is out of range; give a whole number {allowed}", text=repr(text), allowed=allowed)
            )
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

    def parse(text: str) -> float:
        shown = f"{low:g}"
        allowed = _("above {low}", low=shown) if above else _("{low} or more", low=shown)
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("{text} is not a number; give one {allowed}", text=repr(text), allowed=allowed)
            ) from None
        if not (value > low if above else value >= low) or not math.isfinite(value):
            raise argparse.ArgumentTypeError(
                _("{text} is out of range; give a number {allowed}", text=repr(text), allowed=allowed)
            )
        return value

    return parse


OS_REASONS = {
    errno.ENOENT: N_("no such file or directory"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EISDIR: N_("is a directory"),
    errno.ENOTDIR: N_("not a directory"),
    errno.ENOSPC: N_("no space left on device"),
    errno.EROFS: N_("read-only file system"),
}
"""The system's common reasons for refusing a file, in words the catalogues translate."""


def os_reason(e: OSError) -> str:
    """What the system said, in words of the language of the moment (``permission denied``),
    without its error number; a rarer reason keeps the system's own words."""
    reason = OS_REASONS.get(e.errno or 0)
    if reason is not None:
        return _(reason)
    return (e.strerror or _("not allowed")).lower()


def _writable_folder(folder: Path) -> str | None:
    """Why no file can be created in ``folder``, or None when one can."""
    import tempfile  # here: most commands write no file, and tempfile costs the start of each of them

    try:
        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as e:
        return os_reason(e)


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
        raise UsageError(_("{option} {path} is a folder; give the name of a file to write", option=option, path=path))
    folder = p.parent
    if not folder.is_dir():
        if folder.exists():
            refusal = _("{option} {path}: the folder {folder} is not a folder; give a file in an existing folder")
        else:
            refusal = _("{option} {path}: the folder {folder} does not exist; give a file in an existing folder")
        raise UsageError(refusal.format(option=option, path=path, folder=folder))
    if p.exists():
        try:
            with open(p, "a", encoding="utf-8"):
                pass
        except OSError as e:
            raise UsageError(
                _(
                    "{option} {path} cannot be written ({why}); give a file you may write",
                    option=option,
                    path=path,
                    why=os_reason(e),
                )
            ) from None
        return
    reason = _writable_folder(folder)
    if reason is not None:
        raise UsageError(
            _(
                "{option} {path}: cannot write in the folder {folder} ({why}); give another folder",
                option=option,
                path=path,
                folder=folder,
                why=reason,
            )
        )


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
        if existing == p:
            why = _("{option} {path} is a file; give a folder (it is made if missing)", option=option, path=path)
        else:
            why = _(
                "{option} {path} is under {file}, which is a file; give a folder (it is made if missing)",
                option=option,
                path=path,
                file=existing,
            )
        raise UsageError(why)
    reason = _writable_folder(existing)
    if reason is not None:
        raise UsageError(
            _(
                "{option} {path}: cannot write in {folder} ({why}); give another folder",
                option=option,
                path=path,
                folder=existing,
                why=reason,
            )
        )


def read_text(path: str, what: str = N_("file")) -> str:
    """The text of a UTF-8 file (a byte order mark is skipped); ``-`` reads standard input.
    ``what`` names the file for people (``N_("record")``), translated when a refusal says it.

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
        raise UsageError(
            _("cannot read the {what} {path}: {why}; give a readable file", what=_(what), path=path, why=os_reason(e))
        ) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(
            _(
                "the {what} {path} is not UTF-8 text (byte {byte} at offset {offset}); give a text file saved as UTF-8",
                what=_(what),
                path=path,
                byte=f"0x{data[e.start]:02x}",
                offset=e.start,
            )
        ) from None


def database_url(url: str, option: str = "--db") -> str:
    """``url`` when it names a database barbu can use; refused before anything connects.

    An SQLite file must be in an existing folder (the file itself is made when missing).

    >>> database_url("sqlite:///barbu.db"), database_url("postgresql://postgres@127.0.0.1/test")
    ('sqlite:///barbu.db', 'postgresql://postgres@127.0.0.1/test')
    """
    from pathlib import Path  # here: a command that reads or writes no file does not pay pathlib's import

    scheme, sep, rest = url.partition("://")
    if not sep or scheme.partition("+")[0] not in DATABASE_SCHEMES:
        raise UsageError(
            _(
                "{option} {url} is not a database barbu can use; give sqlite:///FILE or postgresql://USER@HOST:PORT/DB",
                option=option,
                url=repr(url),
            )
        )
    if scheme.startswith("sqlite"):
        file = rest[1:] if rest.startswith("/") else rest
        file = file.partition("?")[0]
        if file not in ("", ":memory:"):
            p = Path(file)
            if p.is_dir():
                raise UsageError(
                    _("{option} {url}: {file} is a folder; give a database file", option=option, url=url, file=file)
                )
            if not p.parent.is_dir():
                raise UsageError(
                    _(
                        "{option} {url}: the folder {folder} does not exist; give a file in an existing folder",
                        option=option,
                        url=url,
                        folder=p.parent,
                    )
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
    "ARGPARSE_ERRORS",
    "ARGPARSE_WORDS",
    "DATABASE_SCHEMES",
    "OS_REASONS",
    "CommandParser",
    "HelpFormatter",
    "Phrase",
    "UsageError",
    "argparse_error",
    "database_url",
    "name_seats",
    "number",
    "os_reason",
    "output_file",
    "output_folder",
    "read_text",
    "spoken",
    "spoken_language",
    "whole_number",
]
