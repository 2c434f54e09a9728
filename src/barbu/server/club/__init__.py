"""The online club: accounts, ratings and the ladder, the quick-game queue, and the operations routes.

:func:`add_club_routes` adds everything to the web app (``barbu.server.app`` calls it):

- :mod:`~barbu.server.club.accounts`: sign-up, log-in, log-out, password, preferences (argon2
  hashes, session cookies rotated at every log-in, log-in attempts limited);
- :mod:`~barbu.server.club.ratings`: Weng-Lin (Plackett-Luce) ratings per rule set through
  ``openskill``, updated when a rated game ends, with the anti-farming policy;
- :mod:`~barbu.server.club.quick`: the quick-game queue, filling with bots after a chosen wait;
- :mod:`~barbu.server.club.operations`: ``/healthz``, ``/readyz``, ``/metrics``, JSON logs;
- :mod:`~barbu.server.club.routes`: the JSON API and the pages (account, ladder, profile).
"""

from __future__ import annotations

from barbu.server.club.routes import Club, add_club_routes

__all__ = ["Club", "add_club_routes"]
