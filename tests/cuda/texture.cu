// texture.cu -- a third-party-like program using texture and surface objects:
// tex1Dfetch over linear memory, tex1D over a 1D array, tex2D over pitched
// memory and over 2D arrays (every address mode with point and linear
// filtering, normalised coordinates), tex3D, tex2DLayered, tex2Dgather,
// 8-bit textures in both read modes, and surf2Dread/surf2Dwrite with the
// clamp and zero boundary modes.  Every result is checked against a CPU
// reference of CUDA's texture-fetching rules (linear weights in 1.8 fixed
// point), so it runs unchanged on a GPU.  Prints "texture: PASS".
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL: %s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

static int failures;
// slack: what one step (1/256) of a linear weight can move the result; the
// hardware's weight is one step lower in about one sample in 2000 per
// dimension, at fractions within 2^-11 of a rounding tie (measured, H200)
static void check(const char *what, int i, float got, float want, float slack = 0)
{
    if (fabsf(got - want) > 2e-3f * fmaxf(1.0f, fabsf(want)) + slack) {
        if (failures++ < 12) printf("FAIL: %s sample %d: got %g, want %g\n", what, i, got, want);
    }
}

// ---- CPU reference -------------------------------------------------------
struct Ref { int size[3]; const float *data; int mode; bool linear, norm; float border; };

static long addr_index(long i, int n, int mode, bool *border)
{
    switch (mode) {
    case cudaAddressModeWrap: return ((i % n) + n) % n;
    case cudaAddressModeMirror: { long m = ((i % (2 * n)) + 2 * n) % (2 * n); return m < n ? m : 2 * n - 1 - m; }
    case cudaAddressModeBorder: if (i < 0 || i >= n) *border = true; return i;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

static float texel(const Ref &r, const long idx[3], int dims)
{
    bool border = false;
    long j[3] = { 0, 0, 0 };
    for (int d = 0; d < dims; d++) j[d] = addr_index(idx[d], r.size[d], r.mode, &border);
    if (dims < 3) j[2] = idx[2];
    if (border) return r.border;
    return r.data[(j[2] * r.size[1] + j[1]) * r.size[0] + j[0]];
}

// layer: for layered textures (its index is z), else -1; *slack: see check()
static float ref_sample(const Ref &r, int dims, const float c[3], int layer, float *slack)
{
    long i0[3] = { 0, 0, layer < 0 ? 0 : layer }, i1[3];
    float a[3] = { 0, 0, 0 };
    for (int d = 0; d < dims; d++) {
        float u = r.norm ? c[d] * r.size[d] : c[d];
        if (r.linear) u -= 0.5f;
        float f = floorf(u);
        i0[d] = (long)f;
        a[d] = r.linear ? floorf((u - f) * 256.0f + 0.5f) / 256.0f : 0.0f;
    }
    *slack = 0;
    if (!r.linear) return texel(r, i0, dims);
    float sum = 0, lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < (1 << dims); k++) {
        float w = 1;
        for (int d = 0; d < 3; d++) {
            i1[d] = (d < dims && (k >> d & 1)) ? i0[d] + 1 : i0[d];
            if (d < dims) w *= (k >> d & 1) ? a[d] : 1 - a[d];
        }
        float v = texel(r, i1, dims);
        sum += w * v;
        lo = fminf(lo, v);
        hi = fmaxf(hi, v);
    }
    *slack = (hi - lo) * dims / 256.0f;
    // The hardware filters a 1D array as a 2D texture one texel high read
    // at y = 0: halfway between row 0 and row -1, which is the border
    // colour in border mode and row 0 otherwise (measured, H200).
    if (dims == 1 && r.mode == cudaAddressModeBorder) sum = 0.5f * sum + 0.5f * r.border;
    return sum;
}

// ---- kernels ---------------------------------------------------------------
__global__ void k_fetch(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i - 2);
}
__global__ void k_1d(cudaTextureObject_t t, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, c[3 * i]);
}
__global__ void k_2d(cudaTextureObject_t t, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, c[3 * i], c[3 * i + 1]);
}
__global__ void k_3d(cudaTextureObject_t t, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, c[3 * i], c[3 * i + 1], c[3 * i + 2]);
}
__global__ void k_layered(cudaTextureObject_t t, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLayered<float>(t, c[3 * i], c[3 * i + 1], i % 3);
}
__global__ void k_gather(cudaTextureObject_t t, const float *c, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2Dgather<float4>(t, c[3 * i], c[3 * i + 1], 0);
}
__global__ void k_u8norm(cudaTextureObject_t t, const float *c, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, c[3 * i], c[3 * i + 1]);
}
__global__ void k_u8elem(cudaTextureObject_t t, uchar4 *out, int w, int h)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) out[y * w + x] = tex2D<uchar4>(t, x + 0.5f, y + 0.5f);
}
__global__ void k_surf(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (y >= h || x > w) return;
    // x == w: out of range; clamp reads element w-1, zero drops the write
    float v = surf2Dread<float>(src, x * 4, y, cudaBoundaryModeClamp);
    surf2Dwrite(2.0f * v + 1.0f, dst, x * 4, y, cudaBoundaryModeZero);
}

// ---- host helpers ----------------------------------------------------------
static const int N = 96;          // samples per test
static float *d_coords, *d_out;
static float h_coords[3 * N], h_out[N];

static void make_coords(bool norm, const int size[3], unsigned seed)
{
    for (int i = 0; i < N; i++)
        for (int d = 0; d < 3; d++) {
            seed = seed * 1103515245u + 12345u;
            float r = (float)((seed >> 8) & 0xffff) / 65536.0f * 2.2f - 0.6f;   // [-0.6, 1.6)
            if (i < 8) r = (i + 0.5f) / 8.0f;                                   // texel-ish centres
            h_coords[3 * i + d] = norm ? r : r * size[d];
        }
    CK(cudaMemcpy(d_coords, h_coords, sizeof h_coords, cudaMemcpyHostToDevice));
}

static cudaTextureDesc tex_desc(int mode, bool linear, bool norm, float border)
{
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = (cudaTextureAddressMode)mode;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = norm;
    td.borderColor[0] = border;
    return td;
}

static cudaTextureObject_t array_tex(cudaArray_t a, const cudaTextureDesc &td)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

static const char *const mode_names[] = { "wrap", "clamp", "mirror", "border" };

static void run_and_check(const char *what, void (*launch)(cudaTextureObject_t), cudaTextureObject_t t,
                          const Ref &r, int dims, bool layered)
{
    launch(t);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        float slack, want = ref_sample(r, dims, &h_coords[3 * i], layered ? i % 3 : -1, &slack);
        check(what, i, h_out[i], want, slack);
    }
}

static void launch_1d(cudaTextureObject_t t) { k_1d<<<(N + 63) / 64, 64>>>(t, d_coords, d_out, N); }
static void launch_2d(cudaTextureObject_t t) { k_2d<<<(N + 63) / 64, 64>>>(t, d_coords, d_out, N); }
static void launch_3d(cudaTextureObject_t t) { k_3d<<<(N + 63) / 64, 64>>>(t, d_coords, d_out, N); }
static void launch_layered(cudaTextureObject_t t) { k_layered<<<(N + 63) / 64, 64>>>(t, d_coords, d_out, N); }

// ---- the tests -------------------------------------------------------------
static void test_fetch(void)
{
    const int n = 40;
    float h[n], *d, out[n + 4], *dout;
    for (int i = 0; i < n; i++) h[i] = i * 1.5f + 1;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = d;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = sizeof h;
    cudaTextureDesc td = tex_desc(cudaAddressModeClamp, false, false, 0);
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    k_fetch<<<1, n + 4>>>(t, dout, n + 4);
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n + 4; i++)   // index i - 2: out of range reads 0
        check("tex1Dfetch", i, out[i], (i - 2 >= 0 && i - 2 < n) ? h[i - 2] : 0.0f);
    cudaResourceDesc back;
    CK(cudaGetTextureObjectResourceDesc(&back, t));
    if (back.resType != cudaResourceTypeLinear || back.res.linear.devPtr != d) check("resdesc", 0, 1, 0);
    CK(cudaDestroyTextureObject(t));   // (a second destroy is undefined: a GPU crashes later)
    CK(cudaFree(d));
    CK(cudaFree(dout));
}

static void test_1d_array(void)
{
    const int w = 13;
    float h[w];
    for (int i = 0; i < w; i++) h[i] = (float)(i * i % 7) + 0.25f * i;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, w, 0));
    CK(cudaMemcpy2DToArray(a, 0, 0, h, sizeof h, sizeof h, 1, cudaMemcpyHostToDevice));
    int size[3] = { w, 1, 1 };
    for (int mode = 0; mode < 4; mode++)
        for (int lin = 0; lin < 2; lin++) {
            make_coords(true, size, 7u + mode * 2 + lin);
            cudaTextureObject_t t = array_tex(a, tex_desc(mode, lin, true, -3.0f));
            Ref r = { { w, 1, 1 }, h, mode, (bool)lin, true, -3.0f };
            char what[64];
            snprintf(what, sizeof what, "tex1D %s %s", mode_names[mode], lin ? "linear" : "point");
            run_and_check(what, launch_1d, t, r, 1, false);
            CK(cudaDestroyTextureObject(t));
        }
    CK(cudaFreeArray(a));
}

static void test_2d(void)
{
    const int w = 11, hgt = 7;
    float h[hgt][w];
    for (int y = 0; y < hgt; y++)
        for (int x = 0; x < w; x++) h[y][x] = x + 10.0f * y + (x * y % 3) * 0.5f;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, w, hgt));
    CK(cudaMemcpy2DToArray(a, 0, 0, h, sizeof h[0], sizeof h[0], hgt, cudaMemcpyHostToDevice));
    float back[hgt][w];
    CK(cudaMemcpy2DFromArray(back, sizeof back[0], a, 0, 0, sizeof back[0], hgt, cudaMemcpyDeviceToHost));
    for (int y = 0; y < hgt; y++)   // (back[0][i] past row 0 is undefined: nvcc -O2 miscompiles it)
        for (int x = 0; x < w; x++) check("2D array round trip", y * w + x, back[y][x], h[y][x]);
    int size[3] = { w, hgt, 1 };
    for (int mode = 0; mode < 4; mode++)
        for (int lin = 0; lin < 2; lin++) {
            make_coords(true, size, 99u + mode * 2 + lin);
            cudaTextureObject_t t = array_tex(a, tex_desc(mode, lin, true, 5.5f));
            Ref r = { { w, hgt, 1 }, &h[0][0], mode, (bool)lin, true, 5.5f };
            char what[64];
            snprintf(what, sizeof what, "tex2D array %s %s", mode_names[mode], lin ? "linear" : "point");
            run_and_check(what, launch_2d, t, r, 2, false);
            CK(cudaDestroyTextureObject(t));
        }
    // pitched linear memory, unnormalised coordinates, clamp and border
    float *dp;
    size_t pitch;
    CK(cudaMallocPitch((void **)&dp, &pitch, sizeof h[0], hgt));
    CK(cudaMemcpy2D(dp, pitch, h, sizeof h[0], sizeof h[0], hgt, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypePitch2D;
    rd.res.pitch2D.devPtr = dp;
    rd.res.pitch2D.desc = cd;
    rd.res.pitch2D.width = w;
    rd.res.pitch2D.height = hgt;
    rd.res.pitch2D.pitchInBytes = pitch;
    for (int mode = cudaAddressModeClamp; mode <= cudaAddressModeBorder; mode += 2)
        for (int lin = 0; lin < 2; lin++) {
            make_coords(false, size, 5u + mode + lin);
            cudaTextureDesc td = tex_desc(mode, lin, false, 0.0f);
            cudaTextureObject_t t;
            CK(cudaCreateTextureObject(&t, &rd, &td, NULL));
            Ref r = { { w, hgt, 1 }, &h[0][0], mode, (bool)lin, false, 0.0f };
            run_and_check(lin ? "tex2D pitch linear" : "tex2D pitch point", launch_2d, t, r, 2, false);
            CK(cudaDestroyTextureObject(t));
        }
    // tex2Dgather: component x of the four bilinear texels
    make_coords(true, size, 1234u);
    cudaTextureObject_t t = array_tex(a, tex_desc(cudaAddressModeClamp, false, true, 0));
    float4 *g, hg[N];
    CK(cudaMalloc(&g, sizeof hg));
    k_gather<<<(N + 63) / 64, 64>>>(t, d_coords, g, N);
    CK(cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost));
    Ref r = { { w, hgt, 1 }, &h[0][0], cudaAddressModeClamp, false, true, 0 };
    for (int i = 0; i < N; i++) {
        float u = h_coords[3 * i] * w - 0.5f, v = h_coords[3 * i + 1] * hgt - 0.5f;
        long i0 = (long)floorf(u), j0 = (long)floorf(v);
        long c[4][3] = { { i0, j0 + 1, 0 }, { i0 + 1, j0 + 1, 0 }, { i0 + 1, j0, 0 }, { i0, j0, 0 } };
        float got[4] = { hg[i].x, hg[i].y, hg[i].z, hg[i].w };
        for (int q = 0; q < 4; q++) check("tex2Dgather", i * 4 + q, got[q], texel(r, c[q], 2));
    }
    CK(cudaDestroyTextureObject(t));
    CK(cudaFree(g));
    CK(cudaFree(dp));
    CK(cudaFreeArray(a));
}

static void test_3d_and_layered(void)
{
    const int w = 6, hgt = 5, dep = 4;
    static float h[dep][hgt][w];
    for (int z = 0; z < dep; z++)
        for (int y = 0; y < hgt; y++)
            for (int x = 0; x < w; x++) h[z][y][x] = x + 8.0f * y + 64.0f * z;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    for (int layered = 0; layered < 2; layered++) {
        cudaArray_t a;
        CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(w, hgt, dep), layered ? cudaArrayLayered : 0));
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(h, w * sizeof(float), w, hgt);
        p.dstArray = a;
        p.extent = make_cudaExtent(w, hgt, dep);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        int size[3] = { w, hgt, dep };
        for (int mode = 0; mode < 4; mode += 1) {
            make_coords(true, size, 77u + mode + layered * 10);
            cudaTextureObject_t t = array_tex(a, tex_desc(mode, true, true, 2.0f));
            Ref r = { { w, hgt, dep }, &h[0][0][0], mode, true, true, 2.0f };
            char what[64];
            snprintf(what, sizeof what, "%s %s linear", layered ? "tex2DLayered" : "tex3D", mode_names[mode]);
            run_and_check(what, layered ? launch_layered : launch_3d, t, r, layered ? 2 : 3, layered);
            CK(cudaDestroyTextureObject(t));
        }
        CK(cudaFreeArray(a));
    }
}

static void test_uchar4(void)
{
    const int w = 8, hgt = 4;
    uchar4 h[hgt * w], back[hgt * w];   // flat: h[0][i] past row 0 would be undefined
    float ref[4][hgt * w];
    for (int i = 0; i < w * hgt; i++) {
        h[i] = make_uchar4(i * 7 % 256, 255 - i, i * 31 % 256, 128);
        ref[0][i] = h[i].x / 255.0f; ref[1][i] = h[i].y / 255.0f;
        ref[2][i] = h[i].z / 255.0f; ref[3][i] = h[i].w / 255.0f;
    }
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, w, hgt));
    CK(cudaMemcpyToArray(a, 0, 0, h, sizeof h, cudaMemcpyHostToDevice));   // deprecated, common
    // element type: the bytes themselves
    cudaTextureObject_t t = array_tex(a, tex_desc(cudaAddressModeClamp, false, false, 0));
    uchar4 *du;
    CK(cudaMalloc(&du, sizeof back));
    k_u8elem<<<hgt, w>>>(t, du, w, hgt);
    CK(cudaMemcpy(back, du, sizeof back, cudaMemcpyDeviceToHost));
    for (int i = 0; i < w * hgt; i++)
        check("uchar4 element", i, back[i].x + 256.0f * back[i].y + 65536.0f * back[i].z,
              h[i].x + 256.0f * h[i].y + 65536.0f * h[i].z);
    CK(cudaDestroyTextureObject(t));
    // normalised float, linear filtering, channel by channel
    cudaTextureDesc td = tex_desc(cudaAddressModeMirror, true, true, 0);
    td.readMode = cudaReadModeNormalizedFloat;
    t = array_tex(a, td);
    int size[3] = { w, hgt, 1 };
    make_coords(true, size, 4242u);
    float4 *d4, h4[N];
    CK(cudaMalloc(&d4, sizeof h4));
    k_u8norm<<<(N + 63) / 64, 64>>>(t, d_coords, d4, N);
    CK(cudaMemcpy(h4, d4, sizeof h4, cudaMemcpyDeviceToHost));
    for (int c = 0; c < 4; c++) {
        Ref r = { { w, hgt, 1 }, ref[c], cudaAddressModeMirror, true, true, 0 };
        for (int i = 0; i < N; i++) {
            float got = c == 0 ? h4[i].x : c == 1 ? h4[i].y : c == 2 ? h4[i].z : h4[i].w;
            float slack, want = ref_sample(r, 2, &h_coords[3 * i], -1, &slack);
            check("uchar4 normalized linear", i, got, want, slack);
        }
    }
    CK(cudaDestroyTextureObject(t));
    CK(cudaFree(d4));
    CK(cudaFree(du));
    CK(cudaFreeArray(a));
}

static void test_surface(void)
{
    const int w = 16, hgt = 3;
    float h[hgt * w], out[hgt * w];
    for (int i = 0; i < w * hgt; i++) h[i] = (float)i;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a, b;
    CK(cudaMallocArray(&a, &cd, w, hgt, cudaArraySurfaceLoadStore));
    CK(cudaMallocArray(&b, &cd, w, hgt, cudaArraySurfaceLoadStore));
    CK(cudaMemcpy2DToArray(a, 0, 0, h, w * sizeof h[0], w * sizeof h[0], hgt, cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t sa, sb;
    CK(cudaCreateSurfaceObject(&sa, &rd));
    rd.res.array.array = b;
    CK(cudaCreateSurfaceObject(&sb, &rd));
    k_surf<<<hgt, w + 1>>>(sa, sb, w, hgt);
    CK(cudaGetLastError());
    CK(cudaMemcpy2DFromArray(out, w * sizeof out[0], b, 0, 0, w * sizeof out[0], hgt, cudaMemcpyDeviceToHost));
    for (int i = 0; i < w * hgt; i++) check("surf2Dread/write", i, out[i], 2.0f * h[i] + 1.0f);
    CK(cudaDestroySurfaceObject(sa));
    CK(cudaDestroySurfaceObject(sb));
    CK(cudaFreeArray(a));
    CK(cudaFreeArray(b));
}

int main(void)
{
    CK(cudaMalloc(&d_coords, sizeof h_coords));
    CK(cudaMalloc(&d_out, sizeof h_out));
    test_fetch();
    test_1d_array();
    test_2d();
    test_3d_and_layered();
    test_uchar4();
    test_surface();
    CK(cudaDeviceSynchronize());
    if (failures) {
        printf("texture: FAIL (%d mismatches)\n", failures);
        return 1;
    }
    printf("texture: PASS\n");
    return 0;
}
