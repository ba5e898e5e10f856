/* knn.cl — the k smallest distances of each row of a block, from a matrix
 * product
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: g is a block of the product X_B · Xᵀ, rows × n floats row-major
 * (row r is dataset row first + r); norms holds ‖x‖² of every row of X
 * (n floats). Work-item r computes d = ‖x_i‖² + ‖x_j‖² − 2 g[r][j] for
 * every j ≠ i, and keeps the K smallest (ties to the lower j) in private
 * arrays sorted ascending, and writes their j to index (rows × K). Most j are farther than the K-th kept, so the CPU shape
 * tests VEC of them at once and walks them one by one only when one is
 * nearer. The expansion cancels for near rows: the host measures the
 * candidates again with their differences.
 */

#ifndef K
#define K 16
#endif

#ifndef VEC
#define VEC 16
#endif

#if VEC == 16
typedef float16 vec_t;
#define VLOAD vload16
#elif VEC == 8
typedef float8 vec_t;
#define VLOAD vload8
#else
#undef VEC
#define VEC 4
typedef float4 vec_t;
#define VLOAD vload4
#endif

__kernel void
knn_select (__global const float *LATENT_RESTRICT g,
            __global const float *LATENT_RESTRICT norms,
            const uint n,
            const uint first,
            const uint rows,
            __global int *LATENT_RESTRICT index)
{
  const uint r = get_global_id (0);
  float best_d[K];
  int best_j[K];

  if (r >= rows)
    return;

  const uint i = first + r;
  const float ni = norms[i];
  __global const float *row = g + (size_t) r * n;

  for (uint q = 0; q < K; q++)
    {
      best_d[q] = LATENT_FLT_BIG;
      best_j[q] = -1;
    }

  uint j = 0;
  for (; j + VEC <= n; j += VEC)
    {
      vec_t d = (vec_t) (ni) + VLOAD (0, norms + j) - 2.0f * VLOAD (0, row + j);
      if (!any (d < (vec_t) (best_d[K - 1])))
        continue;
      for (uint v = 0; v < VEC; v++)
        {
          const uint jj = j + v;
          float dd = fmax (row[jj] * -2.0f + ni + norms[jj], 0.0f);
          if (jj == i || !(dd < best_d[K - 1]))
            continue;
          uint q = K - 1;
          while (q > 0 && best_d[q - 1] > dd)
            {
              best_d[q] = best_d[q - 1];
              best_j[q] = best_j[q - 1];
              q--;
            }
          best_d[q] = dd;
          best_j[q] = (int) jj;
        }
    }
  for (; j < n; j++)
    {
      float dd = fmax (row[j] * -2.0f + ni + norms[j], 0.0f);
      if (j == i || !(dd < best_d[K - 1]))
        continue;
      uint q = K - 1;
      while (q > 0 && best_d[q - 1] > dd)
        {
          best_d[q] = best_d[q - 1];
          best_j[q] = best_j[q - 1];
          q--;
        }
      best_d[q] = dd;
      best_j[q] = (int) j;
    }
  for (uint q = 0; q < K; q++)
    index[(size_t) r * K + q] = best_j[q];
}
