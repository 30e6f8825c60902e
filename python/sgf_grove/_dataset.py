"""Dataset folders written whole: a new dataset is written into a sibling
temporary folder and renamed into place at the end, so that readers see
the old dataset or the new one, never parts of both. An existing folder
that holds anything is refused unless ``overwrite=True``; then the old
folder is renamed away, the new one renamed in, and the old one removed.
"""

import os
import shutil
import uuid
from typing import Callable, TypeVar, Union

PathLike = Union[str, "os.PathLike[str]"]
T = TypeVar("T")

#: How the names of the temporary folders end (the suffix of the
#: library's temporary files, ``sgf_grove.atomic``).
TEMP_SUFFIX = ".sgf-grove-tmp"


def _holds_something(path: str) -> bool:
    try:
        with os.scandir(path) as entries:
            return any(True for _ in entries)
    except FileNotFoundError:
        return False
    except NotADirectoryError:
        return True


def write_dataset(out_dir: PathLike, overwrite: bool, write: Callable[[str], T]) -> T:
    """Calls ``write(folder)`` on a fresh sibling folder of ``out_dir``,
    then puts that folder in the place of ``out_dir``. Raises
    ``FileExistsError`` when ``out_dir`` holds anything and ``overwrite``
    is false (nothing is written); when ``write`` raises, its folder is
    removed and ``out_dir`` left as it was."""
    out = os.path.abspath(os.fspath(out_dir))
    if not overwrite and _holds_something(out):
        raise FileExistsError(
            f"{out} already holds files (an earlier dataset?); the new parts would be "
            "read together with them. Remove it, choose another folder, or pass "
            "overwrite=True to replace it whole"
        )
    parent, name = os.path.split(out)
    os.makedirs(parent, exist_ok=True)
    tag = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
    new = os.path.join(parent, f".{name}.new-{tag}{TEMP_SUFFIX}")
    os.mkdir(new)
    try:
        result = write(new)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    old = os.path.join(parent, f".{name}.old-{tag}{TEMP_SUFFIX}")
    moved_away = False
    if os.path.lexists(out):
        if not overwrite and _holds_something(out):
            # Filled by someone else while we wrote.
            shutil.rmtree(new, ignore_errors=True)
            raise FileExistsError(f"{out} was filled by another writer meanwhile; left as it is")
        os.rename(out, old)
        moved_away = True
    try:
        os.rename(new, out)
    except BaseException:
        if moved_away:
            os.rename(old, out)
        shutil.rmtree(new, ignore_errors=True)
        raise
    if moved_away:
        shutil.rmtree(old, ignore_errors=True)
    return result
