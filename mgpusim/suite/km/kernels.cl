/*
 * K-means (Rodinia's kmeans, LATTE-CC's KM row): kmeans_swap transposes
 * the points to feature-major order so that neighbouring work-items read
 * neighbouring words, and kmeans_assign gives each point the nearest
 * centre by squared Euclidean distance (the first on a tie); the host
 * moves the centres and repeats, as Rodinia's host does. Each point is
 * written by one work-item: no atomics.
 */
#include "../include/suite.h"

__kernel void kmeans_swap(__global const float *feature, __global float *feature_swap,
                          int npoints, int nfeatures) {
	int p = global_id();
	if (p >= npoints)
		return;
	/* do-while: see kmeans_assign. */
	int f = 0;
	do {
		feature_swap[f * npoints + p] = feature[p * nfeatures + f];
		f++;
	} while (f < nfeatures);
}

__kernel void kmeans_assign(__global const float *feature_swap, __global const float *clusters,
                            __global int *membership, int npoints, int nclusters,
                            int nfeatures) {
	int p = global_id();
	if (p >= npoints)
		return;
	int index = 0;
	float best = 0x1.fffffep127f; /* FLT_MAX, as Rodinia starts */
	for (int c = 0; c < nclusters; c++) {
		float dist = 0.0f;
		/* do-while: the host guarantees a feature, and the zero-trip
		 * test of a for loop becomes an s_cselect_b64, which MGPUSim
		 * cannot execute. */
		int f = 0;
		do {
			float d = feature_swap[f * npoints + p] - clusters[c * nfeatures + f];
			dist = dist + d * d;
			f++;
		} while (f < nfeatures);
		if (dist < best) {
			best = dist;
			index = c;
		}
	}
	membership[p] = index;
}
