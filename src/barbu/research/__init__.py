"""The research adapters: Barbu for learning and search libraries.

:mod:`barbu.research.encoding` (one fixed action space and observation vector per rule set),
:mod:`barbu.research.env` (a PettingZoo AEC environment, extra ``rl``) and
:mod:`barbu.research.openspiel_game` (an OpenSpiel game, extra ``openspiel``). Nothing is
imported here, so each adapter loads only its own library. docs/research.md describes them.
"""
