"""``from cassino.vector import VectorEnv``: many games of any rule file stepped together, one
action a game per call, with auto-reset and seeds (needs numpy, from the ``openspiel`` or
``pettingzoo`` extra). The code is in :mod:`cassino.apps.research.vector`."""

from ._extras import needs

with needs('pettingzoo', 'numpy', ('numpy',)):
    from .apps.research.vector import Batch, VectorEnv  # noqa: F401
    from .apps.research.stepwise import IllegalStep, SetupError  # noqa: F401
