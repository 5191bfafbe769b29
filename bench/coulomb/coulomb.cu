/*
** coulomb.cu -- direct Coulomb summation of the electrostatic potential on a
** 2D lattice slice (like Parboil cp / cutcp without the cutoff).
**
** Atoms (x, y, z, q) sit in __constant__ memory and are broadcast to all
** threads. Each thread computes four lattice points spaced a block apart
** in x, sharing dy^2 + dz^2 between them: q * rsqrt(r^2) per atom and point.
** Nearly all arithmetic: compute-bound and perfectly symmetric.
*/
#include "bench.h"

#define MAXATOMS 4000
#define UNROLL 4
#define SPACING 0.1f

__constant__ float4 c_atoms[MAXATOMS];

__global__ void coulomb_slice(float *energy, int nx, int natoms, float z)
{
    int x0 = blockIdx.x * blockDim.x * UNROLL + threadIdx.x;
    int y = blockIdx.y;
    float cy = y * SPACING;
    float e[UNROLL] = { 0.f, 0.f, 0.f, 0.f };
    for (int a = 0; a < natoms; a++) {
        float4 at = c_atoms[a];
        float dy = cy - at.y, dz = z - at.z;
        float dyz2 = dy * dy + dz * dz;
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            float dx = (x0 + u * blockDim.x) * SPACING - at.x;
            e[u] += at.w * rsqrtf(dx * dx + dyz2);
        }
    }
#pragma unroll
    for (int u = 0; u < UNROLL; u++) energy[y * nx + x0 + u * blockDim.x] += e[u];
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "coulomb");
    int nx = BENCH_PICK(a, 256, 512, 1024), ny = BENCH_PICK(a, 32, 64, 128);
    int natoms = BENCH_PICK(a, 400, 1000, 1600), threads = 64;
    float z = 0.5f * ny * SPACING;
    bench_rng rng = bench_rng_new(a.seed);
    float4 *atoms = (float4 *)malloc(natoms * sizeof(float4));
    for (int i = 0; i < natoms; i++)
        atoms[i] = make_float4(bench_uniform(&rng, 0.f, nx * SPACING), bench_uniform(&rng, 0.f, ny * SPACING),
                               bench_uniform(&rng, 0.f, ny * SPACING), bench_uniform(&rng, -1.f, 1.f));
    size_t bytes = (size_t)nx * ny * sizeof(float);
    float *d_energy, *h_energy = (float *)malloc(bytes);
    BENCH_CUDA(cudaMalloc((void **)&d_energy, bytes));
    BENCH_CUDA(cudaMemset(d_energy, 0, bytes));
    /* atoms go through constant memory in chunks, accumulating into the lattice */
    for (int base = 0; base < natoms; base += MAXATOMS) {
        int chunk = natoms - base < MAXATOMS ? natoms - base : MAXATOMS;
        BENCH_CUDA(cudaMemcpyToSymbol(c_atoms, atoms + base, chunk * sizeof(float4)));
        coulomb_slice<<<dim3(nx / (threads * UNROLL), ny), threads>>>(d_energy, nx, chunk, z);
        BENCH_LAUNCHED();
    }
    BENCH_CUDA(cudaMemcpy(h_energy, d_energy, bytes, cudaMemcpyDeviceToHost));

    bench_corrupt(h_energy, sizeof(float), (size_t)nx * ny / 2 + 3);
    size_t bad = 0;
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            double e = 0, mag = 0;
            for (int i = 0; i < natoms; i++) {
                double dx = (double)(x * SPACING) - atoms[i].x, dy = (double)(y * SPACING) - atoms[i].y;
                double dz = (double)z - atoms[i].z;
                double t = atoms[i].w / sqrt(dx * dx + dy * dy + dz * dz);
                e += t;
                mag += fabs(t);
            }
            float got = h_energy[y * nx + x];
            if (!(fabs(got - e) <= 1e-5 * mag + 1e-6)) {
                if (bad < 5) fprintf(stderr, "energy[%d,%d]: got %.9g want %.9g\n", y, x, got, e);
                bad++;
            }
        }
    char detail[96];
    snprintf(detail, sizeof detail, "lattice=%dx%d atoms=%d", nx, ny, natoms);
    int rc = bench_finish(&a, bad, detail);
    cudaFree(d_energy);
    free(atoms); free(h_energy);
    return rc;
}
