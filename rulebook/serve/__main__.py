"""``python -m rulebook.serve``: the server process that ``rulebook app`` and ``rulebook lab`` start."""

import sys

from rulebook.serve import main

sys.exit(main())
