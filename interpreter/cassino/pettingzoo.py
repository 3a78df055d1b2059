"""``from cassino.pettingzoo import env``: any rule file as a PettingZoo AEC environment
(needs the ``pettingzoo`` extra). The code is in :mod:`cassino.apps.research.pettingzoo`."""

from ._extras import needs

with needs('pettingzoo', 'PettingZoo', ('pettingzoo', 'gymnasium', 'numpy')):
    from .apps.research.pettingzoo import draw, env, raw_env  # noqa: F401
    from .apps.research.stepwise import IllegalStep, SetupError  # noqa: F401
