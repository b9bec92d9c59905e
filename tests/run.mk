# SPDX-License-Identifier: GPL-2.0
# `make run` of a directory of test programs, $(TESTS) (tests/unit,
# tests/sched): every program runs even after a failure, and the run
# fails at the end if any did.
run: all
	@fails=0; \
	for t in $(TESTS); do \
		echo "# $$t"; \
		./$$t || fails=$$((fails + 1)); \
	done; \
	if [ $$fails -ne 0 ]; then \
		echo "# $$fails test program(s) failed"; exit 1; \
	fi; \
	echo "# all test programs passed"
