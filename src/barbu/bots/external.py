"""A bot in another process, in any language: JSON lines over stdin and stdout.

For each decision :class:`ExternalBot` writes the seat's view (``SeatView.as_json()``) as
one line of JSON to the program's standard input and reads one line back: one of the view's
``legal_actions`` as given (the JSON of :func:`barbu.actions.action_to_json`), or the action
in record notation (docs/arena.md has the whole protocol). :func:`parse_answer` turns that
answer into an action; a program that crashes, stays silent past the timeout or answers
something that is not an action raises :class:`BotFailure`, which the arena counts as an
illegal action.

>>> import sys
>>> from barbu import Game, seat_view
>>> game = Game.new("classic", seed=2)
>>> script = "import json,sys\\nfor line in sys.stdin: print(json.dumps(json.loads(line)['legal'][0]), flush=True)"
>>> with ExternalBot([sys.executable, "-c", script]) as bot:
...     bot.act(seat_view(game, game.to_act))
Declare('no-tricks')
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import subprocess
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import IO, Any

from barbu.actions import CALL_WORDS, Action, Arrange, Call, Declare, NameRank, NameTrump, action_from_json, parse_play
from barbu.bots.errors import BotError
from barbu.cards import card, parse_rank, parse_suit
from barbu.errors import ActionNotationError, NotationError
from barbu.view import SeatView

DEFAULT_TIMEOUT_S = 10.0
"""Seconds an external bot has to answer one decision."""

MAX_ANSWER_BYTES = 1 << 20
"""The longest answer line an external bot may write."""

GIVE_UP_AFTER = 3
"""Short runs in a row after which the program is not started again."""

SHORT_LIFE = 10
"""A run of the program that ends (exit, crash, timeout) before this many answers is short."""


class BotFailure(BotError):
    """A bot that crashed, did not answer in time, or answered something that is not an action."""


def parse_answer(answer: object, view: SeatView) -> Action:
    """The action an answer names, for the phase of ``view``.

    The answer is a decoded JSON value. An action object (``{"type": ...}``, as each of
    ``view["legal_actions"]`` is written) and one of the strings of ``view.legal`` always
    work; besides, a contract id, a suit or rank letter, a card or ``"pass"``, a call
    object ``{"double": [...], "redouble": [...]}`` or word (``"maximum"``…), and for
    an arrangement a list of 13 cards (back 5, middle 5, front 3; three lists also do).
    Raises :class:`BotFailure` saying what was expected.

    >>> from barbu import Game, seat_view
    >>> game = Game.new("classic", seed=2)
    >>> game.apply(Declare("no-queens"))
    >>> view = seat_view(game, game.to_act)
    >>> parse_answer({"double": [0]}, view), parse_answer("maximum", view)
    (Call(double=(0,)), Call(word='maximum'))
    >>> parse_answer({"type": "call", "double": [0]}, view)
    Call(double=(0,))
    >>> parse_answer(12, view)
    Traceback (most recent call last):
    ...
    barbu.bots.external.BotFailure: answer 12 is not a call: send one of view["legal_actions"], a call word or ...
    """
    phase = view.phase
    if isinstance(answer, Mapping) and "type" in answer:
        return _action(answer)
    if isinstance(answer, str):
        text = answer.strip()
        for i, legal in enumerate(view.legal):
            if text.lower() == legal.lower():
                return view.legal_actions[i]
    try:
        if phase == "arrange":
            return _arrangement(answer)
        if phase == "call":
            return _call(answer)
        if isinstance(answer, str):
            text = answer.strip()
            if phase == "contract":
                return Declare(text.lower())
            if phase == "trump":
                return NameTrump(parse_suit(text))
            if phase == "rank":
                return NameRank(parse_rank(text))
            if phase == "play":
                return parse_play(text)
    except NotationError as e:
        raise BotFailure(f"answer {_short(answer)} is not an action: {e}") from None
    expected = {
        "contract": "a contract id",
        "trump": "a suit letter S H D C",
        "rank": "a rank letter 2 … A",
        "play": 'a card like "QS" or "pass"',
    }.get(phase, f"an action (phase {phase!r})")
    raise BotFailure(f'answer {_short(answer)} is not {expected}: send one of view["legal_actions"]')


def _action(answer: Mapping[Any, Any]) -> Action:
    try:
        return action_from_json(answer)
    except ActionNotationError as e:
        raise BotFailure(f"answer {_short(answer)} is not an action: {e}") from None


def _call(answer: object) -> Call:
    expected = 'a call: send one of view["legal_actions"], a call word or {"double": [seats], "redouble": [seats]}'
    if isinstance(answer, str):
        text = answer.strip().lower()
        if text in CALL_WORDS:
            return Call() if text == "pass" else Call(word=text)
        raise BotFailure(f"answer {_short(answer)} is not {expected}")
    if isinstance(answer, Mapping):
        unknown = [k for k in answer if k not in ("double", "redouble", "call", "seat")]
        if unknown:
            raise BotFailure(f"unknown key {unknown[0]!r} in call {_short(answer)}: keys are double, redouble, call")
        said = {k: v for k, v in answer.items() if k != "seat" and not (k == "call" and v == "pass")}
        call = _action({"type": "call", **said})
        assert isinstance(call, Call)
        return call
    raise BotFailure(f"answer {_short(answer)} is not {expected}")


def _arrangement(answer: object) -> Arrange:
    expected = "an arrangement: a list of 13 cards, back 5, middle 5, front 3"
    names: list[object]
    if isinstance(answer, str):
        names = list(answer.replace("|", " ").split())
    elif isinstance(answer, list) and len(answer) == 3 and all(isinstance(row, list) for row in answer):
        if [len(row) for row in answer] != [5, 5, 3]:
            raise BotFailure(f"rows of {_short(answer)} must hold 5, 5 and 3 cards")
        names = [c for row in answer for c in row]
    elif isinstance(answer, list):
        names = list(answer)
    else:
        raise BotFailure(f"answer {_short(answer)} is not {expected}")
    if len(names) != 13 or not all(isinstance(n, str) for n in names):
        raise BotFailure(f"answer {_short(answer)} is not {expected}")
    return Arrange(tuple(card(str(n)) for n in names))


def _short(value: object, limit: int = 80) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ExternalBot:
    """A bot run as a separate program that speaks JSON lines on stdin/stdout.

    ``command`` is the program and its arguments (a string is split as a shell would).
    The program is started at the first decision and kept for the next ones. When it
    exits, crashes or times out it is killed (a timed-out decision fails) and started
    again at the next decision; after :data:`GIVE_UP_AFTER` runs in a row that each ended
    before :data:`SHORT_LIFE` answers, it is not started again and every decision fails.
    Its environment gets ``BARBU_BOT_SEED`` (the bot's seed, never the deal's); its
    standard error goes to ``log`` (a file, appended) or nowhere.
    """

    def __init__(
        self,
        command: Sequence[str] | str,
        seed: int | None = 0,
        timeout: float = DEFAULT_TIMEOUT_S,
        name: str | None = None,
        log: str | os.PathLike[str] | None = None,
    ) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise BotError("an external bot needs a command, e.g. external:python3 examples/external_bot.py")
        if timeout <= 0:
            raise BotError(f"the timeout must be positive seconds, not {timeout}")
        self.name = name or "external:" + shlex.join(self.command)
        self.seed = seed
        self.timeout = timeout
        self.log = log
        self.short_lives = 0
        """Runs of the program in a row that ended before :data:`SHORT_LIFE` answers."""
        self._answers = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None
        self._buffer = b""

    # -- the process -------------------------------------------------------------

    def _start(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ)
        if self.seed is not None:
            env["BARBU_BOT_SEED"] = str(self.seed)
        if self.log is not None and self._log_file is None:
            self._log_file = open(self.log, "ab")  # noqa: SIM115 (kept open while the bot runs)
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log_file if self._log_file is not None else subprocess.DEVNULL,
                env=env,
            )
        except OSError as e:
            raise BotFailure(f"cannot start {shlex.join(self.command)}: {e}") from None
        assert process.stdin is not None and process.stdout is not None
        os.set_blocking(process.stdin.fileno(), False)
        self._buffer = b""
        return process

    def close(self) -> None:
        """Stop the program (closing its input first, so it may end by itself)."""
        process, self._process = self._process, None
        if process is not None:
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
            try:
                process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()

    def _end_run(self) -> None:
        """The program exited or failed: count a short run, and stop it."""
        self.short_lives = self.short_lives + 1 if self._answers < SHORT_LIFE else 0
        self._kill()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_process", None) is not None:
            self._kill()

    # -- one decision ------------------------------------------------------------

    def act(self, view: SeatView) -> Action:
        """Send the view, read the answer and parse it; raises :class:`BotFailure`."""
        if self._process is not None and self._process.poll() is not None:
            self._end_run()
        if self.short_lives >= GIVE_UP_AFTER:
            raise BotFailure(
                f"gave up on {self.name}: it exited, crashed or timed out {GIVE_UP_AFTER} times in a row "
                f"within {SHORT_LIFE} answers"
            )
        try:
            line = self._exchange((json.dumps(view.as_json(), separators=(",", ":")) + "\n").encode())
        except BotFailure:
            self._end_run()
            raise
        self._answers += 1
        try:
            answer: Any = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            answer = line.decode("utf-8", "replace").strip()
        return parse_answer(answer, view)

    def _exchange(self, message: bytes) -> bytes:
        if self._process is None:
            self._process = self._start()
            self._answers = 0
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        deadline = time.monotonic() + self.timeout
        out_fd, in_fd = process.stdin.fileno(), process.stdout.fileno()
        while message:
            _, writable, _ = select.select([], [out_fd], [], self._left(deadline))
            if not writable:
                raise BotFailure(f"{self.name} did not read its input within {self.timeout:g} s")
            try:
                message = message[os.write(out_fd, message) :]
            except (BrokenPipeError, ConnectionResetError):
                raise BotFailure(f"{self.name} exited ({self._exit_text()})") from None
        while b"\n" not in self._buffer:
            readable, _, _ = select.select([in_fd], [], [], self._left(deadline))
            if not readable:
                raise BotFailure(f"{self.name} did not answer within {self.timeout:g} s")
            chunk = os.read(in_fd, 65536)
            if not chunk:
                raise BotFailure(f"{self.name} exited ({self._exit_text()}) instead of answering")
            self._buffer += chunk
            if len(self._buffer) > MAX_ANSWER_BYTES:
                raise BotFailure(f"{self.name} wrote over {MAX_ANSWER_BYTES} bytes without ending its answer line")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _left(self, deadline: float) -> float:
        return max(0.0, deadline - time.monotonic())

    def _exit_text(self) -> str:
        process = self._process
        if process is None:
            return "not running"
        try:
            code = process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exit status {code}"
