"""Builds barbu's optional compiled accelerator (``barbu._native``); see docs/native.md.

Everything else is configured in pyproject.toml. Without a C compiler, or when the
build fails, the install goes on with one line saying so and barbu runs its pure-Python
path (the same rules, the same results, slower).
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NOT_BUILT = "barbu: compiled accelerator not built ({}); the pure-Python path is used"


class OptionalBuildExt(build_ext):
    """Build the accelerator when possible; otherwise say so in one line and carry on."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler at all: setuptools fails before compiling
            print(
                f"barbu: compiled accelerator not built ({type(e).__name__}); the pure-Python path is used",
                file=sys.stderr,
            )

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:
            print(
                f"barbu: compiled accelerator not built ({type(e).__name__}); the pure-Python path is used",
                file=sys.stderr,
            )


setup(
    ext_modules=[
        Extension(
            "barbu._native", ["src/barbu/_native.c"], extra_compile_args=["-O2", "-ffp-contract=off"], optional=True
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
