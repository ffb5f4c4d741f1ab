# Checks lean.cu's device code locally with NVRTC (no GPU needed): rtc.sh DS NW. Prints ptxas's
# registers and spills. Run from anywhere; needs the repository's scripts/nvrtc-env.sh.
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
(echo "#define DS $1"; echo "#define NW $2"; cat opts.h; grep -v '#include "opts.h"' lean.cu) > /tmp/lean_rtc.cu
cd "$here/../../.." && . scripts/nvrtc-env.sh && python3 "$here/nvrtc.py" /tmp/lean_rtc.cu /tmp/lean.cubin
