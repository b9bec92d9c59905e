#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Python API (fattree.py) against ftctl --json; the cases are in
# python_test.py. It needs the kernel's YNL library, installed beside the
# test by make check (scripts/fetch-ynl); without it the test skips.
top=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-/usr/bin/python3}
if [ ! -f "$top/ynl/lib/ynl.py" ] || ! "$PY" -c 'import yaml' 2>/dev/null; then
	echo "TAP version 13"
	echo "1..0 # SKIP no YNL library beside the test, or no python3-yaml"
	exit 4
fi
[ -d /sys/module/fattree ] || insmod "$top/fattree.ko" || exit 1
for f in py pc; do "$top/ftctl" fabric del $f 2>/dev/null; done
PYTHONDONTWRITEBYTECODE=1 exec "$PY" "$top/python_test.py"
