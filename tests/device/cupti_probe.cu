// A small CUDA program for tests/device/cupti_check.sh: two kernels launched from PTX only, so the
// driver has to JIT them (PTX -> CUBIN) at module load, which CUPTI reports as JIT activity.
#include <cstdio>

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void scale(float* y, float s, int n) {
    extern __shared__ float tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? y[i] : 0.0f;
    __syncthreads();
    if (i < n) y[i] = tile[threadIdx.x] * s;
}

int main() {
    const int n = 1 << 16;
    float *x = nullptr, *y = nullptr;
    if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) {
        std::printf("cudaMalloc failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    cudaMemset(x, 0, n * sizeof(float));
    cudaMemset(y, 0, n * sizeof(float));
    saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
    scale<<<n / 128, 128, 128 * sizeof(float)>>>(y, 0.5f, n);
    cudaError_t e = cudaDeviceSynchronize();
    cudaFree(x);
    cudaFree(y);
    std::printf("probe %s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
