"""Runs sgfmill's own test suite (its ``sgfmill_tests`` folder, from the
sdist) against ``sgf_grove.sgfmill`` installed as ``sgfmill``, and prints
one JSON object: each test's id → ``"pass"``, ``"fail"`` or ``"error"``
(with the first line of the reason under ``"reasons"``).

    python sgfmill_suite_runner.py FOLDER_HOLDING_sgfmill_tests

Used by test_sgfmill_suite.py, in a process of its own so that the
``sgfmill`` it installs stays out of the other tests.
"""

import json
from collections import defaultdict
import sys
import unittest

import sgf_grove.sgfmill


class Record(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.outcomes = {}
        self.reasons = {}

    def addSuccess(self, test):
        self.outcomes[test.id()] = "pass"

    def _bad(self, test, kind, err):
        self.outcomes[test.id()] = kind
        lines = self._exc_info_to_string(err, test).strip().splitlines()
        self.reasons[test.id()] = lines[-1] if lines else kind

    def addFailure(self, test, err):
        self._bad(test, "fail", err)

    def addError(self, test, err):
        self._bad(test, "error", err)


def main(folder):
    sgf_grove.sgfmill.install()
    sys.path.insert(0, folder)
    import sgfmill

    assert sgfmill is sgf_grove.sgfmill, "install() did not take"
    from sgfmill_tests import run_sgfmill_testsuite as runner

    suite = runner.make_testsuite(set(), defaultdict(set))
    record = Record()
    suite.run(record)
    json.dump({"outcomes": record.outcomes, "reasons": record.reasons}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
