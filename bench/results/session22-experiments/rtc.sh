# local check of the device code with NVRTC: rtc.sh DS NW
cd "$(dirname "$0")"
(echo "#define DS $1"; echo "#define NW $2"; cat opts.h; grep -v '#include "opts.h"' lean.cu) > /tmp/lean_rtc.cu
cd /work/main && . scripts/nvrtc-env.sh && python3 /tmp/nvrtc.py /tmp/lean_rtc.cu /tmp/lean.cubin
