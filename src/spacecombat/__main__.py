"""``python -m spacecombat``."""

import sys

from spacecombat.cli import main

sys.exit(main())
