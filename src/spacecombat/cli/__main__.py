"""``python -m spacecombat.cli``: the command line, as the ``spacecombat`` script runs it."""

import sys

from spacecombat.cli import main

sys.exit(main())
