"""Ability handlers (one module each). Importing this package registers every handler: each
module of the package is imported, so a new handler needs only its module."""

from importlib import import_module
from pkgutil import iter_modules

for _module in iter_modules(__path__):
    import_module(f"{__name__}.{_module.name}")
