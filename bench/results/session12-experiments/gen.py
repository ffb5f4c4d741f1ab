# Writes front-W-F.cu from front.cu.in and Officers' option table (kernels-gen snapshot), and
# its PTX (NVRTC, compute_90). Usage: python3 gen.py W F [W F ...]
import re, sys, subprocess
s = open('/work/main/kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m = re.search(name + r'\[\d+\] = \{(.*?)\};', s, re.S)
    return [int(x) for x in m.group(1).replace('\n', '').split(',')]
D = arr('OPTION_DIST'); OC = arr('OPTION_CODE')
assert D == sorted(D)
tpl = open(sys.argv.pop(1) if sys.argv[1].endswith('.in') else 'front.cu.in').read()
a = sys.argv[1:]
for W, F in zip(a[::2], a[1::2]):
    QL = 1
    if 'x' in W: W, QL = W.split('x')
    W, F, QL = int(W), int(F), int(QL)
    near = sum(1 for d in D if d <= F)
    src = (tpl.replace('@DEFS@', f'#define W {W}u\n#define QL {QL}u\n#define T (W * QL)\n#define F {F}u\n#define N_OPT {len(D)}u\n#define N_NEAR {near}u')
           .replace('@DIST@', ','.join(map(str, D))).replace('@CODE@', ','.join(map(str, OC)))
           .replace('@OCB@', ','.join(str(c * 0x01010101) + 'u' for c in OC[:near])))
    blocks = []
    for k in range(0, near, 8):
        ds = D[k:k + 8]; cs = OC[k:k + 8]
        # distinct names per block: a distance appears once in the table
        m = ' '.join(f'M0({d}, {c * 0x01010101})' for d, c in zip(ds, cs))
        h = ' '.join(f'HIT({d})' for d in ds); dd = ' '.join(f'DEAD({d})' for d in ds); x = ' '.join(f'MIX({d})' for d in ds)
        blocks.append(f'            if ({ds[0]}u <= bound) {{ {m}\n                if ({ds[-1]}u <= tmin) {{ {h} }} else if ({ds[0]}u > tmax) {{ {dd} }} else {{ {x} }} }}')
    src = src.replace('@BLOCKS@', '\n'.join(blocks))
    import os
    extra = os.environ.get('DEFS', '')
    src = ''.join(f'#define {x}\n' for x in extra.split()) + src
    name = f'front-{W}x{QL}-{F}' + ''.join('-' + x.lower() for x in extra.split())
    open(name + '.cu', 'w').write(src)
    subprocess.check_call(['python3', '/tmp/ptx.py', name + '.cu', name + '.ptx'])
    print(name, 'near', near)
