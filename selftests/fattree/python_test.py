#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
The Python API (python/fattree.py, over the kernel's YNL library and the
spec) against ftctl --json (libnl and the C header) for the same objects:
the module's info, a fabric's shape and counters after synthetic
messages, its links and leaves, circuits and demand on a circuit fabric,
a link failed and restored, a refusal with the kernel's message, and a
period that is no whole number of nanoseconds refused, not rounded.
One interpreter for every case (a Python start costs tens of seconds
under emulation). Run by python_test.sh; TAP on stdout.
"""
import json
import os
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
FTCTL = os.path.join(HERE, 'ftctl')
os.environ.setdefault('FATTREE_SPEC', os.path.join(HERE, 'fattree.yaml'))
os.environ.setdefault('FATTREE_YNL', os.path.join(HERE, 'ynl'))
sys.path.insert(0, HERE)
import fattree  # noqa: E402

ft = fattree.Fattree()
cases = []


def case(f):
    cases.append(f)
    return f


def ftctl(*args):
    return json.loads(subprocess.run([FTCTL, '--json', *args], check=True,
                                     capture_output=True, text=True).stdout)


def same(what, got, want):
    if got != want:
        raise AssertionError(f'{what}: python {got!r}, ftctl {want!r}')


@case
def info_is_ftctls():
    py, c = ft.info(), ftctl('info')
    same('module version', py['version'], c['version'])
    same('max leaves', py['max-leaves'], c['limits']['max_leaves'])


@case
def fabric_add_and_show():
    ft.fabric_add('py', kary=(2, 4), period='manual', path='dmodk')
    py, c = ft.fabric('py'), ftctl('fabric', 'show', 'py')[0]
    same('leaves', py['leaves'], 16)
    same('leaves, ftctl', len(ftctl('leaf', 'show', 'py')), 16)
    same('path', py['path'], c['path'])
    same('listed', [f['name'] for f in ft.fabrics()], ['py'])


@case
def counters_after_a_run():
    ft.inject('py', [(0, 15, 3), (1, 14, 2), (2, 15, 1)])
    py = ft.step('py', 10)
    c = ftctl('fabric', 'show', 'py')[0]
    same('cycle', py['cycle'], 10)
    for k in ('offered', 'delivered', 'blocked', 'synth-delivered'):
        same(k, py['stats'][k], c['stats'][k.replace('-', '_')])
    same('delivered all', py['stats']['delivered'], 6)


@case
def links_and_leaves():
    py, c = ft.links('py'), ftctl('link', 'show', 'py')
    same('links', len(py), len(c))
    same('carried', sum(x['carried'] for x in py), sum(x['carried'] for x in c))
    py, c = ft.leaves('py'), ftctl('leaf', 'show', 'py')
    same('leaves', [x['ifname'] for x in py], [x['ifname'] for x in c])
    same('sent', [x['sent'] for x in py], [x['sent'] for x in c])


@case
def circuits_and_demand():
    ft.fabric_add('pc', kary=(2, 4), period='manual', path='circuit')
    same('count', ft.circuit_add('pc', [{'src': 0, 'dst': 5, 'lease': 100},
                                        {'src': 1, 'dst': 6, 'ports': [0, 2]}]), 2)
    py, c = ft.circuits('pc'), ftctl('circuit', 'show', 'pc')
    same('pairs', sorted((x['src'], x['dst']) for x in py),
         sorted((x['src'], x['dst']) for x in c))
    ft.inject('pc', [(3, 12, 4)])
    py, c = ft.demand('pc'), ftctl('demand', 'show', 'pc')
    c = c['entries'] if isinstance(c, dict) else c
    same('demand', [(e['src'], e['dst'], e['backlog']) for e in py],
         [(e['src'], e['dst'], e['backlog']) for e in c])
    same('in demand', len(py), 1)
    same('after del', ft.circuit_del('pc', [(0, 5)]), 1)


@case
def link_fail_and_restore():
    r = ft.link_set('pc', True, level=1, node=1, port=0)
    same('changed', r['changed'], 2)
    same('cut', r['circuits-cut'], 1)
    same('failed, ftctl', len(ftctl('link', 'show', 'pc', 'failed')), 2)
    same('restored', ft.link_set('pc', False, level=1, node=1, port=0)['failed-links'], 0)


@case
def refusal_carries_the_kernels_message():
    try:
        ft.fabric('nosuch')
    except fattree.Error as e:
        same('errno', e.errno, 2)
        if 'no fabric of that name' not in str(e):
            raise AssertionError(f'message: {e}')
    else:
        raise AssertionError('no error for a missing fabric')


@case
def period_refused_not_rounded():
    for bad in ('0.0001ns', '1000.5ns', 1e-10):
        try:
            ft.fabric_add('pp', kary=(2, 2), period=bad)
        except ValueError as e:
            if 'not a whole number of nanoseconds' not in str(e):
                raise AssertionError(f'{bad!r}: message: {e}')
        else:
            raise AssertionError(f'period {bad!r} accepted (rounded)')
    if 'pp' in [f['name'] for f in ft.fabrics()]:
        raise AssertionError('a fabric was made')
    same('1.5us', fattree._duration_ns('1.5us'), 1500)


@case
def fabric_del():
    ft.fabric_del('py')
    ft.fabric_del('pc')
    same('none left', ft.fabrics(), [])


print('TAP version 13')
print(f'1..{len(cases)}')
failed = 0
for n, f in enumerate(cases, 1):
    try:
        f()
        print(f'ok {n} {f.__name__}')
    except Exception:
        failed += 1
        print(f'not ok {n} {f.__name__}')
        for line in traceback.format_exc().splitlines():
            print(f'# {line}')
sys.exit(1 if failed else 0)
