/*
 * Maximal independent set by Luby's algorithm as Pannotia's mis runs it:
 * each round, an undecided node whose random value is the least among its
 * undecided neighbours (ties broken by node number) joins the set; then
 * the set's neighbours leave. Selection is written to its own array and
 * read in a second kernel, so each node's state has one writer and no
 * atomics are needed.
 *
 * state: 0 undecided, 1 in the set, 2 out.
 */
#include "../include/suite.h"

__kernel void mis_select(__global const int *rowptr, __global const int *col,
                         __global const uint *value, __global const int *state,
                         __global int *selected, int n) {
	int v = global_id();
	if (v >= n)
		return;
	int pick = 0;
	if (state[v] == 0) {
		pick = 1;
		uint mine = value[v];
		int end = rowptr[v + 1];
		/* No early exit (see mis_commit). */
		for (int e = rowptr[v]; e < end; e++) {
			int u = col[e];
			uint theirs = value[u];
			if (state[u] == 0 && (theirs < mine || (theirs == mine && u < v)))
				pick = 0;
		}
	}
	selected[v] = pick;
}

__kernel void mis_commit(__global const int *rowptr, __global const int *col,
                         __global const int *selected, __global int *state,
                         __global int *undecided, int n) {
	int v = global_id();
	if (v >= n || state[v] != 0)
		return;
	/* Counting, with one path through and no early exits: the branches a
	 * return, a break or a flag set in the loop would add make clang emit
	 * s_orn2_b64, which MGPUSim cannot execute. */
	int chosen = 0;
	int end = rowptr[v + 1];
	for (int e = rowptr[v]; e < end; e++)
		chosen += selected[col[e]];
	int next = selected[v] ? 1 : chosen > 0 ? 2 : 0;
	state[v] = next;
	if (next == 0)
		*undecided = 1;
}
