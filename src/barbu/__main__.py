"""``python -m barbu``: the same as the ``barbu`` command."""

import sys

from barbu.cli import main

if __name__ == "__main__":
    sys.exit(main())
