/*
 * Single-source shortest paths by Bellman-Ford in pull form (the DJK row of
 * LATTE-CC's Table III): each round, every node takes the least of its own
 * distance and its neighbours' distances plus the edge weight, reading the
 * last round's distances and writing this round's (Jacobi rounds, so the
 * result does not depend on the order of work-groups). Pannotia's sssp
 * relaxes edges with atomic minima; pulling makes each node the only
 * writer of its distance, so no atomics are needed.
 */
#include "../include/suite.h"

#define INF 0x7fffffff

__kernel void sssp_relax(__global const int *rowptr, __global const int *col,
                         __global const int *weight, __global const int *dist,
                         __global int *next, __global int *changed, int n) {
	int v = global_id();
	if (v >= n)
		return;
	int own = dist[v];
	int best = own;
	int end = rowptr[v + 1];
	for (int e = rowptr[v]; e < end; e++) {
		int du = dist[col[e]];
		if (du != INF) {
			int c = du + weight[e];
			if (c < best)
				best = c;
		}
	}
	next[v] = best;
	if (best != own)
		*changed = 1;
}
