/* kmeans.cl — the k-means assignment pass and the per-cluster sums
 *
 * kmeans_assign: each work-item owns a contiguous slice of rows. For every
 * block of ROWS rows it computes the squared distance to all centers as
 * |x|² + |c|² − 2 x·c, with the dot products held in ROWS × COLS vector
 * accumulators (explicit VEC-wide float vectors, so a CPU device such as
 * PoCL fills its SIMD lanes from one work-item), keeps the nearest center,
 * and — in the same pass, while the rows are still in cache — adds the rows
 * to the work-item's private per-cluster sums. kmeans_reduce then adds up the
 * work-items' sums, so each iteration reads the data exactly once.
 *
 * Layout: x is n × dp floats, row-major, dp a multiple of VEC with zero
 * padding, so every row starts on a vector boundary and is read as vec_t
 * (buffers are aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN); dv = dp / VEC.
 * centers is kp × dp with kp a multiple of 4 (padding rows are zero and never
 * chosen). partial_sums is items × k × dp, partial_counts items × k,
 * partial_inertia one float per work-item.
 */

#ifndef VEC
#define VEC 16
#endif

#if VEC == 16
typedef float16 vec_t;
#elif VEC == 8
typedef float8 vec_t;
#else
typedef float4 vec_t;
#endif

/* The block is 4 rows × 4 centers: 16 vector accumulators plus 8 operands
 * fit the 32 registers of AVX-512 without spilling. */

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

#define NEAREST(r, q)                                                     \
  do {                                                                    \
    float dd = xn##r + cn##q - 2.0f * hsum (acc##r##q);                   \
    if (c + q < k && dd < best##r) { best##r = dd; label##r = c + q; }    \
  } while (0)

__kernel void
kmeans_assign (__global const vec_t *restrict x,
               __global const float *restrict xnorm,
               __global const vec_t *restrict centers,
               __global const float *restrict cnorm,
               __global int         *restrict labels,
               __global float       *restrict dist,
               __global vec_t       *restrict partial_sums,
               __global int         *restrict partial_counts,
               __global float       *restrict partial_inertia,
               const uint n,
               const uint k,
               const uint dv,
               const uint rows_per_item,
               const int accumulate)
{
  const uint item = get_global_id (0);
  const uint begin = min (n, item * rows_per_item);
  const uint end = min (n, begin + rows_per_item);
  __global vec_t *sums = partial_sums + (size_t) item * k * dv;
  __global int *counts = partial_counts + (size_t) item * k;
  float inertia = 0.0f;

  if (accumulate)
    {
      for (uint i = 0; i < k * dv; i++)
        sums[i] = 0.0f;
      for (uint c = 0; c < k; c++)
        counts[c] = 0;
    }

  for (uint i = begin; i < end; i += 4)
    {
      /* Rows past the end repeat the last row; their results are dropped. */
      const uint r0 = i, r1 = min (i + 1, end - 1), r2 = min (i + 2, end - 1), r3 = min (i + 3, end - 1);
      __global const vec_t *x0 = x + (size_t) r0 * dv;
      __global const vec_t *x1 = x + (size_t) r1 * dv;
      __global const vec_t *x2 = x + (size_t) r2 * dv;
      __global const vec_t *x3 = x + (size_t) r3 * dv;
      const float xn0 = xnorm[r0], xn1 = xnorm[r1], xn2 = xnorm[r2], xn3 = xnorm[r3];
      float best0 = INFINITY, best1 = INFINITY, best2 = INFINITY, best3 = INFINITY;
      int label0 = 0, label1 = 0, label2 = 0, label3 = 0;

      for (uint c = 0; c < k; c += 4)
        {
          __global const vec_t *c0 = centers + (size_t) c * dv;
          __global const vec_t *c1 = c0 + dv;
          __global const vec_t *c2 = c1 + dv;
          __global const vec_t *c3 = c2 + dv;
          vec_t acc00 = 0.0f, acc01 = 0.0f, acc02 = 0.0f, acc03 = 0.0f;
          vec_t acc10 = 0.0f, acc11 = 0.0f, acc12 = 0.0f, acc13 = 0.0f;
          vec_t acc20 = 0.0f, acc21 = 0.0f, acc22 = 0.0f, acc23 = 0.0f;
          vec_t acc30 = 0.0f, acc31 = 0.0f, acc32 = 0.0f, acc33 = 0.0f;

          for (uint j = 0; j < dv; j++)
            {
              const vec_t a0 = x0[j], a1 = x1[j], a2 = x2[j], a3 = x3[j];
              const vec_t b0 = c0[j], b1 = c1[j], b2 = c2[j], b3 = c3[j];

              acc00 = fma (a0, b0, acc00); acc01 = fma (a0, b1, acc01);
              acc02 = fma (a0, b2, acc02); acc03 = fma (a0, b3, acc03);
              acc10 = fma (a1, b0, acc10); acc11 = fma (a1, b1, acc11);
              acc12 = fma (a1, b2, acc12); acc13 = fma (a1, b3, acc13);
              acc20 = fma (a2, b0, acc20); acc21 = fma (a2, b1, acc21);
              acc22 = fma (a2, b2, acc22); acc23 = fma (a2, b3, acc23);
              acc30 = fma (a3, b0, acc30); acc31 = fma (a3, b1, acc31);
              acc32 = fma (a3, b2, acc32); acc33 = fma (a3, b3, acc33);
            }

          {
            const float cn0 = cnorm[c], cn1 = cnorm[c + 1], cn2 = cnorm[c + 2], cn3 = cnorm[c + 3];
            NEAREST (0, 0); NEAREST (0, 1); NEAREST (0, 2); NEAREST (0, 3);
            NEAREST (1, 0); NEAREST (1, 1); NEAREST (1, 2); NEAREST (1, 3);
            NEAREST (2, 0); NEAREST (2, 1); NEAREST (2, 2); NEAREST (2, 3);
            NEAREST (3, 0); NEAREST (3, 1); NEAREST (3, 2); NEAREST (3, 3);
          }
        }

      {
        const uint valid = min (4u, end - i);
        const int labs[4] = { label0, label1, label2, label3 };

        for (uint r = 0; r < valid; r++)
          {
            __global const vec_t *row = x + (size_t) (i + r) * dv;
            __global const vec_t *center = centers + (size_t) labs[r] * dv;
            vec_t diff2 = 0.0f;
            float exact;

            /* The expanded form picks the nearest center; the distance to it
             * is recomputed from differences, which do not cancel, so the
             * inertia keeps full float precision (cost: 1/k of the pass). */
            for (uint j = 0; j < dv; j++)
              {
                const vec_t u = row[j] - center[j];
                diff2 = fma (u, u, diff2);
              }
            exact = hsum (diff2);
            labels[i + r] = labs[r];
            dist[i + r] = exact;
            inertia += exact;
            if (accumulate)
              {
                __global vec_t *sum = sums + (size_t) labs[r] * dv;

                for (uint j = 0; j < dv; j++)
                  sum[j] += row[j];
                counts[labs[r]]++;
              }
          }
      }
    }

  partial_inertia[item] = inertia;
}

/* One work-item per vector of the k × dv sums. */
__kernel void
kmeans_reduce (__global const vec_t *restrict partial_sums,
               __global vec_t       *restrict sums,
               const uint items,
               const uint size)
{
  const uint at = get_global_id (0);
  vec_t total = 0.0f;

  if (at >= size)
    return;
  for (uint g = 0; g < items; g++)
    total += partial_sums[(size_t) g * size + at];
  sums[at] = total;
}
