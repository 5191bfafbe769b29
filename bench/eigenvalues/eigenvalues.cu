/*
** eigenvalues.cu -- eigenvalues of a symmetric tridiagonal matrix by
** bisection with Sturm counts, one slice of the spectrum per block.
**
** Each block of 256 threads (8 warps) starts from its slice [lo, hi) of
** the Gerschgorin interval and the Sturm counts at both ends. In every
** round thread i takes interval i from shared memory, counts the
** eigenvalues below its midpoint (a loop over the whole matrix, held in
** shared memory: the compute) and keeps the halves that still hold
** eigenvalues; a converged interval writes its eigenvalue(s) to global
** memory at their global index. A block-wide scan then compacts the
** children into the other shared buffer, with barriers between rounds.
** Threads beyond the number of live intervals idle through the scan, so
** warp 0 does most of the work, blocks whose slice holds few eigenvalues
** do little, and the warp lengths spread widely (strongly asymmetric).
*/
#include "bench.h"

#define EIG_THREADS 256
#define EIG_MAX_N 256           /* matrix order: live intervals <= n <= threads */
#define EIG_WARPS (EIG_THREADS / 32)

/* Eigenvalues of the matrix below 'x': the signs of the LDL^T pivots of
   T - xI. The matrix comes as float4 pairs (d[k], e[k-1]^2, d[k+1],
   e[k]^2), e[-1] = 0; 'pivmin' keeps a pivot away from zero. */
__device__ static int eig_sturm(const float4 *t, int n, float x, float pivmin)
{
    int count = 0;
    float q = 1.0f;
    for (int k = 0; k < n / 2; k++) {
        float4 v = t[k];
        q = v.x - x - v.y / q;
        if (fabsf(q) < pivmin) q = -pivmin;
        count += q < 0.0f;
        q = v.z - x - v.w / q;
        if (fabsf(q) < pivmin) q = -pivmin;
        count += q < 0.0f;
    }
    return count;
}

__global__ void eig_bisect(const float4 *matrix, int n, const float *bounds, float tol,
                           float pivmin, float *eig)
{
    __shared__ float4 s_t[EIG_MAX_N / 2];
    __shared__ float s_lo[2][EIG_MAX_N], s_hi[2][EIG_MAX_N];
    __shared__ int s_clo[2][EIG_MAX_N], s_chi[2][EIG_MAX_N];
    __shared__ int s_warp[EIG_WARPS];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    for (int i = t; i < n / 2; i += blockDim.x) s_t[i] = matrix[i];
    __syncthreads();
    /* the slice and the counts at its ends (shared by the neighbour slice,
       so every eigenvalue lies in exactly one slice) */
    if (t < 2) {
        float x = bounds[blockIdx.x + t];
        int c = eig_sturm(s_t, n, x, pivmin);
        if (t == 0) { s_lo[0][0] = x; s_clo[0][0] = c; }
        else { s_hi[0][0] = x; s_chi[0][0] = c; }
    }
    __syncthreads();
    int buf = 0, active = s_chi[0][0] > s_clo[0][0];
    while (active > 0) {
        int kids = 0, cmid = 0, clo = 0, chi = 0;
        float lo = 0.f, hi = 0.f, mid = 0.f;
        if (t < active) {
            lo = s_lo[buf][t]; hi = s_hi[buf][t];
            clo = s_clo[buf][t]; chi = s_chi[buf][t];
            mid = 0.5f * (lo + hi);
            if (hi - lo <= tol || mid <= lo || mid >= hi) {
                for (int k = clo; k < chi; k++) eig[k] = mid;   /* converged */
            } else {
                cmid = eig_sturm(s_t, n, mid, pivmin);
                cmid = min(max(cmid, clo), chi);   /* guard against rounding */
                kids = (cmid > clo) + (chi > cmid);
            }
        }
        /* exclusive scan of the children over the block */
        int incl = kids;
        for (int o = 1; o < 32; o <<= 1) {
            int y = __shfl_up_sync(0xffffffffu, incl, o);
            if (lane >= o) incl += y;
        }
        if (lane == 31) s_warp[warp] = incl;
        __syncthreads();
        if (t < 32) {
            int w = t < EIG_WARPS ? s_warp[t] : 0;
            for (int o = 1; o < EIG_WARPS; o <<= 1) {
                int y = __shfl_up_sync(0xffffffffu, w, o);
                if (t >= o) w += y;
            }
            if (t < EIG_WARPS) s_warp[t] = w;
        }
        __syncthreads();
        int pos = incl - kids + (warp ? s_warp[warp - 1] : 0), nb = buf ^ 1;
        if (cmid > clo) {
            s_lo[nb][pos] = lo; s_hi[nb][pos] = mid;
            s_clo[nb][pos] = clo; s_chi[nb][pos] = cmid;
            pos++;
        }
        if (kids && chi > cmid) {
            s_lo[nb][pos] = mid; s_hi[nb][pos] = hi;
            s_clo[nb][pos] = cmid; s_chi[nb][pos] = chi;
        }
        active = s_warp[EIG_WARPS - 1];
        buf = nb;
        __syncthreads();
    }
}

/* Sturm count in double precision (host reference). */
static int eig_sturm_cpu(const double *d, const double *e2, int n, double x)
{
    int count = 0;
    double q = 1.0;
    for (int k = 0; k < n; k++) {
        q = d[k] - x - (k ? e2[k] / q : 0.0);
        if (fabs(q) < 1e-300) q = -1e-300;
        count += q < 0;
    }
    return count;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "eigenvalues");
    int n = BENCH_PICK(a, 64, 128, 256), slices = BENCH_PICK(a, 8, 16, 32);
    bench_rng rng = bench_rng_new(a.seed);
    float *h_t = (float *)malloc(2 * n * sizeof(float)), *bounds = (float *)malloc((slices + 1) * sizeof(float));
    float *got = (float *)malloc(n * sizeof(float)), *want = (float *)malloc(n * sizeof(float));
    double *d = (double *)malloc(2 * n * sizeof(double)), *e2 = d + n;
    /* random diagonal and couplings; now and then a weak coupling splits
       the matrix into nearly independent parts (close eigenvalues) */
    double gl = 1e30, gu = -1e30, maxe2 = 1;
    float e_prev = 0.f;
    for (int k = 0; k < n; k++) {
        float dk = bench_uniform(&rng, -2.f, 2.f);
        float ek = k + 1 < n ? (bench_below(&rng, 16) == 0 ? 1e-3f : bench_uniform(&rng, 0.1f, 1.f)) : 0.f;
        h_t[2 * k] = dk;
        h_t[2 * k + 1] = e_prev * e_prev;
        d[k] = dk;
        e2[k] = (double)h_t[2 * k + 1];
        if (e2[k] > maxe2) maxe2 = e2[k];
        if (dk - e_prev - ek < gl) gl = dk - e_prev - ek;
        if (dk + e_prev + ek > gu) gu = dk + e_prev + ek;
        e_prev = ek;
    }
    gl -= 1e-3; gu += 1e-3;
    for (int s = 0; s <= slices; s++) bounds[s] = (float)(gl + (gu - gl) * s / slices);
    float tol = (float)((gu - gl) * 1e-6), pivmin = (float)(1e-20 * maxe2);
    float *d_t, *d_bounds, *d_eig;
    BENCH_CUDA(cudaMalloc((void **)&d_t, 2 * n * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_bounds, (slices + 1) * sizeof(float)));
    BENCH_CUDA(cudaMalloc((void **)&d_eig, n * sizeof(float)));
    BENCH_CUDA(cudaMemcpy(d_t, h_t, 2 * n * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemcpy(d_bounds, bounds, (slices + 1) * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(d_eig, 0xff, n * sizeof(float)));   /* NaN: a missed index fails */
    eig_bisect<<<slices, EIG_THREADS>>>((const float4 *)d_t, n, d_bounds, tol, pivmin, d_eig);
    BENCH_LAUNCHED();
    BENCH_CUDA(cudaMemcpy(got, d_eig, n * sizeof(float), cudaMemcpyDeviceToHost));

    /* reference: eigenvalue k by double bisection on its Sturm count */
    for (int k = 0; k < n; k++) {
        double lo = gl, hi = gu;
        for (int it = 0; it < 100 && hi - lo > 1e-13; it++) {
            double mid = 0.5 * (lo + hi);
            if (eig_sturm_cpu(d, e2, n, mid) > k) hi = mid;
            else lo = mid;
        }
        want[k] = (float)(0.5 * (lo + hi));
    }
    bench_corrupt(got, sizeof(float), n / 2);
    /* bisection to 'tol' on float Sturm counts (backward stable: a few
       ulps of the matrix norm) */
    size_t bad = bench_check_f32(got, want, n, 0.f, 2 * tol + 2e-5f, "eig");
    char detail[96];
    snprintf(detail, sizeof detail, "n=%d slices=%d range=[%.3f,%.3f]", n, slices, gl, gu);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_t); cudaFree(d_bounds); cudaFree(d_eig);
    free(h_t); free(bounds); free(got); free(want); free(d);
    return rc;
}
