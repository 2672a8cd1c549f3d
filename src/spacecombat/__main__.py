"""``python -m spacecombat``."""

from spacecombat.cli import console

console()
