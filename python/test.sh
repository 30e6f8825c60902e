#!/usr/bin/env bash
# The Python package's tests: a venv of its own (python/target/venv, or
# $SGF_GROVE_VENV), the test dependencies from PyPI, the package's wheel
# built with `maturin build --release` and installed, then pytest. Fails
# when a test fails.
#
#   bash python/test.sh            # every test; the real-corpus ones need ../shared/corpus
#   bash python/test.sh -k arrow   # pytest's arguments pass through
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${SGF_GROVE_VENV:-$here/target/venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
# shellcheck disable=SC1091
. "$venv/bin/activate"
python -m pip install -q --disable-pip-version-check \
  maturin pytest pyarrow numpy duckdb "dask[distributed]" sgfmill
# The wheel, built and installed as a user installs it (`pip install
# ./python` builds the same one).
rm -rf "$here/target/wheels"
wheel_start=$(date +%s)
(cd "$here" && maturin build --release -q --out target/wheels)
echo "the wheel built in $(( $(date +%s) - wheel_start )) s"
python -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$here"/target/wheels/*.whl
# From the tests' folder: the source tree's sgf_grove/ (without its
# compiled part) must not shadow the installed package.
cd "$here/tests"
python -m pytest -q -rs -p no:cacheprovider "$@"
