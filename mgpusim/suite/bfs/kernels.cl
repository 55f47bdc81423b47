/*
 * Breadth-first search in Rodinia's and Pannotia's two-kernel form: the
 * frontier is a mask; expand visits the frontier's neighbours, commit makes
 * the nodes reached the next frontier. Several frontier nodes may write the
 * same neighbour's cost, always with the same value (frontier nodes share
 * a level), so no atomics are needed; flags are ints because MGPUSim
 * cannot store bytes.
 */
#include "../include/suite.h"

__kernel void bfs_expand(__global const int *rowptr, __global const int *col,
                         __global int *mask, __global int *updating,
                         __global const int *visited, __global int *cost, int n) {
	int v = global_id();
	if (v >= n || !mask[v])
		return;
	mask[v] = 0;
	int next = cost[v] + 1;
	int end = rowptr[v + 1];
	for (int e = rowptr[v]; e < end; e++) {
		int u = col[e];
		if (!visited[u]) {
			cost[u] = next;
			updating[u] = 1;
		}
	}
}

__kernel void bfs_commit(__global int *mask, __global int *updating,
                         __global int *visited, __global int *more, int n) {
	int v = global_id();
	if (v >= n || !updating[v])
		return;
	mask[v] = 1;
	visited[v] = 1;
	updating[v] = 0;
	*more = 1;
}
