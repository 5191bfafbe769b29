// recursion.cu -- real calls with a per-thread stack: doubly recursive
// Fibonacci, recursive factorial (u64), and a recursive walk over a binary
// tree stored as arrays (left/right child index, -1 = none).  __noinline__
// keeps nvcc from flattening the calls.

__device__ __noinline__ unsigned fib(unsigned n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ unsigned long long factorial(unsigned n)
{
    if (n <= 1)
        return 1;
    return n * factorial(n - 1);
}

__device__ __noinline__ int tree_sum(const int *left, const int *right,
                                     const int *val, int node, int depth)
{
    if (node < 0)
        return 0;
    return val[node] * depth + tree_sum(left, right, val, left[node], depth + 1)
                             + tree_sum(left, right, val, right[node], depth + 1);
}

// out[i] = fib(in[i] % 20), fact[i] = factorial(in[i] % 21)
__global__ void fib_fact(const unsigned *in, unsigned *out, unsigned long long *fact, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = fib(in[i] % 20);
        fact[i] = factorial(in[i] % 21);
    }
}

// Each thread walks the subtree rooted at node roots[i] (depth weights from 1).
__global__ void tree_walk(const int *left, const int *right, const int *val,
                          const int *roots, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tree_sum(left, right, val, roots[i], 1);
}
