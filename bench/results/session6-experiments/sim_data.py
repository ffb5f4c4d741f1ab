# Officers' hot options (distances D, codes OC) from the kernels-gen snapshot and its true codes
# (`truth`) from /tmp/off.b, the b-file of 'octal solve .6 -n 400000 --values'; shared by
# sim-async.py and sim-sync.py.
import re, numpy as np
_s = open('/work/main/kernels-gen/tests/snapshots/officers.cu').read()
def _arr(name):
    m = re.search(name + r'\[\d+\] = \{(.*?)\};', _s, re.S)
    return np.array([int(x) for x in m.group(1).replace('\n', '').split(',')])
D = _arr('OPTION_DIST'); OC = _arr('OPTION_CODE')
_vals = np.loadtxt('/tmp/off.b', dtype=np.int64)[:, 1]
truth = ((_vals >> 2) << 1) | (_vals & 1)
