"""sgf_grove: fast, forgiving SGF reading, writing, replay and scanning."""

from sgf_grove._native import __version__

__all__ = ["__version__"]
