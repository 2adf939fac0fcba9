// gpu_runtime.h — one spelling (gpu*) for the CUDA and HIP runtime calls dlarray uses.
//
// gpu_ops.cu is written once against these names; DLA_GPU_HIP selects HIP (dla::rocm),
// otherwise CUDA (dla::cuda). The two APIs match call for call here, so the mapping is a
// list of names, nothing more.
#pragma once

#if defined(DLA_GPU_HIP)
#include <hip/hip_runtime.h>

#define DLA_GPU_NS rocm
#define DLA_GPU_ENTRY dla_rocm_gpu_ops
#define DLA_GPU_NAME "rocm"
#define DLA_GPU_DEVICE_TYPE 10 /* kDLROCM */
#define DLA_GPU_HOST_TYPE 11   /* kDLROCMHost */
#define DLA_GPU_MANAGED_TYPE 0 /* DLPack has no ROCm managed memory */

using gpuError_t = hipError_t;
using gpuStream_t = hipStream_t;
using gpuEvent_t = hipEvent_t;
using gpuMemPool_t = hipMemPool_t;
using gpuMemPoolProps = hipMemPoolProps;
#define gpuSuccess hipSuccess
#define gpuErrorOutOfMemory hipErrorOutOfMemory
#define gpuErrorInvalidDevice hipErrorInvalidDevice
#define gpuErrorInvalidValue hipErrorInvalidValue
#define gpuGetErrorString hipGetErrorString
#define gpuGetLastError hipGetLastError
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuGetDevice hipGetDevice
#define gpuSetDevice hipSetDevice
#define gpuDeviceGetAttribute hipDeviceGetAttribute
#define gpuDevAttrMemoryPoolsSupported hipDeviceAttributeMemoryPoolsSupported
#define gpuDevAttrMultiProcessorCount hipDeviceAttributeMultiprocessorCount
#define gpuMemPoolCreate hipMemPoolCreate
#define gpuMemPoolSetAttribute hipMemPoolSetAttribute
#define gpuMemPoolGetAttribute hipMemPoolGetAttribute
#define gpuMemPoolTrimTo hipMemPoolTrimTo
#define gpuMemPoolAttrReleaseThreshold hipMemPoolAttrReleaseThreshold
#define gpuMemPoolAttrReservedMemCurrent hipMemPoolAttrReservedMemCurrent
#define gpuMemPoolAttrUsedMemCurrent hipMemPoolAttrUsedMemCurrent
#define gpuMemAllocationTypePinned hipMemAllocationTypePinned
#define gpuMemHandleTypeNone hipMemHandleTypeNone
#define gpuMemLocationTypeDevice hipMemLocationTypeDevice
#define gpuMallocFromPoolAsync hipMallocFromPoolAsync
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuFreeAsync hipFreeAsync
#define gpuHostAlloc hipHostMalloc
#define gpuHostAllocPortable hipHostMallocPortable
#define gpuFreeHost hipHostFree
#define gpuMallocManaged hipMallocManaged
#define gpuMemAttachGlobal hipMemAttachGlobal
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpy2DAsync hipMemcpy2DAsync
#define gpuMemcpyDefault hipMemcpyDefault
#define gpuMemsetAsync hipMemsetAsync
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuStreamDefault hipStreamDefault
#define gpuStreamDestroy hipStreamDestroy
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamQuery hipStreamQuery
#define gpuErrorNotReady hipErrorNotReady
#define gpuEventCreateWithFlags hipEventCreateWithFlags
#define gpuEventDisableTiming hipEventDisableTiming
#define gpuEventDestroy hipEventDestroy
#define gpuEventRecord hipEventRecord
#define gpuStreamWaitEvent hipStreamWaitEvent
#define gpuEventQuery hipEventQuery
#define gpuDeviceCanAccessPeer hipDeviceCanAccessPeer
#define gpuMemPoolSetAccess hipMemPoolSetAccess
#define gpuMemAccessFlagsProtReadWrite hipMemAccessFlagsProtReadWrite
using gpuMemAccessDesc = hipMemAccessDesc;

#else
#include <cuda_runtime.h>

#define DLA_GPU_NS cuda
#define DLA_GPU_ENTRY dla_cuda_gpu_ops
#define DLA_GPU_NAME "cuda"
#define DLA_GPU_DEVICE_TYPE 2   /* kDLCUDA */
#define DLA_GPU_HOST_TYPE 3     /* kDLCUDAHost */
#define DLA_GPU_MANAGED_TYPE 13 /* kDLCUDAManaged */

using gpuError_t = cudaError_t;
using gpuStream_t = cudaStream_t;
using gpuEvent_t = cudaEvent_t;
using gpuMemPool_t = cudaMemPool_t;
using gpuMemPoolProps = cudaMemPoolProps;
#define gpuSuccess cudaSuccess
#define gpuErrorOutOfMemory cudaErrorMemoryAllocation
#define gpuErrorInvalidDevice cudaErrorInvalidDevice
#define gpuErrorInvalidValue cudaErrorInvalidValue
#define gpuGetErrorString cudaGetErrorString
#define gpuGetLastError cudaGetLastError
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuGetDevice cudaGetDevice
#define gpuSetDevice cudaSetDevice
#define gpuDeviceGetAttribute cudaDeviceGetAttribute
#define gpuDevAttrMemoryPoolsSupported cudaDevAttrMemoryPoolsSupported
#define gpuDevAttrMultiProcessorCount cudaDevAttrMultiProcessorCount
#define gpuMemPoolCreate cudaMemPoolCreate
#define gpuMemPoolSetAttribute cudaMemPoolSetAttribute
#define gpuMemPoolGetAttribute cudaMemPoolGetAttribute
#define gpuMemPoolTrimTo cudaMemPoolTrimTo
#define gpuMemPoolAttrReleaseThreshold cudaMemPoolAttrReleaseThreshold
#define gpuMemPoolAttrReservedMemCurrent cudaMemPoolAttrReservedMemCurrent
#define gpuMemPoolAttrUsedMemCurrent cudaMemPoolAttrUsedMemCurrent
#define gpuMemAllocationTypePinned cudaMemAllocationTypePinned
#define gpuMemHandleTypeNone cudaMemHandleTypeNone
#define gpuMemLocationTypeDevice cudaMemLocationTypeDevice
#define gpuMallocFromPoolAsync cudaMallocFromPoolAsync
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuFreeAsync cudaFreeAsync
#define gpuHostAlloc cudaHostAlloc
#define gpuHostAllocPortable cudaHostAllocPortable
#define gpuFreeHost cudaFreeHost
#define gpuMallocManaged cudaMallocManaged
#define gpuMemAttachGlobal cudaMemAttachGlobal
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpy2DAsync cudaMemcpy2DAsync
#define gpuMemcpyDefault cudaMemcpyDefault
#define gpuMemsetAsync cudaMemsetAsync
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuStreamDefault cudaStreamDefault
#define gpuStreamDestroy cudaStreamDestroy
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamQuery cudaStreamQuery
#define gpuErrorNotReady cudaErrorNotReady
#define gpuEventCreateWithFlags cudaEventCreateWithFlags
#define gpuEventDisableTiming cudaEventDisableTiming
#define gpuEventDestroy cudaEventDestroy
#define gpuEventRecord cudaEventRecord
#define gpuStreamWaitEvent cudaStreamWaitEvent
#define gpuEventQuery cudaEventQuery
#define gpuDeviceCanAccessPeer cudaDeviceCanAccessPeer
#define gpuMemPoolSetAccess cudaMemPoolSetAccess
#define gpuMemAccessFlagsProtReadWrite cudaMemAccessFlagsProtReadWrite
using gpuMemAccessDesc = cudaMemAccessDesc;
#endif
