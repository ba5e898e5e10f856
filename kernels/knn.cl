/* knn.cl — the k smallest distances of each row of a block, from a matrix
 * product taken a tile of columns at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: g is a block of rows by a tile of columns of the product X · Xᵀ,
 * rows × width floats row-major: g[r][c] = x_i · x_j for data rows
 * i = first + r and j = c0 + c, c < cols (the tile's other columns are
 * padding); norms holds ‖x‖² of every row of X. Work-item r computes
 * d = ‖x_i‖² + ‖x_j‖² − 2 g[r][c] for every j ≠ i of the tile and keeps the K
 * smallest so far (ties to the lower j) sorted ascending, in kept_d and
 * kept_j (rows × K), which the tile at c0 = 0 starts and each next tile
 * goes on from. Most j are farther than the K-th kept, so VEC of them are
 * tested at once and walked one by one only when one is nearer. The
 * expansion cancels for near rows: the host measures the candidates again
 * with their differences.
 */

#ifndef K
#define K 16
#endif

#ifndef VEC
#define VEC 16
#endif

/* Column c of the tile, row c0 + c of the data, if nearer than the last kept. */
#define INSERT(c)                                                          \
  do {                                                                     \
    const uint jj = c0 + (c);                                              \
    const float dd = fmax (row[c] * -2.0f + ni + norms[jj], 0.0f);         \
    if (jj != i && dd < best_d[K - 1])                                     \
      {                                                                    \
        uint q = K - 1;                                                    \
        while (q > 0 && best_d[q - 1] > dd)                                \
          {                                                                \
            best_d[q] = best_d[q - 1];                                     \
            best_j[q] = best_j[q - 1];                                     \
            q--;                                                           \
          }                                                                \
        best_d[q] = dd;                                                    \
        best_j[q] = (int) jj;                                              \
      }                                                                    \
  } while (0)

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
            const uint width,
            __global const float *LATENT_RESTRICT norms,
            const uint c0,
            const uint cols,
            const uint first,
            const uint rows,
            __global float *LATENT_RESTRICT kept_d,
            __global int *LATENT_RESTRICT kept_j)
{
  const uint r = get_global_id (0);
  float best_d[K];
  int best_j[K];

  if (r >= rows)
    return;

  const uint i = first + r;
  const float ni = norms[i];
  __global const float *row = g + (size_t) r * width;

  for (uint q = 0; q < K; q++)
    {
      best_d[q] = c0 == 0 ? LATENT_FLT_BIG : kept_d[(size_t) r * K + q];
      best_j[q] = c0 == 0 ? -1 : kept_j[(size_t) r * K + q];
    }

  uint c = 0;
  for (; c + VEC <= cols; c += VEC)
    {
      vec_t d = (vec_t) (ni) + VLOAD (0, norms + c0 + c) - 2.0f * VLOAD (0, row + c);
      if (!any (d < (vec_t) (best_d[K - 1])))
        continue;
      for (uint v = 0; v < VEC; v++)
        INSERT (c + v);
    }
  for (; c < cols; c++)
    INSERT (c);
  for (uint q = 0; q < K; q++)
    {
      kept_d[(size_t) r * K + q] = best_d[q];
      kept_j[(size_t) r * K + q] = best_j[q];
    }
}
