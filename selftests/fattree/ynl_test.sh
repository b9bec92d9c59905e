#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The YAML spec against the running module through the kernel's YNL tool
# (tools/net/ynl/cli.py of linux-source-6.12, installed beside this test
# by `make check`): requests built and replies decoded by ynl from
# fattree.yaml alone, compared with ftctl --json for the same objects, and
# refusals with their extended acks. The cases are in ynl_test.py (one
# Python process: under emulation each costs tens of seconds to start).
top=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-/usr/bin/python3}

if [ ! -f "$top/ynl/cli.py" ] || [ ! -f "$top/fattree.yaml" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP ynl is not installed beside the test (make check fetches it: scripts/fetch-ynl)"
	exit 4
fi
if ! "$PY" -c 'import yaml' 2>/dev/null; then
	echo "TAP version 13"
	echo "1..0 # SKIP $PY has no yaml module (python3-yaml)"
	exit 4
fi
[ -d /sys/module/fattree ] || insmod "$top/fattree.ko" || exit 1
PYTHONDONTWRITEBYTECODE=1 exec "$PY" "$top/ynl_test.py"
