/* prototype.cl — the nearest-prototype classifier: class sums for the
 * prototypes (class means), and every row's score against every prototype
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: x is a dataset's rows, n_rows × dp floats, row-major, dp a
 * multiple of VEC with zero padding, read as vec_t (dv = dp / VEC vectors a
 * row). A call works on a list of rows of x: rows[i] is a row index, and
 * for prototype_sums slots[i] says which prototype (a class, or a class of
 * an episode) row i counts for. Prototypes are n_slots × dp, zero padded.
 *
 * prototype_sums: work-item g adds the rows list[g·per, (g+1)·per) into its
 * own slice of partial (items × n_slots × dp). The host adds the slices in
 * double and divides by the counts it knows from the labels, so the float
 * sums on the device run over `per` rows only and the means stay within a
 * few float roundings of the reference path's.
 *
 * prototype_scores: work-item g scores ROWS rows against every prototype,
 * so each prototype vector read serves ROWS rows. The score is higher for
 * a nearer prototype: −Σ(x − p)² (the differences themselves, so nothing
 * cancels), with COSINE x·p / (|x| |p|) (0 when a norm is 0), with DOT
 * x·p (matching networks' other similarity). Scores are
 * n × n_slots, row-major. The host picks the best and decides close calls
 * again in double, which is why the scores need not be exact.
 *
 * Subnormals are flushed to zero (-cl-denorms-are-zero, as every
 * program): sums and scores of values below 1.2e-38 change no class mean
 * or comparison of normal scores.
 */

#ifndef VEC
#define VEC 16
#endif

/* Rows per work-item of prototype_scores. */
#ifndef ROWS
#define ROWS 4
#endif

#ifndef DOT
#define DOT 0
#endif

#ifndef COSINE
#define COSINE 0
#endif

#if VEC == 16
typedef float16 vec_t;
#elif VEC == 8
typedef float8 vec_t;
#else
typedef float4 vec_t;
#endif

static inline float
hsum (vec_t v)
{
#if VEC == 16
  float8 a = v.lo + v.hi;
  float4 b = a.lo + a.hi;
#elif VEC == 8
  float4 b = v.lo + v.hi;
#else
  float4 b = v;
#endif
  float2 c = b.lo + b.hi;
  return c.x + c.y;
}

__kernel void
prototype_sums (__global const vec_t *LATENT_RESTRICT x,
                const uint dv,
                __global const int *LATENT_RESTRICT rows,
                __global const int *LATENT_RESTRICT slots,
                const uint n,
                const uint per,
                const uint n_slots,
                __global vec_t *LATENT_RESTRICT partial)
{
  const uint g = get_global_id (0);
  const uint first = g * per, last = min (n, first + per);
  __global vec_t *mine = partial + (size_t) g * n_slots * dv;

  for (uint j = 0; j < n_slots * dv; j++)
    mine[j] = (vec_t) 0.0f;
  for (uint i = first; i < last; i++)
    {
      __global const vec_t *row = x + (size_t) rows[i] * dv;
      __global vec_t *sum = mine + (size_t) slots[i] * dv;

      for (uint j = 0; j < dv; j++)
        sum[j] += row[j];
    }
}

__kernel void
prototype_scores (__global const vec_t *LATENT_RESTRICT x,
                  const uint dv,
                  __global const int *LATENT_RESTRICT rows,
                  const uint n,
                  __global const vec_t *LATENT_RESTRICT protos,
                  __global const float *LATENT_RESTRICT proto_norms,
                  const uint n_slots,
                  __global float *LATENT_RESTRICT scores)
{
  const uint first = get_global_id (0) * ROWS;
  __global const vec_t *row[ROWS];
#if COSINE
  float norm[ROWS];
#endif

  if (first >= n)
    return;
  /* A short last block repeats its last row rather than branching in the
   * inner loop; only the real rows are written. */
  for (uint k = 0; k < ROWS; k++)
    row[k] = x + (size_t) rows[min (first + k, n - 1)] * dv;
#if COSINE
  for (uint k = 0; k < ROWS; k++)
    {
      vec_t acc = (vec_t) 0.0f;

      for (uint j = 0; j < dv; j++)
        acc += row[k][j] * row[k][j];
      norm[k] = sqrt (hsum (acc));
    }
#endif
  for (uint c = 0; c < n_slots; c++)
    {
      __global const vec_t *p = protos + (size_t) c * dv;
      vec_t acc[ROWS];

      for (uint k = 0; k < ROWS; k++)
        acc[k] = (vec_t) 0.0f;
      for (uint j = 0; j < dv; j++)
        {
          const vec_t pj = p[j];

          for (uint k = 0; k < ROWS; k++)
            {
#if COSINE || DOT
              acc[k] += row[k][j] * pj;
#else
              const vec_t u = row[k][j] - pj;
              acc[k] += u * u;
#endif
            }
        }
      for (uint k = 0; k < ROWS && first + k < n; k++)
        {
#if COSINE
          const float den = norm[k] * proto_norms[c];
          scores[(size_t) (first + k) * n_slots + c] = den > 0.0f ? hsum (acc[k]) / den : 0.0f;
#elif DOT
          scores[(size_t) (first + k) * n_slots + c] = hsum (acc[k]);
#else
          scores[(size_t) (first + k) * n_slots + c] = -hsum (acc[k]);
#endif
        }
    }
}
