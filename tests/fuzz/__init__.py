"""Fuzzing the command line (issue 8): malformed and extreme scenarios, logs, batches and
options, run in-process through ``spacecombat.cli.main``; every case must end with an allowed
exit status (never 70), no traceback, one short line on standard error when refused, and within
bounded time and memory. ``strategies`` makes the cases, ``runner`` runs and judges them (also
used by ``benchmarks/fuzz.py``)."""
