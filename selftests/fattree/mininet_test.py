#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Mininet's Python API over a fabric (fattree_mininet.py): FT(2,3), nine
hosts on nine leaves, pingall, then one TCP flow from the first host to
the last through the whole tree, measured against the path's configured
capacity (one lane per link, one frame per cycle: at period 1 ms, 1000
frames/s, each with at most 1460 bytes of TCP payload). Run by mininet_test.sh; prints
"loss PCT" and "tcp MBITS capacity MBITS" for it to check.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mininet.log import setLogLevel  # noqa: E402
from mininet.net import Mininet  # noqa: E402
from fattree_mininet import FattreeTopo, FattreeHost  # noqa: E402

setLogLevel('warning')
net = Mininet(topo=FattreeTopo(2, 3, period='1ms', fabric='mt'), host=FattreeHost,
              controller=None)
net.start()
try:
    print(f'loss {net.pingAll()}')
    h1, h9 = net.get('h1'), net.get('h9')
    # iperf (2, Mininet's dependency) directly: net.iperf() waits for the
    # server with telnet, in a loop that never ends if telnet differs.
    # The server's figure: what arrived, not what the sender buffered.
    server = h9.popen('iperf -s -p 5001 -f m', universal_newlines=True)
    h1.cmd('sleep 1')
    h1.cmd(f'iperf -c {h9.IP()} -p 5001 -t 8 -f m')
    h1.cmd('sleep 2')
    server.terminate()
    report = server.communicate()[0]
    print(report.strip().splitlines()[-1] if report.strip() else 'no iperf report')
    rates = [float(w[w.index('Mbits/sec') - 1]) for w in
             (line.split() for line in report.splitlines()) if 'Mbits/sec' in w]
    mbit = rates[-1] if rates else 0.0
    # The most TCP payload a frame of MTU 1500 carries is 1460 bytes (no
    # options): one frame per cycle bounds the goodput at 1000 x 1460 B/s.
    print(f'tcp {mbit:.2f} capacity {1000 * 1460 * 8 / 1e6:.2f}')
finally:
    net.stop()
