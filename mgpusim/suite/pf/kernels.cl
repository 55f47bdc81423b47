/*
 * Pathfinder (Rodinia's pathfinder, LATTE-CC's PF row): dynamic
 * programming down a grid of weights, each cell adding the least of the
 * three cells above it. As in Rodinia, one launch advances `iteration`
 * rows at once (the pyramid): each work-group loads a block of the current
 * row into local memory and steps down inside it, the valid part shrinking
 * by one column on each side per row, so blocks overlap by the pyramid's
 * height and write only their valid middle. Local memory and barriers, no
 * atomics.
 */
#include "../include/suite.h"

#define BLOCK 256

__kernel void pathfinder(__global const int *wall, __global const int *src,
                         __global int *dst, int iteration, int cols,
                         int startStep, int border) {
	__local int prev[BLOCK];
	__local int result[BLOCK];
	int bx = (int)group_id();
	int tx = (int)local_id();

	int smallBlockCols = BLOCK - iteration * 2;
	int blkX = smallBlockCols * bx - border;
	int xidx = blkX + tx;
	int validXmin = blkX < 0 ? -blkX : 0;
	int validXmax = blkX + BLOCK - 1 > cols - 1 ? BLOCK - 1 - (blkX + BLOCK - cols) : BLOCK - 1;
	int w = tx - 1 < validXmin ? validXmin : tx - 1;
	int e = tx + 1 > validXmax ? validXmax : tx + 1;
	int isValid = tx >= validXmin && tx <= validXmax;

	if (xidx >= 0 && xidx < cols)
		prev[tx] = src[xidx];
	work_group_barrier();

	int computed = 0;
	for (int i = 0; i < iteration; i++) {
		/* One mask from bitwise ands: short-circuit && branches make
		 * clang emit s_orn2_b64. */
		computed = (tx >= i + 1) & (tx <= BLOCK - i - 2) & isValid;
		if (computed) {
			int left = prev[w], up = prev[tx], right = prev[e];
			int shortest = left < up ? left : up;
			shortest = shortest < right ? shortest : right;
			result[tx] = shortest + wall[cols * (startStep + i) + xidx];
		}
		work_group_barrier();
		/* Rodinia stops before this copy on the last row; here it runs
		 * (prev is not read again): a break, or a test of the row
		 * joined to "computed", makes clang emit s_orn2_b64 or
		 * s_cselect_b64, which MGPUSim cannot execute. */
		if (computed)
			prev[tx] = result[tx];
		work_group_barrier();
	}
	if (computed)
		dst[xidx] = result[tx];
}
