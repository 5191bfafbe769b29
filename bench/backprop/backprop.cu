/*
** backprop.cu -- one training step of a two-layer perceptron's input layer.
**
** bp_layer_forward: each 16x16 block takes 16 input units; thread (x, y)
** multiplies input y by weight (y, x) into shared memory, then the block
** sums its 16 rows by a tree reduction with a barrier per level and writes
** one partial sum per hidden unit (the host finishes the sums and applies
** the sigmoid). bp_adjust_weights: every weight moves by
** eta * delta[hidden] * input + momentum * previous change, a streaming
** update. Forward is barrier- and arithmetic-heavy, adjust is memory-bound.
*/
#include "bench.h"

#define HID 16
#define ETA 0.3f
#define MOMENTUM 0.3f

__global__ void bp_layer_forward(const float *input, const float *w, float *partial, int nin)
{
    __shared__ float in_s[HID];
    __shared__ float prod[HID][HID];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.x * HID + ty;                 /* input unit */
    if (tx == 0) in_s[ty] = row < nin ? input[row] : 0.0f;
    __syncthreads();
    prod[ty][tx] = row < nin ? w[row * HID + tx] * in_s[ty] : 0.0f;
    __syncthreads();
    for (int s = HID / 2; s > 0; s >>= 1) {
        if (ty < s) prod[ty][tx] += prod[ty + s][tx];
        __syncthreads();
    }
    if (ty == 0) partial[blockIdx.x * HID + tx] = prod[0][tx];
}

__global__ void bp_adjust_weights(const float *delta, const float *input, float *w, float *oldw,
                                  int nin)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= nin * HID) return;
    int row = idx / HID, col = idx % HID;
    float dw = ETA * delta[col] * input[row] + MOMENTUM * oldw[idx];
    w[idx] += dw;
    oldw[idx] = dw;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "backprop");
    int nin = BENCH_PICK(a, 8192, 65536, 524288);
    int nblk = (nin + HID - 1) / HID;
    bench_rng rng = bench_rng_new(a.seed);
    size_t nw = (size_t)nin * HID;

    float *input = (float *)malloc(sizeof(float) * nin), *w = (float *)malloc(sizeof(float) * nw);
    float *oldw = (float *)malloc(sizeof(float) * nw), delta[HID];
    for (int i = 0; i < nin; i++) input[i] = bench_uniform(&rng, 0.0f, 1.0f);
    for (size_t i = 0; i < nw; i++) {
        w[i] = bench_uniform(&rng, -0.05f, 0.05f);
        oldw[i] = bench_uniform(&rng, -0.01f, 0.01f);
    }
    for (int j = 0; j < HID; j++) delta[j] = bench_uniform(&rng, -0.5f, 0.5f);

    float *d_in, *d_w, *d_oldw, *d_part, *d_delta;
    BENCH_CUDA(cudaMalloc(&d_in, sizeof(float) * nin));
    BENCH_CUDA(cudaMalloc(&d_w, sizeof(float) * nw));
    BENCH_CUDA(cudaMalloc(&d_oldw, sizeof(float) * nw));
    BENCH_CUDA(cudaMalloc(&d_part, sizeof(float) * nblk * HID));
    BENCH_CUDA(cudaMalloc(&d_delta, sizeof delta));
    BENCH_CUDA(cudaMemcpy(d_in, input, sizeof(float) * nin, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_w, w, sizeof(float) * nw, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_oldw, oldw, sizeof(float) * nw, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_delta, delta, sizeof delta, cudaMemcpyHostToDevice));
    bp_layer_forward<<<nblk, dim3(HID, HID)>>>(d_in, d_w, d_part, nin);
    BENCH_LAUNCHED();
    bp_adjust_weights<<<(int)((nw + 255) / 256), 256>>>(d_delta, d_in, d_w, d_oldw, nin);
    BENCH_LAUNCHED();

    float *part = (float *)malloc(sizeof(float) * nblk * HID);
    float *gw = (float *)malloc(sizeof(float) * nw), *goldw = (float *)malloc(sizeof(float) * nw);
    BENCH_CUDA(cudaMemcpy(part, d_part, sizeof(float) * nblk * HID, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(gw, d_w, sizeof(float) * nw, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(goldw, d_oldw, sizeof(float) * nw, cudaMemcpyDeviceToHost));

    /* Reference: block partial sums, the finished hidden layer, then the
       weight update (on the original weights). */
    float *wpart = (float *)malloc(sizeof(float) * nblk * HID);
    double hsum[HID] = { 0 }, gsum[HID] = { 0 };
    for (int b = 0; b < nblk; b++)
        for (int j = 0; j < HID; j++) {
            double s = 0.0;
            for (int r = b * HID; r < (b + 1) * HID && r < nin; r++) s += (double)w[r * HID + j] * input[r];
            wpart[b * HID + j] = (float)s;
            hsum[j] += s;
            gsum[j] += part[b * HID + j];
        }
    size_t bad = bench_check_f32(part, wpart, (size_t)nblk * HID, 1e-5f, 1e-6f, "partial");
    float hid_got[HID], hid_want[HID];
    for (int j = 0; j < HID; j++) {
        hid_got[j] = (float)(1.0 / (1.0 + exp(-gsum[j])));
        hid_want[j] = (float)(1.0 / (1.0 + exp(-hsum[j])));
    }
    bad += bench_check_f32(hid_got, hid_want, HID, 1e-5f, 1e-6f, "hidden");
    float *ww = (float *)malloc(sizeof(float) * nw), *wold = (float *)malloc(sizeof(float) * nw);
    for (size_t i = 0; i < nw; i++) {
        double dw = (double)ETA * delta[i % HID] * input[i / HID] + (double)MOMENTUM * oldw[i];
        wold[i] = (float)dw;
        ww[i] = (float)(w[i] + dw);
    }
    bench_corrupt(gw, sizeof(float), nw / 2);
    bad += bench_check_f32(gw, ww, nw, 1e-5f, 1e-7f, "weight");
    bad += bench_check_f32(goldw, wold, nw, 1e-5f, 1e-7f, "oldw");

    char detail[64];
    snprintf(detail, sizeof detail, "inputs=%d hidden=%d", nin, HID);
    cudaFree(d_in); cudaFree(d_w); cudaFree(d_oldw); cudaFree(d_part); cudaFree(d_delta);
    free(input); free(w); free(oldw); free(part); free(gw); free(goldw); free(wpart);
    free(ww); free(wold);
    return bench_finish(&a, bad, detail);
}
