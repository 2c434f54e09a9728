"""Run one fuzz target of :mod:`harnesses` under atheris (coverage-guided, libFuzzer).

    python tests/fuzz/run_atheris.py TARGET [CORPUS_DIR] [libFuzzer options]

TARGET is ``record``, ``intent`` or ``sheet``. The corpus directory (made, and filled
with the target's seeds, if it is missing or empty) receives the inputs that reached new
code; a crash is written as ``crash-*`` in the current directory with the traceback on
standard error, and the exit code is not 0. Given a file instead of a directory, the
runner runs that one input (to reproduce a crash). Examples:

    python tests/fuzz/run_atheris.py intent /tmp/corpus-intent -runs=2000 -seed=1
    python tests/fuzz/run_atheris.py record /tmp/corpus-record -max_total_time=3600 -max_len=65536

Needs the ``fuzz`` extra (``pip install -e '.[fuzz]'``).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path


def main(argv: list[str]) -> None:
    """Fill the corpus with the seeds, then hand over to libFuzzer."""
    import atheris  # here, so that collecting this file (pytest's doctests) neither needs nor starts it

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    with atheris.instrument_imports(include=["barbu", "harnesses"]):
        import harnesses

    if len(argv) < 2 or argv[1] not in harnesses.TARGETS:
        sys.exit(f"usage: run_atheris.py {{{','.join(harnesses.TARGETS)}}} [CORPUS_DIR] [libFuzzer options]")
    target, seeds = harnesses.TARGETS[argv[1]]
    rest = argv[2:]
    if rest and not rest[0].startswith("-") and not Path(rest[0]).is_file():
        corpus = Path(rest[0])
        corpus.mkdir(parents=True, exist_ok=True)
        if not any(corpus.iterdir()):
            for seed in seeds():
                (corpus / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
    atheris.Setup([argv[0], *rest], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
