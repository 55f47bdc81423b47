/*
 * suite.h: the work-item built-ins of the suite's kernels.
 *
 * The kernels are compiled with -nogpulib, so OpenCL's library of
 * built-ins is absent; these few take its place, read straight from the
 * hardware registers and the HSA dispatch packet the way the library does:
 * the work-item and work-group ids are in registers the dispatcher sets,
 * the work-group size is in the dispatch packet, and the global offset is
 * the first hidden argument after the explicit ones. Everything is 32-bit
 * (indices never exceed 2^31 here), which keeps clang from emitting 64-bit
 * index arithmetic and the instructions MGPUSim v4.2.0 cannot execute.
 */
#ifndef LINECOMP_SUITE_H
#define LINECOMP_SUITE_H

/* Float arithmetic is written out operation by operation, and the hosts'
 * reference computations round the same operations the same way. */
#pragma OPENCL FP_CONTRACT OFF

typedef unsigned int uint;

static inline uint local_id(void) { return __builtin_amdgcn_workitem_id_x(); }

static inline uint group_id(void) { return __builtin_amdgcn_workgroup_id_x(); }

/* workgroup_size_x is the uint16 at byte 4 of hsa_kernel_dispatch_packet_t. */
static inline uint local_size(void) {
	__constant unsigned short *packet =
		(__constant unsigned short *)__builtin_amdgcn_dispatch_ptr();
	return packet[2];
}

/* The global id of dimension 0, as get_global_id(0) gives it: the hidden
 * global offset (HiddenGlobalOffsetX in the hosts' argument structs) plus
 * the work-group's base plus the local id. */
static inline int global_id(void) {
	__constant int *offset = (__constant int *)__builtin_amdgcn_implicitarg_ptr();
	return offset[0] + (int)(group_id() * local_size() + local_id());
}

/* barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE) */
static inline void work_group_barrier(void) {
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

#endif
