#!/bin/sh
# A command that uses its caches the way a Warp program does: it builds a module into
# $WARP_CACHE_PATH (generated .cu source, binary, .meta) and a driver-JIT entry into $CUDA_CACHE_PATH
# unless they are already there, and prints Warp's module log lines for what it did. Each call
# appends the cache paths it was given, and what it found, to $CS_TEST_RECORD.
set -eu
module="$WARP_CACHE_PATH/wp_app.kernels_1a2b3c4"
if [ -f "$module/wp_app.kernels_1a2b3c4.meta" ] && [ -f "$module/wp_app.kernels_1a2b3c4.sm86.cubin" ]; then
    warp=reused
    echo "Module app.kernels 1a2b3c4 load on device 'cuda:0' (block_dim=256) took 0.52 ms  (cached)"
else
    warp=built
    mkdir -p "$module"
    printf 'extern "C" __global__ void scale_cuda_kernel_forward() {}\n' > "$module/wp_app.kernels_1a2b3c4.cu"
    printf 'cubin' > "$module/wp_app.kernels_1a2b3c4.sm86.cubin"
    printf '{"kernel_names": ["scale"]}' > "$module/wp_app.kernels_1a2b3c4.meta"
    echo "    Compile CUDA (arch=86, mode=release, block_dim=256) took 80.00 ms"
    echo "Module app.kernels 1a2b3c4 load on device 'cuda:0' (block_dim=256) took 95.00 ms  (compiled)"
fi
if [ -f "$CUDA_CACHE_PATH/index" ]; then cuda=reused; else cuda=built; echo entry > "$CUDA_CACHE_PATH/index"; fi
echo "$WARP_CACHE_PATH $WARP_CACHE_ROOT $CUDA_CACHE_PATH $warp $cuda" >> "$CS_TEST_RECORD"
