/*
 * Betweenness centrality by Brandes' algorithm, level-synchronous as in
 * Pannotia's bc: from each source, a forward sweep numbers the shortest
 * paths (sigma) level by level, and a backward sweep accumulates the
 * dependencies (delta) from the deepest level up. Pannotia pushes along
 * edges with atomic additions; here every node pulls from its neighbours
 * at the level above (forward) or below (backward), so each value has one
 * writer and no atomics are needed.
 */
#include "../include/suite.h"

__kernel void bc_init(__global int *dist, __global float *sigma,
                      __global float *delta, int source, int n) {
	int v = global_id();
	if (v >= n)
		return;
	dist[v] = v == source ? 0 : -1;
	sigma[v] = v == source ? 1.0f : 0.0f;
	delta[v] = 0.0f;
}

__kernel void bc_forward(__global const int *rowptr, __global const int *col,
                         __global int *dist, __global float *sigma,
                         __global int *reached, int level, int n) {
	int v = global_id();
	if (v >= n || dist[v] >= 0)
		return;
	float paths = 0.0f;
	int found = 0;
	int end = rowptr[v + 1];
	for (int e = rowptr[v]; e < end; e++) {
		int u = col[e];
		if (dist[u] == level) {
			paths = paths + sigma[u];
			found = 1;
		}
	}
	if (found) {
		dist[v] = level + 1;
		sigma[v] = paths;
		*reached = 1;
	}
}

__kernel void bc_backward(__global const int *rowptr, __global const int *col,
                          __global const int *dist, __global const float *sigma,
                          __global float *delta, __global float *bc,
                          int level, int source, int n) {
	int v = global_id();
	if (v >= n || dist[v] != level)
		return;
	float sum = 0.0f;
	float mine = sigma[v];
	int end = rowptr[v + 1];
	for (int e = rowptr[v]; e < end; e++) {
		int w = col[e];
		if (dist[w] == level + 1)
			sum = sum + mine / sigma[w] * (1.0f + delta[w]);
	}
	delta[v] = sum;
	if (v != source)
		bc[v] = bc[v] + sum;
}
