"""``python -m barbu.server``: the same as ``barbu serve``."""

import sys

from barbu.server import serve_main

if __name__ == "__main__":
    sys.exit(serve_main(sys.argv[1:]))
