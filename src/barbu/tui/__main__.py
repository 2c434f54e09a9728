"""``python -m barbu.tui``: the same as ``barbu play``."""

import sys

from barbu.tui import play_main

if __name__ == "__main__":
    raise SystemExit(play_main(sys.argv[1:]))
