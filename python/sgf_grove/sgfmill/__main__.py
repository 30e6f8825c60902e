"""``python -m sgf_grove.sgfmill SCRIPT.py [ARGS...]``: runs a program
written for sgfmill on sgf-grove's drop-in, unchanged (``sys.argv`` is
``[SCRIPT.py, ARGS...]`` and the script's folder is first on
``sys.path``, as when Python runs it)."""

from __future__ import annotations

import os
import runpy
import sys
from typing import List, Optional

from . import install

USAGE = "usage: python -m sgf_grove.sgfmill SCRIPT.py [ARGS...]"


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the script named by ``argv[0]`` with the rest as its
    arguments; 2 with a usage line when there is no script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not args else sys.stdout)
        return 0 if args else 2
    script = args[0]
    if not os.path.isfile(script):
        print(f"sgf_grove.sgfmill: no such script: {script}", file=sys.stderr)
        return 2
    install()
    sys.argv = args
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
