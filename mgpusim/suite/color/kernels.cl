/*
 * Graph colouring by Jones-Plassmann as Pannotia's color (max variant)
 * runs it: in round c, an uncoloured node whose random value is the
 * greatest among its uncoloured neighbours (ties broken by node number)
 * takes colour c. The choice is written to its own array and applied by a
 * second kernel, so each colour has one writer: no atomics.
 */
#include "../include/suite.h"

__kernel void color_select(__global const int *rowptr, __global const int *col,
                           __global const uint *value, __global const int *color,
                           __global int *selected, int n) {
	int v = global_id();
	if (v >= n)
		return;
	int pick = 0;
	if (color[v] < 0) {
		pick = 1;
		uint mine = value[v];
		int end = rowptr[v + 1];
		/* No early exit: a break here makes clang emit s_orn2_b64,
		 * which MGPUSim cannot execute. */
		for (int e = rowptr[v]; e < end; e++) {
			int u = col[e];
			uint theirs = value[u];
			if (color[u] < 0 && (theirs > mine || (theirs == mine && u > v)))
				pick = 0;
		}
	}
	selected[v] = pick;
}

__kernel void color_commit(__global const int *selected, __global int *color,
                           __global int *uncolored, int c, int n) {
	int v = global_id();
	if (v >= n || color[v] >= 0)
		return;
	if (selected[v])
		color[v] = c;
	else
		*uncolored = 1;
}
