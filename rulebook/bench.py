"""Moved to :mod:`rulebook.tools.bench` (``make bench``); ``python -m rulebook.bench`` and this path still work."""

import sys

from rulebook.tools import bench as _moved

if __name__ == "__main__":
    sys.exit(_moved.main())
sys.modules[__name__] = _moved
