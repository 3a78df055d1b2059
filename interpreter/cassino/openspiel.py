"""``import cassino.openspiel`` registers ``python_cassino`` with OpenSpiel (needs the
``openspiel`` extra). The code is in :mod:`cassino.apps.openspiel`."""

from .apps.openspiel import *  # noqa: F401,F403
from .apps.openspiel import CassinoGame, CassinoObserver, CassinoState, GAME_TYPE, SHORT_NAME  # noqa: F401
