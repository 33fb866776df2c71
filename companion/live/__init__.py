"""The live referee: camera, rules and voice together, with nothing lost.

:class:`companion.live.loop.Loop` is the state machine; observations
(:mod:`companion.live.observations`) go in, referee inputs (recorded) and
announcements come out. See docs/live.md.
"""
