#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
The YAML spec against the running module, through the kernel's own YNL
command-line tool (tools/net/ynl/cli.py of Debian's linux-source-6.12) and
nothing of this project's C code: ynl encodes every request and decodes
every reply from uapi/fattree.yaml alone. A fabric is created, filled,
stepped and given circuits through ynl; what ynl decodes of each object is
compared with ftctl --json (libnl and the C header) for the same object,
so an attribute whose number or type in the spec is not the kernel's fails
here. Refusals come back with the kernel's extended ack; copies of the spec
with two attribute numbers exchanged or a wrong type must be caught.

Each ynl operation is one run of cli.py's main() with its command line, as
`cli.py --spec fattree.yaml --no-schema --output-json ...` would run it, all
in this one interpreter: under emulation a Python process costs tens of
seconds to start. The spec's schema validation is the host's
(tests/tools/ynl-spec), as the kernel's own ynl selftests skip it too.
Run by ynl_test.sh; TAP on stdout.
"""
import ast
import contextlib
import errno
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
YNL_DIR = os.path.join(HERE, 'ynl')
SPEC = os.path.join(HERE, 'fattree.yaml')
FTCTL = os.environ.get('FTCTL', os.path.join(HERE, 'ftctl'))

sys.path.insert(0, YNL_DIR)
import cli  # noqa: E402  the kernel's tools/net/ynl/cli.py
import yaml  # noqa: E402

TMP = tempfile.mkdtemp(prefix='ynl_test.')


# ---- running ynl and ftctl ----
def ynl(*args, spec=SPEC):
    """cli.py's main() with this command line: (exit status, its output)."""
    argv = ['cli.py', '--spec', spec, '--no-schema', '--output-json', *args]
    out = io.StringIO()
    rc = 0
    saved = sys.argv
    sys.argv = argv
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            cli.main()
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    except Exception:  # what a separate process would die of
        traceback.print_exc(file=out)
        rc = 1
    finally:
        sys.argv = saved
    return rc, out.getvalue()


class Fail(Exception):
    pass


def ynl_ok(*args, spec=SPEC):
    """The JSON documents ynl printed (reply, then notifications)."""
    rc, out = ynl(*args, spec=spec)
    if rc:
        raise Fail(f'ynl {" ".join(args)}: exit {rc}\n{out}')
    return [json.loads(ln) for ln in out.splitlines() if ln.strip()]


def ynl_refused(*args, spec=SPEC):
    rc, out = ynl(*args, spec=spec)
    if rc == 0:
        raise Fail(f'ynl {" ".join(args)} succeeded:\n{out}')
    return out


def run(*cmd):
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        raise Fail(f'{" ".join(cmd)}: exit {p.returncode}\n{p.stdout}')
    return p.stdout


def ftctl_json(*args):
    return json.loads(run(FTCTL, '--json', *args))


def le32(*vals):
    """u32 values as the hex of a binary attribute (little-endian, as on x86)."""
    return b''.join(v.to_bytes(4, 'little') for v in vals).hex()


def ports(*p):
    """A circuit's port member: P_1..P_H, the rest of max-levels zero."""
    return bytes(p).ljust(20, b'\0').hex()


# ---- ynl's decoding against ftctl's ----
def nk(k):
    return k.replace('-', '_')


def norm_fabric(y):
    return {nk(k): ({nk(a): b for a, b in v.items()} if k == 'stats' else v)
            for k, v in y.items()}


def norm_link(y):
    out = {nk(k): v for k, v in y.items() if k != 'up'}
    out['direction'] = {None: 'down', True: 'up'}.get(y.get('up'), f'flag {y.get("up")!r}')
    return out


def norm_leaf(y):
    out = {nk(k): v for k, v in y.items() if k != 'latency'}
    if 'latency' in y:
        out['latency_histogram'] = y['latency']
    return out


def flat_leaf(f):
    out = {k: v for k, v in f.items() if k != 'latency_cycles'}
    if 'latency_cycles' in f:
        out['latency_histogram'] = f['latency_cycles']['histogram']
    return out


def norm_circuit(y):
    out = {nk(k): v for k, v in y.items()}
    if out.get('expires') == 0:     # ftctl: null, "until deleted"
        out['expires'] = None
    return out


def flat_info(f):
    out = {k: v for k, v in f.items() if k != 'limits'}
    out.update(f.get('limits', {}))
    return out


def plain(y):
    return {nk(k): v for k, v in y.items()}


# kind -> (identity of an object, ynl -> ftctl's form, ftctl flattened,
#          ftctl keys computed from several attributes)
KINDS = {
    'info': (None, plain, flat_info, set()),
    'fabric': (('name',), norm_fabric, dict, {'shape', 'switches', 'links', 'tree'}),
    'link': (('id',), norm_link, dict, set()),
    'leaf': (('index',), norm_leaf, flat_leaf, set()),
    'circuit': (('src', 'dst'), norm_circuit, dict, set()),
    'demand': (('src', 'dst'), plain, dict, set()),
}


def compare(kind, ys, fs, nonzero=()):
    """Lists of objects, ynl's and ftctl's: the same objects, every value
    ynl decoded equal to ftctl's, every attribute ftctl shows decoded."""
    key, norm, flat, derived = KINDS[kind]
    ys = [norm(y) for y in ys]
    fs = [flat(f) for f in fs]
    errs = []

    def ident(o):
        return ' '.join(f'{k} {o.get(k)}' for k in key) if key else 'the reply'
    if len(ys) != len(fs):
        errs.append(f'ynl decoded {len(ys)} objects, ftctl shows {len(fs)}')
    if key:
        fby = {tuple(f.get(k) for k in key): f for f in fs}
        pairs = []
        for y in ys:
            f = fby.get(tuple(y.get(k) for k in key))
            if f is None:
                errs.append(f'ynl decoded {ident(y)}, ftctl shows no such object')
            else:
                pairs.append((y, f))
    else:
        pairs = list(zip(ys, fs))
    for y, f in pairs:
        for k, v in y.items():
            if k not in f:
                errs.append(f'{ident(f)}: ynl decoded {k} = {v!r}, ftctl shows no {k}')
            elif f[k] != v:
                errs.append(f'{ident(f)}: {k}: ynl {v!r}, ftctl {f[k]!r}')
        for k in f:
            if k not in y and k not in derived:
                errs.append(f'{ident(f)}: ftctl shows {k} = {f[k]!r}, ynl decoded none')

    def some(v):
        return any(v) if isinstance(v, list) else bool(v)
    for k in nonzero:
        if not any(some(y.get(k)) for y in ys):
            errs.append(f'no object has a non-zero {k}: the comparison proves little')
    if errs:
        raise Fail('\n'.join(errs))
    return f'{len(pairs)} {kind} object(s) agree'


def expect(obj, want):
    """@obj holds these values (a.b: b inside a)."""
    errs = []
    for k, v in want.items():
        got = obj
        for part in k.split('.'):
            got = got.get(part) if isinstance(got, dict) else None
        if got != v:
            errs.append(f'{k}: {got!r}, expected {v!r}')
    if errs:
        raise Fail('\n'.join(errs) + f'\nin {obj!r}')


def extack(out, err, msg=None, bad=None, max_len_of=None):
    """ynl's report of a refusal: the errno, the kernel's extended-ack
    message, the offending attribute, the policy the kernel reports."""
    lines = out.splitlines()
    errs = []
    want = f'Netlink error: {os.strerror(err)}'
    if not lines or lines[0] != want:
        errs.append(f'first line {lines[0] if lines else ""!r}, expected {want!r}')
    ext = None
    for ln in lines:
        if ln.strip().startswith('extack: '):
            ext = ast.literal_eval(ln.strip()[len('extack: '):])
    if ext is None:
        raise Fail('\n'.join(errs + ['no extended ack in:', out]))
    if msg is not None and ext.get('msg') != msg:
        errs.append(f"extack msg {ext.get('msg')!r}, expected {msg!r}")
    if bad is not None and ext.get('bad-attr') != bad:
        errs.append(f"extack bad-attr {ext.get('bad-attr')!r}, expected {bad!r}")
    if max_len_of is not None:
        set_name, attr = max_len_of
        spec = yaml.safe_load(open(SPEC))
        a = next(a for s in spec['attribute-sets'] if s['name'] == set_name
                 for a in s['attributes'] if a['name'] == attr)
        want_len = a.get('checks', {}).get('max-len')
        got = ext.get('policy', {}).get('max-length')
        if want_len is None or got != want_len:
            errs.append(f"the kernel's policy says max-length {got!r}, the spec's "
                        f'{set_name}.{attr} checks max-len {want_len!r}')
    if errs:
        raise Fail('\n'.join(errs + [out]))
    return f'extack {ext}'


def spec_copy(name, change):
    """A copy of the spec with @change applied to its parsed form."""
    text = open(SPEC).read()
    spec = yaml.safe_load(text)
    change(spec)
    path = os.path.join(TMP, name)
    with open(path, 'w') as fp:
        fp.write(text.splitlines()[0] + '\n')       # the SPDX line ynl wants
        yaml.safe_dump(spec, fp, sort_keys=False)
    return path


def attrs_of(spec, set_name):
    return next(s for s in spec['attribute-sets'] if s['name'] == set_name)['attributes']


# ---- the test cases ----
SEED = 4294967301
tests = []


def case(fn):
    tests.append(fn)
    return fn


@case
def info_get():
    y = ynl_ok('--do', 'info-get')[0]
    return compare('info', [y], [ftctl_json('info')])


# XGFT(2; 4,4; 1,2) with 1 and 2 lanes per level: 16 leaves
@case
def fabric_new():
    ynl_ok('--do', 'fabric-new', '--json', json.dumps({
        'name': 'yn', 'levels': 2, 'down': le32(4, 4), 'up': le32(1, 2),
        'lanes': le32(1, 2), 'path': 'dmodk', 'injection': 'all',
        'arbitration': 'fixed', 'period-ns': 0, 'backlog': 100, 'seed': SEED}))
    run(FTCTL, 'fabric', 'show', 'yn')


state = {}


@case
def fabric_get_do():
    y = ynl_ok('--do', 'fabric-get', '--json', '{"name": "yn"}')[0]
    state['yn'] = y
    return compare('fabric', [y], ftctl_json('fabric', 'show', 'yn'))


@case
def fabric_new_as_requested():
    expect(state.get('yn', {}), {
        'levels': 2, 'down': [4, 4], 'up': [1, 2], 'lanes': [1, 2],
        'profile': 'explicit', 'path': 'dmodk', 'injection': 'all',
        'arbitration': 'fixed', 'period-ns': 0, 'backlog': 100, 'seed': SEED,
        'leaves': 16, 'cycle': 0})


# synthetic rows (structs, the attribute repeated): three sources into leaf 15
@case
def fabric_inject_rows():
    rows = [(0, 15, 6), (4, 15, 3), (8, 15, 3), (1, 14, 3), (2, 13, 4), (5, 9, 2)]
    ynl_ok('--do', 'fabric-inject', '--json', json.dumps({
        'name': 'yn', 'inject': [{'src': s, 'dst': d, 'count': c} for s, d, c in rows]}))
    expect(ftctl_json('fabric', 'show', 'yn')[0],
           {'stats.synth_queued': 21, 'stats.queued': 21})


@case
def fabric_step():
    ynl_ok('--do', 'fabric-step', '--json', '{"name": "yn", "steps": 3}')
    expect(ftctl_json('fabric', 'show', 'yn')[0], {'cycle': 3})


@case
def fabric_get_dump():
    run(FTCTL, 'fabric', 'add', 'yf', 'kary', '2', '2', 'path', 'random',
        'injection', 'random-prime', 'period', 'manual', 'seed', '7')
    y = ynl_ok('--dump', 'fabric-get')[0]
    return compare('fabric', y, ftctl_json('fabric', 'show'), nonzero=['cycle'])


@case
def link_get_dump():
    y = ynl_ok('--dump', 'link-get', '--json', '{"fabric": "yn"}')[0]
    return compare('link', y, ftctl_json('link', 'show', 'yn'),
                   nonzero=['carried', 'blocked', 'max_cycle'])


def demand_compare(msgs, f):
    """ynl's demand messages (each with its cycle and entries) against
    ftctl's demand show."""
    cycles = {m.get('cycle') for m in msgs}
    if cycles != {f['cycle']}:
        raise Fail(f'cycle: ynl {sorted(cycles)}, ftctl {f["cycle"]}')
    return compare('demand', [e for m in msgs for e in m.get('entry', [])],
                   f['entries'], nonzero=['backlog', 'age'])


@case
def demand_get_dump():
    y = ynl_ok('--dump', 'demand-get', '--json', '{"fabric": "yn"}')[0]
    return demand_compare(y, ftctl_json('demand', 'show', 'yn'))


# two circuits up to level 2 (P_1 = 0, P_2 = 1 and 0), one with a lease
@case
def circuit_add():
    y = ynl_ok('--do', 'circuit-add', '--json', json.dumps({'fabric': 'yn', 'entry': [
        {'src': 1, 'dst': 14, 'lanes': 1, 'lease': 50, 'port': ports(0, 1)},
        {'src': 3, 'dst': 12, 'lanes': 1, 'lease': 0, 'port': ports(0, 0)}]}))[0]
    expect(y, {'count': 2})


@case
def circuit_get_dump():
    ynl_ok('--do', 'fabric-inject', '--json', json.dumps({'name': 'yn', 'inject': [
        {'src': 1, 'dst': 14, 'count': 4}, {'src': 3, 'dst': 12, 'count': 2}]}))
    ynl_ok('--do', 'fabric-step', '--json', '{"name": "yn", "steps": 2}')
    y = ynl_ok('--dump', 'circuit-get', '--json', '{"fabric": "yn"}')[0]
    return compare('circuit', y, ftctl_json('circuit', 'show', 'yn'),
                   nonzero=['carried', 'expires', 'ports'])


# The demand group. ynl 6.12 cannot take a notification that arrives while
# it waits for an answer (its _ops() loses the operation and fails), and a
# step announces its demand before its ack; so the announcements come from
# a timed circuit fabric, where nothing moves and the same demand is
# announced every 10 ms, while ynl only listens. They must match ftctl's
# demand dump taken later, ages grown by the cycles run in between.
@case
def demand_ntf():
    run(FTCTL, 'fabric', 'add', 'yt', 'kary', '2', '2', 'path', 'circuit', 'period', '10ms')
    ynl_ok('--do', 'fabric-inject', '--json', json.dumps({'name': 'yt', 'inject': [
        {'src': 0, 'dst': 3, 'count': 5}, {'src': 1, 'dst': 2, 'count': 3}]}))
    docs = ynl_ok('--subscribe', 'demand', '--sleep', '1')
    f = ftctl_json('demand', 'show', 'yt')
    run(FTCTL, 'fabric', 'del', 'yt')
    ntfs = docs[-1] if docs and isinstance(docs[-1], list) else []
    msgs = [n['msg'] for n in ntfs if n.get('name') == 'demand-ntf' and
            n['msg'].get('fabric') == 'yt']
    if not msgs:
        raise Fail(f'no demand-ntf about yt in {docs!r}')
    # the last complete announcement: its messages share a cycle, the last flagged
    if msgs[-1].get('last') is not True:
        raise Fail(f'the last notification has no last flag: {msgs[-1]}')
    start = len(msgs) - 1
    while start > 0 and msgs[start - 1].get('last') is not True:
        start -= 1
    last = msgs[start:]
    cycle = msgs[-1].get('cycle')
    grown = f['cycle'] - cycle
    if grown < 0:
        raise Fail(f'ynl heard cycle {cycle}, ftctl later showed cycle {f["cycle"]}')
    for e in f['entries']:
        e['age'] -= grown
    f['cycle'] = cycle
    return (f'{len(msgs)} notification(s); the last, of cycle {cycle}: ' +
            demand_compare(last, f))


# real packets between two leaves, for the latency histogram and the
# control counters: ARP crosses at once, the ping and its reply each wait
# for a step
@case
def leaf_get_dump():
    # IPv6 off: no neighbour discovery or router solicitations adding
    # control frames between ynl's and ftctl's reads
    for cmd in (['ip', 'netns', 'add', 'yna'], ['ip', 'netns', 'add', 'ynb'],
                ['ip', 'link', 'set', 'yn-l6', 'netns', 'yna'],
                ['ip', 'link', 'set', 'yn-l10', 'netns', 'ynb'],
                ['ip', 'netns', 'exec', 'yna', 'sysctl', '-qw',
                 'net.ipv6.conf.all.disable_ipv6=1', 'net.ipv6.conf.default.disable_ipv6=1'],
                ['ip', 'netns', 'exec', 'ynb', 'sysctl', '-qw',
                 'net.ipv6.conf.all.disable_ipv6=1', 'net.ipv6.conf.default.disable_ipv6=1'],
                ['ip', '-n', 'yna', 'addr', 'add', '10.99.0.1/24', 'dev', 'yn-l6'],
                ['ip', '-n', 'yna', 'link', 'set', 'yn-l6', 'up'],
                ['ip', '-n', 'ynb', 'addr', 'add', '10.99.0.2/24', 'dev', 'yn-l10'],
                ['ip', '-n', 'ynb', 'link', 'set', 'yn-l10', 'up']):
        run(*cmd)
    ping = subprocess.Popen(['ip', 'netns', 'exec', 'yna', 'ping', '-c', '1', '-W', '60',
                             '10.99.0.2'], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for _ in range(300):
        if ping.poll() is not None:
            break
        run(FTCTL, 'fabric', 'step', 'yn', '1')
        time.sleep(0.1)
    out = ping.communicate()[0] if ping.poll() is not None else None
    if ping.returncode != 0:
        ping.kill()
        raise Fail(f'ping across the fabric failed: {out}')
    # The neighbours made permanent: no ARP probe (a control frame) later,
    # between ynl's and ftctl's reads.
    for ns, dev, ip, peer_ns, peer_dev in (('yna', 'yn-l6', '10.99.0.2', 'ynb', 'yn-l10'),
                                           ('ynb', 'yn-l10', '10.99.0.1', 'yna', 'yn-l6')):
        mac = json.loads(run('ip', '-n', peer_ns, '-j', 'link', 'show', peer_dev))[0]['address']
        run('ip', '-n', ns, 'neigh', 'replace', ip, 'lladdr', mac, 'dev', dev, 'nud', 'permanent')
    y = ynl_ok('--dump', 'leaf-get', '--json', '{"fabric": "yn"}')[0]
    return compare('leaf', y, ftctl_json('leaf', 'show', 'yn'),
                   nonzero=['sent', 'delivered', 'latency_histogram', 'control_tx',
                            'control_rx'])


@case
def circuit_del():
    y = ynl_ok('--do', 'circuit-del', '--json',
               '{"fabric": "yn", "pair": [{"src": 3, "dst": 12}]}')[0]
    expect(y, {'count': 1})
    left = ftctl_json('circuit', 'show', 'yn')
    if [(c['src'], c['dst']) for c in left] != [(1, 14)]:
        raise Fail(f'circuits left: {left}')


@case
def fabric_set():
    ynl_ok('--do', 'fabric-set', '--json',
           '{"name": "yn", "path": "firstfree", "arbitration": "random", "seed": 99}')
    expect(ftctl_json('fabric', 'show', 'yn')[0],
           {'path': 'firstfree', 'arbitration': 'random', 'seed': 99})


# refusals: ynl shows the kernel's extended ack and names the offending
# attribute from its offset
@case
def extack_module_message():
    out = ynl_refused('--do', 'fabric-new', '--json', json.dumps({
        'name': 'yb', 'levels': 2, 'down': le32(4), 'up': le32(1, 2)}))
    return extack(out, errno.EINVAL, msg='needs one u32 per level', bad='.down')


# a name longer than the spec allows: the policy the kernel reports is the
# spec's checks max-len
@case
def extack_policy_is_the_specs():
    out = ynl_refused('--do', 'fabric-new', '--json', json.dumps({
        'name': 'toolongname', 'levels': 1, 'down': le32(2), 'up': le32(1)}))
    return extack(out, errno.EINVAL, bad='.name', max_len_of=('fabric', 'name'))


@case
def extack_no_such_fabric():
    out = ynl_refused('--do', 'fabric-step', '--json', '{"name": "nosuch", "steps": 1}')
    return extack(out, errno.ENOENT, msg='no fabric of that name in this namespace',
                  bad='.name')


# the comparison has teeth: a copy of the spec with two attribute numbers
# exchanged decodes without error but disagrees with ftctl
@case
def swapped_numbers_caught():
    def swap(spec):
        attrs = attrs_of(spec, 'leaf')
        val = 1
        for a in attrs:         # every attribute its number, then exchange two
            val = a.get('value', val)
            a['value'] = val
            val += 1
        x = next(a for a in attrs if a['name'] == 'sent')
        y = next(a for a in attrs if a['name'] == 'delivered')
        x['value'], y['value'] = y['value'], x['value']
    path = spec_copy('swapped.yaml', swap)
    y = ynl_ok('--dump', 'leaf-get', '--json', '{"fabric": "yn"}', spec=path)[0]
    try:
        compare('leaf', y, ftctl_json('leaf', 'show', 'yn'))
    except Fail as e:
        if 'sent: ynl' not in str(e):
            raise Fail(f'caught, but not as expected:\n{e}')
        return 'caught: ' + str(e).splitlines()[0]
    raise Fail('a spec with leaf sent and delivered exchanged went unnoticed')


# and one with a u64 counter called u32 cannot decode it
@case
def wrong_type_caught():
    def retype(spec):
        next(a for a in attrs_of(spec, 'link') if a['name'] == 'carried')['type'] = 'u32'
    path = spec_copy('retyped.yaml', retype)
    rc, out = ynl('--dump', 'link-get', '--json', '{"fabric": "yn"}', spec=path)
    if rc:
        return 'caught: ' + out.strip().splitlines()[-1]
    ys = [json.loads(ln) for ln in out.splitlines() if ln.strip()][0]
    try:
        compare('link', ys, ftctl_json('link', 'show', 'yn'))
    except Fail as e:
        return 'caught: ' + str(e).splitlines()[0]
    raise Fail('a spec with link carried as u32 went unnoticed')


@case
def fabric_del():
    ynl_ok('--do', 'fabric-del', '--json', '{"name": "yn"}')
    out = ynl_refused('--do', 'fabric-get', '--json', '{"name": "yn"}')
    note = extack(out, errno.ENOENT, msg='no fabric of that name in this namespace')
    p = subprocess.run([FTCTL, 'fabric', 'show', 'yn'], stdin=subprocess.DEVNULL,
                       capture_output=True)
    if p.returncode == 0:
        raise Fail('ftctl still shows yn')
    return note


def cleanup():
    for cmd in ([FTCTL, 'fabric', 'del', 'yn'], [FTCTL, 'fabric', 'del', 'yf'],
                [FTCTL, 'fabric', 'del', 'yt'],
                ['ip', 'netns', 'del', 'yna'], ['ip', 'netns', 'del', 'ynb']):
        subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True)
    subprocess.run(['rm', '-rf', TMP])


def main():
    print('TAP version 13')
    print(f'1..{len(tests)}', flush=True)
    cleanup()
    os.makedirs(TMP, exist_ok=True)
    failed = 0
    start = time.monotonic()
    for i, fn in enumerate(tests, 1):
        t0 = time.monotonic()
        try:
            note = fn()
            ok = True
        except Fail as e:
            note, ok = str(e), False
        except Exception:
            note, ok = traceback.format_exc(), False
        secs = time.monotonic() - t0
        print(f'{"ok" if ok else "not ok"} {i} {fn.__name__}')
        if note:
            for ln in note.splitlines()[:40 if not ok else 3]:
                print(f'# {ln}')
        if not ok:
            failed += 1
        print(f'# {secs:.1f} s', flush=True)
    cleanup()
    print(f'# {len(tests) - failed} passed, {failed} failed in '
          f'{time.monotonic() - start:.0f} s', flush=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
