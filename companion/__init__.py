"""companion: an offline referee for the Trouble board game.

The package is laid out as a pure rules core (``companion.rules``, standard
library only) with adapters around it: the headless referee
(``companion.referee``), the board model and renderer (``companion.layout``,
``companion.sim``), perception (``companion.vision``), speech
(``companion.voice``) and the live loop. Adapters depend on the core, never
the reverse.
"""

__version__ = "0.1.0"
