"""``import cassino.openspiel`` registers ``python_cassino`` with OpenSpiel (needs the
``openspiel`` extra). The code is in :mod:`cassino.apps.research.openspiel`."""

from ._extras import needs

with needs('openspiel', 'OpenSpiel', ('pyspiel', 'numpy')):
    from .apps.research.openspiel import *  # noqa: F401,F403
    from .apps.research.openspiel import CassinoGame, CassinoObserver, CassinoState, GAME_TYPE, SHORT_NAME  # noqa: F401
