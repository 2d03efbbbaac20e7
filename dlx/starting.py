"""The first code of ours that ``python -m dlx`` (``dlx.certify``, ``puzzles``) runs:
from here, Ctrl-C and SIGTERM print "interrupted" and exit with 130, until
``dlx.stopping.stop_from_the_start`` sets the handlers the commands use. Nothing is
imported here but what Python's own start has loaded (the built-in ``_signal``,
``os``, ``sys``), so that the window left to Python's KeyboardInterrupt is Python's
own start (``site`` and finding the package), which no code of ours can reach."""

import _signal
import os
import sys

INTERRUPTED_STATUS = 130  # 128 + SIGINT, as shells report Ctrl-C (``dlx.stopping``'s too)


def _stop_at_once(signum, frame):
    """Nothing started yet, nothing to save: one line, exit 130."""
    try:
        os.write(2, b"interrupted\n")
    finally:
        os._exit(INTERRUPTED_STATUS)


def running(package: str) -> bool:
    """Whether Python is looking for ``package``, or a module in it, to run (``python -m
    package[.module]``): ``sys.argv[0]`` is ``-m`` while it looks, the module's name is in
    ``sys.orig_argv``."""
    argv = sys.orig_argv
    flags = (w[2:] or "".join(argv[k + 2 : k + 3]) for k, w in enumerate(argv[1:]) if w[:2] == "-m")
    return sys.argv[:1] == ["-m"] and next(flags, "").split(".")[0] == package


def stop_at_once_if_run(package: str) -> None:
    """Where ``package`` is being run: Ctrl-C and SIGTERM one line and status 130 (an
    ignored Ctrl-C stays ignored, as ``stop_from_the_start`` keeps it)."""
    if not running(package):
        return
    for signum in (_signal.SIGINT, _signal.SIGTERM):
        if _signal.getsignal(signum) != _signal.SIG_IGN or signum == _signal.SIGTERM:
            _signal.signal(signum, _stop_at_once)
