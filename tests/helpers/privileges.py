"""Making "unreadable" real when the tests run as root.

Root reads any file regardless of its mode (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH). A child process
that drops both from its capability bounding set before ``exec`` is denied like any other user, so a
``chmod 000`` folder is genuinely unreadable for it. For other users, ``chmod`` alone is enough.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable

_PR_CAPBSET_DROP = 24
_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH = 1, 2


def _drop_dac_capabilities() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def permission_checked_preexec() -> Callable[[], None] | None:
    """A ``preexec_fn`` under which file modes are enforced for the child (``None`` if they already
    are)."""
    return _drop_dac_capabilities if os.geteuid() == 0 else None
