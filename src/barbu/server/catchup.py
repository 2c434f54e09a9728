"""The recent views of a table's audiences, kept as they were sent, so a catch-up builds nothing.

A client that missed events asks for them (``hello`` or ``sync`` with ``last_seq``). Rebuilding
them would mean replaying the game from its start and building a view per missed action: tens
of milliseconds of CPU on the event loop, which every table shares. Instead each table keeps,
for each audience that may come back (every person's seat, and the watchers while any watch),
the view built for the broadcast of each of the last ``size`` sequence numbers: the oldest as
a whole, then only the fields that changed (each field is compact JSON text, as in the
broadcast). A catch-up joins texts that exist already.

A seat's views are those built from that seat's view and nothing else, so a catch-up shows a
seat exactly what its live frames showed.

>>> log = RecentViews(3)
>>> for seq in range(1, 6):
...     log.record(0, seq, {"seq": str(seq), "hand": '["QS"]'})
>>> log.events(0, 3, 5)
['{"type":"event","seq":4,"view":{"seq":4,"hand":["QS"]}}', '{"type":"event","seq":5,"view":{"seq":5,"hand":["QS"]}}']
>>> log.events(0, 1, 5) is None  # older than what is kept
True
>>> log.current(0, 5)
{'seq': '5', 'hand': '["QS"]'}
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

Fields = dict[str, str]
"""A view as its top-level fields, each as compact JSON text."""


def view_text(kind: str, seq: int, fields: Fields) -> str:
    """A ``state`` or ``event`` frame holding a whole view, joined from its encoded fields.

    >>> view_text("state", 3, {"phase": '"play"'})
    '{"type":"state","seq":3,"view":{"phase":"play"}}'
    """
    body = ",".join(f'"{k}":{v}' for k, v in fields.items())
    return f'{{"type":"{kind}","seq":{seq},"view":{{{body}}}}}'


@dataclass
class _Log:
    """One audience's views: ``base`` at ``first``, then one patch per later sequence number."""

    first: int
    base: Fields
    current: Fields
    patches: deque[Fields] = field(default_factory=deque)

    @property
    def last(self) -> int:
        return self.first + len(self.patches)


class RecentViews:
    """The views of the last ``size`` sequence numbers of each recorded audience (seat or None)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.logs: dict[int | None, _Log] = {}

    def record(
        self, audience: int | None, seq: int, fields: Fields, change: tuple[Fields, Fields] | None = None
    ) -> None:
        """The view ``audience`` has at ``seq`` (recorded for every sequence number, in order).

        ``change``, when the caller knows it already: a view and the fields of ``fields`` that
        differ from it, used if that view is the one recorded last (else the fields are compared).
        """
        log = self.logs.get(audience)
        if log is None or log.last != seq - 1:
            self.logs[audience] = _Log(seq, dict(fields), fields)
            return
        if change is not None and change[0] is log.current:
            log.patches.append(change[1])
        elif log.current.keys() != fields.keys():
            self.logs[audience] = _Log(seq, dict(fields), fields)
            return
        else:
            log.patches.append({k: v for k, v in fields.items() if log.current[k] != v})
        log.current = fields
        while len(log.patches) >= self.size:
            log.base.update(log.patches.popleft())  # the log's own copy: nothing else holds it
            log.first += 1

    def current(self, audience: int | None, seq: int) -> Fields | None:
        """The view recorded for ``audience`` at ``seq`` if that is its latest, else None."""
        log = self.logs.get(audience)
        return log.current if log is not None and log.last == seq else None

    def events(self, audience: int | None, after: int, upto: int) -> list[str] | None:
        """The ``event`` frames of ``after + 1`` to ``upto`` (whole views), or None if they are not all kept."""
        log = self.logs.get(audience)
        if log is None or log.last != upto or log.first > after + 1:
            return None
        view = dict(log.base)
        out = [view_text("event", log.first, view)] if log.first > after else []
        for seq, patch in enumerate(log.patches, start=log.first + 1):
            view.update(patch)
            if seq > after:
                out.append(view_text("event", seq, view))
        return out

    def forget(self, audience: int | None) -> None:
        """Stop keeping the views of ``audience``."""
        self.logs.pop(audience, None)

    def clear(self) -> None:
        """Forget every view (the game was rebuilt from its log)."""
        self.logs.clear()


__all__ = ["Fields", "RecentViews", "view_text"]
