# SPDX-License-Identifier: GPL-2.0
"""Mininet on a fattree fabric: every host gets a leaf of its own.

No switch, no veth, no Open vSwitch: the fabric is the network. The
topology creates a fabric FT(L, K) (K^L leaves) and one host per leaf;
each host's interface is its leaf, moved into the host's namespace (the
leaf keeps its name and its MAC, which is how the fabric routes: do not
give Mininet --mac). When a host's namespace goes, its leaf returns to
the fabric; the fabric is deleted when the Python process that made it
exits.

From the command line (as root):

    mn --custom python/fattree_mininet.py --topo fattree,2,4 \\
       --host fattree --controller none --test pingall

--topo fattree,L,K[,period[,fabric]]: period as ftctl takes it (100us,
1ms, manual; default 1ms), fabric its name (default mn). From Python:

    from mininet.net import Mininet
    from fattree_mininet import FattreeTopo, FattreeHost
    net = Mininet(topo=FattreeTopo(2, 4), host=FattreeHost, controller=None)
    net.start(); net.pingAll(); net.stop()

ftctl is looked up in $FTCTL, else in PATH.
"""
import atexit
import os
import subprocess

from mininet.link import Intf
from mininet.node import Host
from mininet.topo import Topo

FTCTL = os.environ.get('FTCTL', 'ftctl')


def _ftctl(*args):
    r = subprocess.run([FTCTL, *args], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f'ftctl {" ".join(args)}: {r.stderr.strip()}')
    return r.stdout


class FattreeTopo(Topo):
    """Hosts h1..hN on the leaves of a new fabric FT(levels, k)."""

    def build(self, levels=2, k=4, period='1ms', fabric='mn', **_):
        levels, k = int(levels), int(k)
        _ftctl('fabric', 'add', fabric, 'kary', str(levels), str(k), 'period', str(period))
        atexit.register(_ftctl, 'fabric', 'del', fabric)
        for i in range(k ** levels):
            self.addHost(f'h{i + 1}', leaf=f'{fabric}-l{i}')


class FattreeHost(Host):
    """A host whose interface is its leaf (the leaf= parameter)."""

    def __init__(self, name, leaf=None, **params):
        super().__init__(name, **params)
        if leaf:
            Intf(leaf, node=self)


topos = {'fattree': FattreeTopo}
hosts = {'fattree': FattreeHost}
