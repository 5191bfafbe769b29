/*
** device.c -- the simulated GPU as the CUDA APIs describe it: device
** attributes (the runtime's cudaDevAttr* and the driver's
** CU_DEVICE_ATTRIBUTE_* share one numbering) and cudaDeviceProp.  One
** table of limits (cuda_internal.h) feeds both, and occupancy.
*/
#include <cuda_runtime_api.h>
#include "cuda_internal.h"
#include <string.h>

#define WSC_MEM_CLOCK_KHZ  7000000
#define WSC_MEM_BUS_BITS   256

/* Value of attribute `a` in *v; -1 if the simulator has no answer. */
int wsc_device_attr(const wsc_config *c, int a, int *v)
{
    switch ((enum cudaDeviceAttr)a) {
    case cudaDevAttrMaxThreadsPerBlock:          *v = WSC_MAX_THREADS_PER_BLOCK; break;
    case cudaDevAttrMaxBlockDimX:                *v = 1024; break;
    case cudaDevAttrMaxBlockDimY:                *v = 1024; break;
    case cudaDevAttrMaxBlockDimZ:                *v = 64; break;
    case cudaDevAttrMaxGridDimX:                 *v = 0x7fffffff; break;
    case cudaDevAttrMaxGridDimY:                 *v = 65535; break;
    case cudaDevAttrMaxGridDimZ:                 *v = 65535; break;
    case cudaDevAttrMaxSharedMemoryPerBlock:     *v = WSC_SHARED_PER_BLOCK; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = WSC_SHARED_PER_BLOCK; break;
    case cudaDevAttrTotalConstantMemory:         *v = WSC_TOTAL_CONST_MEM; break;
    case cudaDevAttrWarpSize:                    *v = 32; break;
    case cudaDevAttrMaxPitch:                    *v = 0x7fffffff; break;
    case cudaDevAttrMaxRegistersPerBlock:        *v = WSC_REGS_PER_SM; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = WSC_REGS_PER_SM; break;
    case cudaDevAttrClockRate:                   *v = (int)c->clock_mhz * 1000; break;
    case cudaDevAttrMemoryClockRate:             *v = WSC_MEM_CLOCK_KHZ; break;
    case cudaDevAttrGlobalMemoryBusWidth:        *v = WSC_MEM_BUS_BITS; break;
    case cudaDevAttrL2CacheSize:                 *v = WSC_L2_BYTES; break;
    case cudaDevAttrTextureAlignment:            *v = 512; break;
    case cudaDevAttrTexturePitchAlignment:       *v = 32; break;
    case cudaDevAttrSurfaceAlignment:            *v = 512; break;
    case cudaDevAttrMultiProcessorCount:         *v = (int)c->num_sms; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = WSC_MAX_THREADS_PER_SM; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:  *v = WSC_MAX_BLOCKS_PER_SM; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = WSC_SHARED_PER_SM; break;
    case cudaDevAttrComputeCapabilityMajor:      *v = c->cc_major; break;
    case cudaDevAttrComputeCapabilityMinor:      *v = c->cc_minor; break;
    case cudaDevAttrUnifiedAddressing:           *v = 1; break;
    case cudaDevAttrManagedMemory:               *v = 1; break;
    /* what an sm_60-or-later GPU has, and what the streams model
       (cudart_stream.c) and mapped memory (cudart_host.c) provide */
    case cudaDevAttrConcurrentKernels:           *v = 1; break;
    case cudaDevAttrAsyncEngineCount:            *v = WSC_COPY_ENGINES; break;
    case cudaDevAttrGpuOverlap:                  *v = 1; break;
    case cudaDevAttrCanMapHostMemory:            *v = 1; break;
    case cudaDevAttrComputeMode:                 *v = 0; break;   /* default */
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *v = 32; break;
    case cudaDevAttrKernelExecTimeout: case cudaDevAttrIntegrated:
    case cudaDevAttrEccEnabled: case cudaDevAttrTccDriver:
    case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId:
    case cudaDevAttrIsMultiGpuBoard: case cudaDevAttrMultiGpuBoardGroupID:
    case cudaDevAttrHostNativeAtomicSupported: case cudaDevAttrPageableMemoryAccess:
    case cudaDevAttrConcurrentManagedAccess: case cudaDevAttrComputePreemptionSupported:
    case cudaDevAttrCooperativeLaunch: case cudaDevAttrClusterLaunch:
    case cudaDevAttrMemoryPoolsSupported: case cudaDevAttrStreamPrioritiesSupported:
    case cudaDevAttrReservedSharedMemoryPerBlock:
                                                 *v = 0; break;
    case cudaDevAttrHostRegisterSupported:       *v = 1; break;
    default: return -1;
    }
    return 0;
}

void wsc_device_name(const wsc_config *c, char *buf, size_t len)
{
    snprintf(buf, len, "warpsim simulated GPU (sm_%d%d, %u SMs)", c->cc_major, c->cc_minor,
             c->num_sms);
}

/* Fill a CUDA 13 cudaDeviceProp (the layout comes from the real header). */
void wsc_device_props(const wsc_config *c, void *out)
{
    struct cudaDeviceProp *p = out;
    memset(p, 0, sizeof *p);
    wsc_device_name(c, p->name, sizeof p->name);
    memcpy(p->uuid.bytes, "warpsim-sim-gpu0", 16);
    p->totalGlobalMem = (size_t)WSC_TOTAL_GLOBAL_MEM;
    p->sharedMemPerBlock = WSC_SHARED_PER_BLOCK;
    p->regsPerBlock = WSC_REGS_PER_SM;
    p->warpSize = 32;
    p->memPitch = 0x7fffffff;
    p->maxThreadsPerBlock = WSC_MAX_THREADS_PER_BLOCK;
    p->maxThreadsDim[0] = 1024; p->maxThreadsDim[1] = 1024; p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff; p->maxGridSize[1] = 65535; p->maxGridSize[2] = 65535;
    p->totalConstMem = WSC_TOTAL_CONST_MEM;
    p->major = c->cc_major;
    p->minor = c->cc_minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = (int)c->num_sms;
    p->surfaceAlignment = 512;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = WSC_MEM_BUS_BITS;
    p->l2CacheSize = WSC_L2_BYTES;
    p->maxThreadsPerMultiProcessor = WSC_MAX_THREADS_PER_SM;
    p->sharedMemPerMultiprocessor = WSC_SHARED_PER_SM;
    p->regsPerMultiprocessor = WSC_REGS_PER_SM;
    p->managedMemory = 1;
    p->sharedMemPerBlockOptin = WSC_SHARED_PER_BLOCK;
    p->maxBlocksPerMultiProcessor = WSC_MAX_BLOCKS_PER_SM;
    p->hostRegisterSupported = 1;
    p->canMapHostMemory = 1;
    p->concurrentKernels = 1;
    p->asyncEngineCount = WSC_COPY_ENGINES;
    p->hostNumaId = -1;
}
