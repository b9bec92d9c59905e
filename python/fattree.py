# SPDX-License-Identifier: GPL-2.0
"""fattree: drive fattree fabrics from Python.

A thin layer over the kernel's own YNL library (tools/net/ynl/lib in the
kernel sources), driven by the family's YAML spec, the one description of
the wire format: nothing here encodes or decodes an attribute by hand, so
it cannot drift from the kernel. Replies are plain dicts and lists with
the spec's attribute names (``stats['offered']``, ``link['max-cycle']``).

    import fattree
    ft = fattree.Fattree()
    ft.fabric_add('ft0', kary=(3, 4), period='manual')
    ft.step('ft0', 10)
    print(ft.fabric('ft0')['cycle'], len(ft.links('ft0')))
    ft.fabric_del('ft0')

Refusals raise fattree.Error, whose str() is the kernel's extended-ack
message. Changes need CAP_NET_ADMIN, reads do not.

Where things are found. Installed (the Debian package python3-fattree,
or make install), this file is the package fattree's __init__.py, with
the spec (fattree.yaml) and the kernel's YNL library (_ynl/, vendored:
imported as fattree._ynl, never as a top-level package) beside it; in the
source tree it is python/fattree.py, and they are uapi/fattree.yaml and
build/ynl/tools/net/ynl/lib (make ynl extracts it from Debian's
linux-source-6.12). $FATTREE_SPEC (the spec) and $FATTREE_YNL (the YNL
library's directory, or the one holding its lib/) come first.
"""
import fractions
import importlib.util
import os
import re
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_TOP = os.path.dirname(_HERE)


def _first(*paths):
    for p in paths:
        if p and os.path.exists(p):
            return p
    return None


_SPEC = _first(os.environ.get('FATTREE_SPEC'),
               os.path.join(_HERE, 'fattree.yaml'),
               os.path.join(_TOP, 'uapi', 'fattree.yaml'),
               '/usr/share/fattree/fattree.yaml',
               '/usr/local/share/fattree/fattree.yaml')


def _ynl_dirs():
    env = os.environ.get('FATTREE_YNL')
    if env:
        yield env
        yield os.path.join(env, 'lib')
    yield os.path.join(_HERE, '_ynl')           # installed: the package's own
    yield os.path.join(_TOP, 'build', 'ynl', 'tools', 'net', 'ynl', 'lib')  # make ynl


_YNL = next((d for d in _ynl_dirs() if os.path.isfile(os.path.join(d, 'ynl.py'))), None)


def _load_ynl(path):
    """The YNL library in PATH as the subpackage _ynl of this module.

    Under this module's name, so that no directory of sys.path (a cwd of
    /, with its /lib) can stand in for it; its own imports are relative.
    """
    name = __name__ + '._ynl'
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, os.path.join(path, '__init__.py'),
                                                  submodule_search_locations=[path])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        for m in [m for m in sys.modules if m == name or m.startswith(name + '.')]:
            del sys.modules[m]
        raise
    return mod


if _YNL is None:                        # pragma: no cover
    raise ImportError('fattree needs the kernel\'s YNL Python library, found neither beside '
                      f'it ({os.path.join(_HERE, "_ynl")}) nor in a source tree\'s build/ynl: '
                      'install python3-fattree, run make ynl in the source tree, or set '
                      'FATTREE_YNL to the directory holding ynl.py')
try:
    _ynl = _load_ynl(_YNL)
except ModuleNotFoundError as e:        # pragma: no cover
    if e.name != 'yaml':
        raise
    raise ImportError('fattree needs PyYAML (Debian: python3-yaml)') from e
YnlFamily, NlError = _ynl.YnlFamily, _ynl.NlError


class Error(Exception):
    """A request the kernel refused: .errno and the extended-ack message."""

    def __init__(self, err):
        self.errno = -err.nl_msg.error
        self.extack = dict(err.nl_msg.extack or {})
        msg = self.extack.get('msg') or os.strerror(self.errno)
        super().__init__(f'{os.strerror(self.errno)}: {msg}')


def _u32s(vals):
    return b''.join(int(v).to_bytes(4, sys.byteorder) for v in vals)


def _ports(ports):
    # A binary member of a struct: YNL takes it as hex.
    return bytes(ports).ljust(20, b'\0').hex()


def _duration_ns(t):
    """'manual', a number of seconds, or a string with a unit (1.5ms).

    Exact, as ftctl reads it: a value that is no whole number of
    nanoseconds (0.0001ns, 1.5ns) is refused, not rounded to another (0 is
    manual).
    """
    if t in (None, 'manual', 0, '0'):
        return 0
    num, mul = None, None
    if isinstance(t, (int, float)) and not isinstance(t, bool):
        num, mul = repr(t), 10**9   # a float's shortest repr: 0.0015 is 1500000 ns
    elif isinstance(t, str):
        for unit, m in (('ns', 1), ('us', 10**3), ('ms', 10**6), ('s', 10**9)):
            if t.endswith(unit) and _DECIMAL.fullmatch(t[:-len(unit)]):
                num, mul = t[:-len(unit)], m
                break
    if num is None:
        raise ValueError(f'bad period {t!r}: a number and a unit (ns, us, ms, s), or manual')
    try:
        ns = fractions.Fraction(num) * mul    # exact: no context to round in
    except (ValueError, ZeroDivisionError):
        raise ValueError(f'bad period {t!r}: a number and a unit (ns, us, ms, s), '
                         'or manual') from None
    if ns < 0:
        raise ValueError(f'bad period {t!r}: a number and a unit (ns, us, ms, s), or manual')
    if ns.denominator != 1:
        raise ValueError(f'bad period {t!r}: not a whole number of nanoseconds, '
                         'the unit a period is set in (refused, not rounded)')
    if ns > 2**64 - 1:
        raise ValueError(f'bad period {t!r}: too large, at most {2**64 - 1} ns')
    return int(ns)


_DECIMAL = re.compile(r'[0-9]+(\.[0-9]*)?|\.[0-9]+', re.ASCII)


class Fattree:
    """The fattree family of this network namespace."""

    def __init__(self, spec=None):
        # The spec's schema is checked where it is built (tests/tools/ynl-spec).
        self.ynl = YnlFamily(spec or _SPEC, schema='')

    def _do(self, op, attrs):
        try:
            return self.ynl.do(op, attrs)
        except NlError as e:
            raise Error(e) from None

    def _dump(self, op, attrs):
        try:
            return self.ynl.dump(op, attrs)
        except NlError as e:
            raise Error(e) from None

    # ---- the module ----
    def info(self):
        """Module version, family version and limits."""
        return self._do('info-get', {})

    # ---- fabrics ----
    def fabric_add(self, name, kary=None, binary=None, down=None, up=None, lanes=None,
                   period='manual', **options):
        """Create a fabric: kary=(L, K), binary=N, or down=m and up=w
        (lists from level 1); lanes per level; period 'manual', seconds or
        '100us'; other options by their spec name (path='dmodk',
        backlog=64, seed=1, ...), enums by name."""
        if kary:
            levels, k = kary
            down, up = [k] * levels, [1] + [k] * (levels - 1)
        elif binary:
            levels = binary.bit_length() - 1
            if binary < 2 or 1 << levels != binary:
                raise ValueError('binary N: N a power of two, 2 or more')
            down, up = [2] * levels, [1] * levels
        if not down or not up or len(down) != len(up):
            raise ValueError('give kary=(L, K), binary=N, or down and up of one length')
        attrs = {'name': name, 'levels': len(down), 'down': _u32s(down), 'up': _u32s(up),
                 'period-ns': _duration_ns(period)}
        if lanes:
            attrs['lanes'] = _u32s(lanes)
        attrs.update({k.replace('_', '-'): v for k, v in options.items()})
        self._do('fabric-new', attrs)

    def fabric_del(self, name):
        self._do('fabric-del', {'name': name})

    def fabric(self, name):
        """One fabric: its shape, policies, cycle and counters (stats)."""
        return self._do('fabric-get', {'name': name})

    def fabrics(self):
        """Every fabric of this namespace."""
        return self._dump('fabric-get', {})

    def fabric_set(self, name, period=None, **policies):
        attrs = {'name': name}
        if period is not None:
            attrs['period-ns'] = _duration_ns(period)
        attrs.update({k.replace('_', '-'): v for k, v in policies.items()})
        self._do('fabric-set', attrs)

    def step(self, name, cycles=1):
        """Run cycles of a manual fabric; returns the fabric after them."""
        self._do('fabric-step', {'name': name, 'steps': cycles})
        return self.fabric(name)

    def inject(self, name, rows):
        """Synthetic messages: rows of (src, dst, count), all or nothing."""
        self._do('fabric-inject', {'name': name, 'inject': [
            {'src': s, 'dst': d, 'count': c} for s, d, c in rows]})

    def stats_reset(self, name):
        self._do('stats-reset', {'name': name})

    # ---- what a fabric holds ----
    def links(self, name):
        return self._dump('link-get', {'fabric': name})

    def leaves(self, name):
        return self._dump('leaf-get', {'fabric': name})

    def circuits(self, name):
        return self._dump('circuit-get', {'fabric': name})

    def demand(self, name):
        """The pairs in demand: entries of src, dst, backlog, circuit-lanes, age."""
        return [e for msg in self._dump('demand-get', {'fabric': name})
                for e in msg.get('entry', [])]

    def circuit_add(self, name, circuits):
        """Install circuits, all or nothing: dicts with src, dst and
        optionally lanes (1), lease (0: until deleted) and ports
        (P_1..P_H). Returns the fabric's circuit count."""
        return self._do('circuit-add', {'fabric': name, 'entry': [
            {'src': c['src'], 'dst': c['dst'], 'lanes': c.get('lanes', 1),
             'lease': c.get('lease', 0), 'port': _ports(c.get('ports', ()))}
            for c in circuits]})['count']

    def circuit_del(self, name, pairs):
        """Delete the circuits of (src, dst) pairs, all or nothing."""
        return self._do('circuit-del', {'fabric': name, 'pair': [
            {'src': s, 'dst': d} for s, d in pairs]})['count']

    def link_set(self, name, failed, **which):
        """Fail (True) or restore (False) links: id=ID; or level, node,
        port [direction 'up'|'down']; or switch_level and switch_node.
        Returns changed, circuits-cut and failed-links."""
        attrs = {'fabric': name, 'fail': 1 if failed else 0}
        attrs.update({k.replace('_', '-'): v for k, v in which.items()})
        return self._do('link-set', attrs)
