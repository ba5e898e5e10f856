/* gmm.cl — the two passes of Gaussian-mixture EM over the rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * gmm_expect: for every row and component the log-density through the
 * Cholesky factor (forward substitution, never an inverse), log-sum-exp over
 * the components, the responsibilities r_ik; per work-item Σ_i r_ik,
 * Σ_i r_ik x_i and Σ_i log p(x_i).
 * gmm_scatter: Σ_i r_ik (x_i − μ_k)(x_i − μ_k)ᵀ about the given means, the
 * lower triangle packed row by row (only the diagonal for diagonal and
 * spherical models), from the responsibilities gmm_expect left on the device.
 *
 * Layout: rows travel in blocks of LANES. x is nb × d vec_t: block b holds
 * rows b·LANES … b·LANES + LANES − 1 feature by feature, so one vec_t is one
 * feature of LANES rows and every operation works on LANES rows at once (the
 * SIMD lanes of a CPU device, from a single work-item). Rows past n are zero
 * and get responsibility 0, so they drop out of every sum. resp is
 * nb × k vec_t, the same way. Work-item g owns blocks [g·bpi, (g+1)·bpi)
 * and the slices g of the partial outputs, which the host adds up in double.
 *
 * Parameters, as floats: means k × d; factor, for FULL k × d × d with the
 * strict lower triangle of L and 1 / L_ii on the diagonal, else k × d holding
 * 1 / L_ii; offset k: log w_k − ½ (d log 2π + log |Σ_k|).
 *
 * Options: LANES (1, 4, 8 or 16), COVARIANCE (0 full, 1 diagonal,
 * 2 spherical), DIMS (d known when building, so loops unroll and per-row
 * work lives in private arrays; without it d is a kernel argument and the
 * per-row arrays live in the scratch buffer, items × 2d vec_t), TILE (how
 * many sums a work-item keeps at once), UNROLL_MAX (the largest DIMS whose
 * loops unroll fully), NO_FP64 (float sums even where double exists, to
 * test the path of devices without cl_khr_fp64).
 */

#ifndef LANES
#define LANES 16
#endif
#ifndef COVARIANCE
#define COVARIANCE 0
#endif
#ifndef TILE
#define TILE 256
#endif

#define FULL 0
#define DIAGONAL 1
#define SPHERICAL 2

#if LANES == 16
typedef float16 vec_t;
typedef int16 ivec_t;
#define LANE_IDS ((int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#define ANY(cond) any (cond)
#elif LANES == 8
typedef float8 vec_t;
typedef int8 ivec_t;
#define LANE_IDS ((int8) (0, 1, 2, 3, 4, 5, 6, 7))
#define ANY(cond) any (cond)
#elif LANES == 4
typedef float4 vec_t;
typedef int4 ivec_t;
#define LANE_IDS ((int4) (0, 1, 2, 3))
#define ANY(cond) any (cond)
#elif LANES == 1
typedef float vec_t;
typedef int ivec_t;
#define LANE_IDS 0
/* A scalar comparison gives 1, not −1: any() would not see it. */
#define ANY(cond) (cond)
#else
#error "LANES must be 1, 4, 8 or 16"
#endif

/* The log-likelihood adds up a value per row: in double where the device
 * has it, else in float with Kahan's compensation. */
#if defined (cl_khr_fp64) && !defined (NO_FP64)
#define USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#if LANES == 16
typedef double16 dvec_t;
#define convert_dvec convert_double16
#define convert_vec convert_float16
#elif LANES == 8
typedef double8 dvec_t;
#define convert_dvec convert_double8
#define convert_vec convert_float8
#elif LANES == 4
typedef double4 dvec_t;
#define convert_dvec convert_double4
#define convert_vec convert_float4
#else
typedef double dvec_t;
#define convert_dvec convert_double
#define convert_vec convert_float
#endif
#endif

#ifdef DIMS
#define D DIMS
/* Per-row work fits private memory: registers, or the stack's cache lines. */
#define ROWSPACE __private
#define FTILE (DIMS < TILE ? DIMS : TILE)
#else
#define D d
#define ROWSPACE __global
#define FTILE TILE
#endif

/* Loops over a row's features unroll when d is known and small enough for
 * the code to stay in the instruction cache. */
#ifndef UNROLL_MAX
#define UNROLL_MAX 64
#endif
#if defined (DIMS) && DIMS <= UNROLL_MAX
#define UNROLL_ROWS _Pragma ("unroll")
#else
#define UNROLL_ROWS
#endif

static inline float
hsum (const vec_t v)
{
#if LANES == 1
  return v;
#else
#if LANES == 16
  const float8 a = v.lo + v.hi;
  const float4 b = a.lo + a.hi;
#elif LANES == 8
  const float4 b = v.lo + v.hi;
#else
  const float4 b = v;
#endif
  const float2 c = b.lo + b.hi;
  return c.x + c.y;
#endif
}

/* |L⁻¹ (x − μ)|² for LANES rows: the squared Mahalanobis distance. */
static inline vec_t
mahalanobis (__global const vec_t *restrict xb,
             __global const float *restrict mu,
             __global const float *restrict f,
             ROWSPACE vec_t *restrict z,
             const uint d)
{
  vec_t q = 0.0f;

#if COVARIANCE == FULL
  /* Solve L z = x − μ row by row; f holds 1 / L_ii on its diagonal. Fully
   * unrolled, z stays in registers and the rows' chains of FMAs overlap. */
  UNROLL_ROWS
  for (uint i = 0; i < D; i++)
    {
      __global const float *li = f + (size_t) i * D;
      vec_t v = xb[i] - (vec_t) (mu[i]);

      UNROLL_ROWS
      for (uint j = 0; j < i; j++)
        v = fma ((vec_t) (-li[j]), z[j], v);
      v *= (vec_t) (li[i]);
      z[i] = v;
      q = fma (v, v, q);
    }
#elif COVARIANCE == DIAGONAL
  for (uint i = 0; i < D; i++)
    {
      const vec_t t = (xb[i] - (vec_t) (mu[i])) * (vec_t) (f[i]);
      q = fma (t, t, q);
    }
#else
  /* One variance: scale once at the end. */
  for (uint i = 0; i < D; i++)
    {
      const vec_t t = xb[i] - (vec_t) (mu[i]);
      q = fma (t, t, q);
    }
  q *= (vec_t) (f[0] * f[0]);
#endif
  return q;
}

/* Σ r x and Σ r for each component over blocks [b0, b1), a tile of
 * features at a time so the sums stay in private memory. Blocks where the
 * component has no weight at all are skipped: far components cost nothing. */
static inline void
weighted_sums (__global const vec_t *restrict x,
               __global const vec_t *restrict resp,
               __global float       *restrict part_nk,
               __global float       *restrict part_sx,
               const uint item,
               const uint b0,
               const uint b1,
               const uint d,
               const uint k)
{
  for (uint c = 0; c < k; c++)
    for (uint f0 = 0; f0 < D; f0 += FTILE)
      {
        const uint len = min ((uint) FTILE, D - f0);
        vec_t acc[FTILE];
        vec_t nk = 0.0f;

        for (uint t = 0; t < len; t++)
          acc[t] = 0.0f;
        for (uint b = b0; b < b1; b++)
          {
            const vec_t r = resp[(size_t) b * k + c];
            __global const vec_t *xb = x + (size_t) b * D + f0;

            if (!ANY (r != 0.0f))
              continue;
            nk += r;
            UNROLL_ROWS
            for (uint t = 0; t < len; t++)
              acc[t] = fma (r, xb[t], acc[t]);
          }
        for (uint t = 0; t < len; t++)
          part_sx[((size_t) item * k + c) * D + f0 + t] = hsum (acc[t]);
        if (f0 == 0)
          part_nk[(size_t) item * k + c] = hsum (nk);
      }
}

/* part_nk: items × k, part_sx: items × k × d, part_ll: items × 2 vec_t
 * (per lane the log-likelihood as a float pair hi + lo). */
__kernel void
gmm_expect (__global const vec_t *restrict x,
            __global const float *restrict means,
            __global const float *restrict factor,
            __global const float *restrict offset,
            __global vec_t       *restrict resp,
            __global float       *restrict part_nk,
            __global float       *restrict part_sx,
            __global vec_t       *restrict part_ll,
            __global vec_t       *restrict scratch,
            const uint n,
            const uint nb,
            const uint d,
            const uint k,
            const uint bpi)
{
  const uint item = get_global_id (0);
  const uint b0 = min (nb, item * bpi);
  const uint b1 = min (nb, b0 + bpi);
#ifdef DIMS
  vec_t z[DIMS];
#else
  __global vec_t *z = scratch + (size_t) item * d;
#endif
#ifdef USE_FP64
  dvec_t ll = 0.0;
#else
  vec_t ll = 0.0f, ll_carry = 0.0f;
#endif

  for (uint b = b0; b < b1; b++)
    {
      __global const vec_t *xb = x + (size_t) b * D;
      __global vec_t *rb = resp + (size_t) b * k;
      const ivec_t valid = LANE_IDS + (int) (b * LANES) < (int) n;
      /* −FLT_MAX, not −∞: a row whose every density underflows gives
       * responsibilities 0, never ∞ − ∞. */
      vec_t top = -FLT_MAX, sum = 0.0f, lse, scale;

      for (uint c = 0; c < k; c++)
        {
          const vec_t q = mahalanobis (xb, means + (size_t) c * D,
#if COVARIANCE == FULL
                                       factor + (size_t) c * D * D,
#else
                                       factor + (size_t) c * D,
#endif
                                       z, d);
          const vec_t lp = fma ((vec_t) (-0.5f), q, (vec_t) (offset[c]));

          rb[c] = lp;
          top = fmax (top, lp);
        }
      for (uint c = 0; c < k; c++)
        {
          const vec_t e = exp (rb[c] - top);

          rb[c] = e;
          sum += e;
        }
      sum = fmax (sum, FLT_MIN);
      scale = 1.0f / sum;
      lse = top + log (sum);
      for (uint c = 0; c < k; c++)
        rb[c] = select ((vec_t) (0.0f), rb[c] * scale, valid);

      lse = select ((vec_t) (0.0f), lse, valid);
#ifdef USE_FP64
      ll += convert_dvec (lse);
#else
      {
        const vec_t y = lse - ll_carry;
        const vec_t t = ll + y;

        ll_carry = (t - ll) - y;
        ll = t;
      }
#endif
    }

#ifdef USE_FP64
  {
    const vec_t hi = convert_vec (ll);

    part_ll[2 * item] = hi;
    part_ll[2 * item + 1] = convert_vec (ll - convert_dvec (hi));
  }
#else
  part_ll[2 * item] = ll;
  part_ll[2 * item + 1] = -ll_carry;
#endif

  /* The item's rows and responsibilities are still in its cache. */
  weighted_sums (x, resp, part_nk, part_sx, item, b0, b1, d, k);
}

/* Whole triangle in one tile, with d known: loops with constant bounds. */
#if COVARIANCE == FULL && defined (DIMS) && DIMS * (DIMS + 1) / 2 <= TILE
#define SINGLE_TILE
#endif

/* part: items × k × pairs, pairs = d (d + 1) / 2 for FULL, else d. Two
 * blocks per update, so each private sum is loaded and stored once for two
 * FMAs. */
__kernel void
gmm_scatter (__global const vec_t *restrict x,
             __global const vec_t *restrict resp,
             __global const float *restrict means,
             __global float       *restrict part,
             __global vec_t       *restrict scratch,
             const uint nb,
             const uint d,
             const uint k,
             const uint bpi)
{
  const uint item = get_global_id (0);
  const uint b0 = min (nb, item * bpi);
  const uint b1 = min (nb, b0 + bpi);
#if COVARIANCE == FULL
  const uint pairs = D * (D + 1) / 2;
#ifdef DIMS
  vec_t diff0[DIMS], diff1[DIMS];
#else
  __global vec_t *diff0 = scratch + (size_t) item * 2 * d;
  __global vec_t *diff1 = diff0 + d;
#endif
#else
  const uint pairs = D;
#endif

  for (uint c = 0; c < k; c++)
    {
      __global const float *mu = means + (size_t) c * D;

      /* A tile of the packed triangle at a time: its sums stay private. */
      for (uint p0 = 0; p0 < pairs; p0 += TILE)
        {
          const uint len = min ((uint) TILE, pairs - p0);
          vec_t acc[TILE];
#if COVARIANCE == FULL && !defined (SINGLE_TILE)
          /* The tile starts at (a0, s0) and ends in row a1. */
          uint a0 = 0, a1;

          while ((a0 + 1) * (a0 + 2) / 2 <= p0)
            a0++;
          a1 = a0;
          while ((a1 + 1) * (a1 + 2) / 2 < p0 + len)
            a1++;
          const uint s0 = p0 - a0 * (a0 + 1) / 2;
#endif

          for (uint t = 0; t < len; t++)
            acc[t] = 0.0f;
          for (uint b = b0; b < b1; b += 2)
            {
              /* An odd last block pairs with itself, at weight 0. */
              const vec_t r0 = resp[(size_t) b * k + c];
              const vec_t r1 = b + 1 < b1 ? resp[(size_t) (b + 1) * k + c] : 0.0f;
              __global const vec_t *x0 = x + (size_t) b * D;
              __global const vec_t *x1 = x + (size_t) min (b + 1, b1 - 1) * D;

              if (!ANY ((r0 != 0.0f) | (r1 != 0.0f)))
                continue;
#if defined (SINGLE_TILE)
              for (uint f = 0; f < DIMS; f++)
                {
                  diff0[f] = x0[f] - (vec_t) (mu[f]);
                  diff1[f] = x1[f] - (vec_t) (mu[f]);
                }
#pragma unroll
              for (uint a = 0, t = 0; a < DIMS; a++)
                {
                  const vec_t ra0 = r0 * diff0[a];
                  const vec_t ra1 = r1 * diff1[a];

#pragma unroll
                  for (uint j = 0; j <= a; j++, t++)
                    acc[t] = fma (ra1, diff1[j], fma (ra0, diff0[j], acc[t]));
                }
#elif COVARIANCE == FULL
              for (uint f = 0; f <= a1; f++)
                {
                  diff0[f] = x0[f] - (vec_t) (mu[f]);
                  diff1[f] = x1[f] - (vec_t) (mu[f]);
                }
              {
                uint t = 0, s = s0;

                for (uint a = a0; a <= a1; a++)
                  {
                    const vec_t ra0 = r0 * diff0[a];
                    const vec_t ra1 = r1 * diff1[a];
                    const uint end = min (a + 1, s + len - t);

                    for (uint j = s; j < end; j++, t++)
                      acc[t] = fma (ra1, diff1[j], fma (ra0, diff0[j], acc[t]));
                    s = 0;
                  }
              }
#else
              for (uint t = 0; t < len; t++)
                {
                  const vec_t u0 = x0[p0 + t] - (vec_t) (mu[p0 + t]);
                  const vec_t u1 = x1[p0 + t] - (vec_t) (mu[p0 + t]);

                  acc[t] = fma (r1 * u1, u1, fma (r0 * u0, u0, acc[t]));
                }
#endif
            }
          for (uint t = 0; t < len; t++)
            part[((size_t) item * k + c) * pairs + p0 + t] = hsum (acc[t]);
        }
    }
}
