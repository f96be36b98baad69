// A small CUDA program compiled by make-demo.sh to record real nvcc phase timings.
__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

template <int Unroll>
__global__ void scale(float* y, float a, int n) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * Unroll;
#pragma unroll
    for (int k = 0; k < Unroll; ++k)
        if (i + k < n) y[i + k] *= a;
}

template __global__ void scale<1>(float*, float, int);
template __global__ void scale<4>(float*, float, int);
