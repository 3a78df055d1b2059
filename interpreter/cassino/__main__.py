"""``python -m cassino``: the same as the ``cassino`` command."""

import sys

from .apps.cli import main

sys.exit(main())
