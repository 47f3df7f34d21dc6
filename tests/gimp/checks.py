"""A tiny assertion collector for the integration tests: prints every failure and ends
with the plain "<suite>: N passed, N failed" line."""
import sys


class Checks:
    def __init__(self, suite):
        self.suite, self.passed, self.failed = suite, 0, 0

    def check(self, condition, message):
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            print("FAILED: %s" % message, flush=True)
        return condition

    def done(self):
        print("%s: %d passed, %d failed" % (self.suite, self.passed, self.failed))
        sys.exit(1 if self.failed else 0)
