"""``python -m barbu.sheet``: the same as ``barbu score``."""

import sys

from barbu.sheet import score_main

sys.exit(score_main(sys.argv[1:]))
