"""``python -m kortty_rag`` is the ``kortty-rag`` command."""

import sys

from kortty_rag.cli import main

sys.exit(main())
