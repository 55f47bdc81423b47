/*
 * PageRank in Pannotia's SpMV form: scale divides each rank by its node's
 * degree (as a product with the host's reciprocal, so the kernels need no
 * division), spmv sums the scaled ranks of each node's neighbours in CSR
 * order, update applies the damping. Every node is written by one work-item
 * only: no atomics.
 */
#include "../include/suite.h"

__kernel void prk_scale(__global const float *rank, __global const float *invdeg,
                        __global float *x, int n) {
	int v = global_id();
	if (v >= n)
		return;
	x[v] = rank[v] * invdeg[v];
}

__kernel void prk_spmv(__global const int *rowptr, __global const int *col,
                       __global const float *x, __global float *y, int n) {
	int v = global_id();
	if (v >= n)
		return;
	float sum = 0.0f;
	int end = rowptr[v + 1];
	for (int e = rowptr[v]; e < end; e++)
		sum = sum + x[col[e]];
	y[v] = sum;
}

__kernel void prk_update(__global const float *y, __global float *rank,
                         float base, float damping, int n) {
	int v = global_id();
	if (v >= n)
		return;
	rank[v] = base + damping * y[v];
}
