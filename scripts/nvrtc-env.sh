#!/bin/sh
# Installs NVRTC (the PyPI wheel nvidia-cuda-nvrtc, 13.0.88: the H200 machine's version) into
# target/nvrtc once, and exports LD_LIBRARY_PATH so that cudarc's dynamic loading finds
# libnvrtc.so.13. Source it: `. scripts/nvrtc-env.sh`. CI uses it to compile every generated
# kernel without a GPU.
NVRTC_DIR="${NVRTC_DIR:-$(pwd)/target/nvrtc}"
if ! ls "$NVRTC_DIR"/nvidia/cu13/lib/libnvrtc.so* >/dev/null 2>&1 &&
    ! ls "$NVRTC_DIR"/nvidia/cuda_nvrtc/lib/libnvrtc.so* >/dev/null 2>&1; then
    python3 -m pip install --quiet --no-deps --target "$NVRTC_DIR" nvidia-cuda-nvrtc==13.0.88
fi
for lib in "$NVRTC_DIR"/nvidia/cu13/lib "$NVRTC_DIR"/nvidia/cuda_nvrtc/lib; do
    if [ -d "$lib" ]; then
        LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    fi
done
export LD_LIBRARY_PATH
