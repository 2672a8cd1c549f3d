"""The command line's exit statuses (docs/limits.md lists them with their causes)."""

DONE = 0
#: ``replay``: the log does not reproduce (the first difference is named by its log line)
DOES_NOT_REPRODUCE = 1
#: bad input: one message on standard error naming the field and what is allowed
BAD_INPUT = 2
#: ``replay``: the log reproduces, but it has no seed, so its dice are the log's own, unverified
UNVERIFIED = 3
#: a bug in spacecombat (one line on standard error; SPACECOMBAT_DEBUG=1 shows the traceback)
INTERNAL_ERROR = 70
#: the input or the output could not be read or written (closed stream, full disk, I/O error)
IO_ERROR = 74
#: interrupted by Ctrl-C (128 + SIGINT)
INTERRUPTED = 130
#: the reader of the output went away (128 + SIGPIPE), as a shell reports it
BROKEN_PIPE = 141
