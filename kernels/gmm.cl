/* gmm.cl — the two passes of Gaussian-mixture EM over the rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two shapes from this source: the CPU shape (below, a work-item walks
 * blocks of LANES rows with vectors, per-work-item sums the host adds up)
 * and the GPU shape (LATENT_GPU, at the end: a row per work-item, tile
 * products in local memory, sums reduced on the device).
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
 *
 * Subnormals are flushed to zero (-cl-denorms-are-zero, as every
 * program): a far component's responsibility exp (log r) below 1.2e-38
 * adds nothing to Σ r, Σ r x or the scatter that a float or double sum of
 * the near components' terms can hold; flushed, it costs no microcode
 * assists on Intel cores (10× slower before).
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
#if DIMS <= TILE
/* One tile takes the whole row: a constant length lets its loops unroll. */
#define TILE_LEN(f0) ((uint) FTILE)
#endif
#else
#define D d
#define ROWSPACE __global
#define FTILE TILE
#endif
#ifndef TILE_LEN
#define TILE_LEN(f0) min ((uint) FTILE, D - (f0))
#endif

/* Loops over a row's features unroll when d is known and small enough for
 * the code to stay in the instruction cache. */
#ifndef UNROLL_MAX
#ifdef LATENT_GPU
/* PoCL's LLVM 15 crashes building the GPU shape's full solve unrolled for
 * 32 or more columns (with the row group's barriers around it). */
#define UNROLL_MAX 31
#else
#define UNROLL_MAX 64
#endif
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

#ifndef LATENT_GPU

/* |L⁻¹ (x − μ)|² for LANES rows: the squared Mahalanobis distance. */
static inline vec_t
mahalanobis (__global const vec_t *LATENT_RESTRICT xb,
             __global const float *LATENT_RESTRICT mu,
             __global const float *LATENT_RESTRICT f,
             ROWSPACE vec_t *LATENT_RESTRICT z,
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
weighted_sums (__global const vec_t *LATENT_RESTRICT x,
               __global const vec_t *LATENT_RESTRICT resp,
               __global float       *LATENT_RESTRICT part_nk,
               __global float       *LATENT_RESTRICT part_sx,
               const uint item,
               const uint b0,
               const uint b1,
               const uint d,
               const uint k)
{
  for (uint c = 0; c < k; c++)
    for (uint f0 = 0; f0 < D; f0 += FTILE)
      {
        const uint len = TILE_LEN (f0);
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
gmm_expect (__global const vec_t *LATENT_RESTRICT x,
            __global const float *LATENT_RESTRICT means,
            __global const float *LATENT_RESTRICT factor,
            __global const float *LATENT_RESTRICT offset,
            __global vec_t       *LATENT_RESTRICT resp,
            __global float       *LATENT_RESTRICT part_nk,
            __global float       *LATENT_RESTRICT part_sx,
            __global vec_t       *LATENT_RESTRICT part_ll,
            __global vec_t       *LATENT_RESTRICT scratch,
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
gmm_scatter (__global const vec_t *LATENT_RESTRICT x,
             __global const vec_t *LATENT_RESTRICT resp,
             __global const float *LATENT_RESTRICT means,
             __global float       *LATENT_RESTRICT part,
             __global vec_t       *LATENT_RESTRICT scratch,
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

#endif /* !LATENT_GPU */

#ifdef LATENT_GPU

/* The GPU shape: a row per work-item, the sums as small products of tiles
 * in local memory, reduced across work-groups on the device.
 *
 * Layout: x is d × stride, feature by feature (stride = rows padded to a
 * multiple of EXPECT_WG and SUM_ROWS, the padding 0), so consecutive
 * work-items read consecutive addresses. resp is stride × k, row by row
 * (what the host wants), written through local memory in runs of
 * RESP_STAGE components; padding rows get 0 and drop out of every sum. lp
 * is k × stride scratch for the log-densities.
 *
 * gmm_expect_rows: per row the log-densities (the component's mean and
 * factor in local memory when DIMS is known), log-sum-exp, the
 * responsibilities; per work-group Σ log p(x_i) by a tree in local memory.
 * gmm_sums: per row chunk the k × (d + 1) sums Σ r_ik x_i and N_k = Σ r_ik
 * (column d), as R_tileᵀ X_tile products.
 * gmm_scatter_full (FULL only): per row chunk and component the d × d
 * sums Σ r (x − μ)(x − μ)ᵀ; tiles wholly above the diagonal are written as 0.
 * gmm_scatter_diag (DIAGONAL, SPHERICAL): per row chunk the k × d sums
 * Σ r (x_f − μ_kf)².
 * gmm_reduce: the chunks' partial sums added up, each as a float pair
 * hi + lo; gmm_reduce_tree: one work-group adds up a long vector the same
 * way (the work-groups' log-likelihoods).
 *
 * Tunables (GPU defaults): EXPECT_WG work-items per row group; RESP_STAGE
 * components staged per write of resp; SUM_ROWS rows per local tile;
 * SUM_TILE_P × SUM_TILE_Q outputs per work-group, SUM_BLOCK_P × SUM_BLOCK_Q
 * per work-item (work-group (SUM_TILE_Q / SUM_BLOCK_Q) × (SUM_TILE_P /
 * SUM_BLOCK_P)); REDUCE_WG work-items of gmm_reduce_tree (the host's
 * tunable CHUNK_ROWS sizes the sum kernels' chunks of rows); UNROLL_MAX (above) the largest DIMS whose solve unrolls.
 * NO_LOCAL_PARAMS reads each component's mean and factor from global
 * memory even where DIMS is known (they are in local memory otherwise).
 */

#ifndef EXPECT_WG
#define EXPECT_WG 128
#endif
#ifndef RESP_STAGE
#define RESP_STAGE 16
#endif
#ifndef SUM_ROWS
#define SUM_ROWS 32
#endif
#ifndef SUM_TILE_P
#define SUM_TILE_P 16
#endif
#ifndef SUM_TILE_Q
#define SUM_TILE_Q 16
#endif
#ifndef SUM_BLOCK_P
#define SUM_BLOCK_P 2
#endif
#ifndef SUM_BLOCK_Q
#define SUM_BLOCK_Q 2
#endif
#ifndef REDUCE_WG
#define REDUCE_WG 256
#endif

#define SUM_LP (SUM_TILE_P / SUM_BLOCK_P)
#define SUM_LQ (SUM_TILE_Q / SUM_BLOCK_Q)
#define SUM_WG (SUM_LP * SUM_LQ)
/* Padded rows of the local tiles: no two work-items of a store share a bank. */
#define SUM_AP (SUM_TILE_P + 1)
#define SUM_BQ (SUM_TILE_Q + 1)

#if SUM_TILE_P % SUM_BLOCK_P != 0 || SUM_TILE_Q % SUM_BLOCK_Q != 0
#error "SUM_TILE_P and SUM_TILE_Q must be multiples of SUM_BLOCK_P and SUM_BLOCK_Q"
#endif

#ifdef USE_FP64
typedef double real_t;
#else
typedef float real_t;
#endif

/* The parameters of one component in local memory: the mean, then the
 * factor (FULL: d × d, else d). */
#if defined (DIMS) && !defined (NO_LOCAL_PARAMS)
#define LOCAL_PARAMS
#if COVARIANCE == FULL
#define PARAM_FLOATS (DIMS + DIMS * DIMS)
#else
#define PARAM_FLOATS (2 * DIMS)
#endif
#endif

/* |L⁻¹ (x_i − μ)|² for row i; mu and f point at the component's mean and
 * factor (local or global), z at per-row space (private, or a column of
 * the scratch buffer). */
#ifdef LOCAL_PARAMS
#define PARAM_SPACE __local
#else
#define PARAM_SPACE __global
#endif

#ifdef DIMS
/* The row, loaded once for all components. */
#define XR(a) xr[a]
#else
#define XR(a) x[(size_t) (a) * stride + i]
#endif

static inline float
mahalanobis_row (
#ifdef DIMS
                 const float *xr,
#else
                 __global const float *LATENT_RESTRICT x,
#endif
                 PARAM_SPACE const float *mu,
                 PARAM_SPACE const float *f,
#ifdef DIMS
                 float *z,
#else
                 __global float *z,
#endif
                 const uint i,
                 const uint stride,
                 const uint d)
{
  float q = 0.0f;

#if COVARIANCE == FULL
  UNROLL_ROWS
  for (uint a = 0; a < D; a++)
    {
      PARAM_SPACE const float *la = f + (size_t) a * D;
      float v = XR (a) - mu[a];

      UNROLL_ROWS
      for (uint b = 0; b < a; b++)
#ifdef DIMS
        v = fma (-la[b], z[b], v);
#else
        v = fma (-la[b], z[(size_t) b * stride + i], v);
#endif
      v *= la[a];
#ifdef DIMS
      z[a] = v;
#else
      z[(size_t) a * stride + i] = v;
#endif
      q = fma (v, v, q);
    }
#elif COVARIANCE == DIAGONAL
  UNROLL_ROWS
  for (uint a = 0; a < D; a++)
    {
      const float t = (XR (a) - mu[a]) * f[a];
      q = fma (t, t, q);
    }
#else
  UNROLL_ROWS
  for (uint a = 0; a < D; a++)
    {
      const float t = XR (a) - mu[a];
      q = fma (t, t, q);
    }
  q *= f[0] * f[0];
#endif
  return q;
}

/* Global size: stride (a multiple of EXPECT_WG). part_ll: one value per
 * work-group. */
__kernel __attribute__ ((reqd_work_group_size (EXPECT_WG, 1, 1))) void
gmm_expect_rows (__global const float *LATENT_RESTRICT x,
                 __global const float *LATENT_RESTRICT means,
                 __global const float *LATENT_RESTRICT factor,
                 __global const float *LATENT_RESTRICT offset,
                 __global float       *LATENT_RESTRICT lp,
                 __global float       *LATENT_RESTRICT resp,
                 __global float       *LATENT_RESTRICT part_ll,
                 __global float       *LATENT_RESTRICT scratch,
                 const uint n,
                 const uint stride,
                 const uint d,
                 const uint k)
{
  const uint i = get_global_id (0), lid = get_local_id (0);
  const uint row0 = get_group_id (0) * EXPECT_WG;
  const bool valid = i < n;
  __local float red[EXPECT_WG];
  __local float stage[EXPECT_WG * (RESP_STAGE + 1)];
#ifdef LOCAL_PARAMS
  __local float params[PARAM_FLOATS];
#endif
#ifdef DIMS
  float z[DIMS], xr[DIMS];

  for (uint a = 0; a < DIMS; a++)
    xr[a] = x[(size_t) a * stride + i];
#else
  __global float *z = scratch;
#endif
  /* Log-sum-exp online: top is the largest log-density so far, sum the
   * sum of exp (lp − top). −FLT_MAX, not −∞: a row whose every density
   * underflows gets responsibilities 0, never ∞ − ∞. */
  float top = -FLT_MAX, sum = 0.0f, scale, lse;

  for (uint c = 0; c < k; c++)
    {
      float q, l;
#ifdef LOCAL_PARAMS
      /* The component's mean and factor, loaded by the whole group. */
      barrier (CLK_LOCAL_MEM_FENCE);
      for (uint e = lid; e < PARAM_FLOATS; e += EXPECT_WG)
        params[e] = e < DIMS ? means[(size_t) c * DIMS + e]
#if COVARIANCE == FULL
                             : factor[(size_t) c * DIMS * DIMS + e - DIMS];
#else
                             : factor[(size_t) c * DIMS + e - DIMS];
#endif
      barrier (CLK_LOCAL_MEM_FENCE);
      q = mahalanobis_row (xr, params, params + DIMS, z, i, stride, d);
#else
#ifdef DIMS
      q = mahalanobis_row (xr, means + (size_t) c * d,
#else
      q = mahalanobis_row (x, means + (size_t) c * d,
#endif
#if COVARIANCE == FULL
                           factor + (size_t) c * d * d,
#else
                           factor + (size_t) c * d,
#endif
                           z, i, stride, d);
#endif
      l = fma (-0.5f, q, offset[c]);
      lp[(size_t) c * stride + i] = l;
      if (l > top)
        {
          sum = fma (sum, exp (top - l), 1.0f);
          top = l;
        }
      else
        sum += exp (l - top);
    }
  sum = fmax (sum, FLT_MIN);
  scale = 1.0f / sum;
  lse = valid ? top + log (sum) : 0.0f;

  /* The responsibilities, RESP_STAGE components at a time through local
   * memory, so the group writes whole runs of resp. */
  for (uint c0 = 0; c0 < k; c0 += RESP_STAGE)
    {
      const uint cols = min ((uint) RESP_STAGE, k - c0);

      for (uint j = 0; j < cols; j++)
        stage[lid * (RESP_STAGE + 1) + j] =
          valid ? exp (lp[(size_t) (c0 + j) * stride + i] - top) * scale : 0.0f;
      barrier (CLK_LOCAL_MEM_FENCE);
      for (uint e = lid; e < EXPECT_WG * cols; e += EXPECT_WG)
        {
          const uint r = e / cols, j = e % cols;

          resp[(size_t) (row0 + r) * k + c0 + j] = stage[r * (RESP_STAGE + 1) + j];
        }
      barrier (CLK_LOCAL_MEM_FENCE);
    }

  /* Σ log p(x_i) over the group: a tree. */
  red[lid] = lse;
  for (uint step = EXPECT_WG / 2; step > 0; step /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      if (lid < step)
        red[lid] += red[lid + step];
    }
  if (lid == 0)
    part_ll[get_group_id (0)] = red[0];
}

/* The tile products shared by the sum kernels. MODE 0 (gmm_sums): outputs
 * (p, q) = (component, feature or d for N_k), A = resp, B = x and 1.
 * MODE 1 (gmm_scatter_full, component c): (p, q) = (feature, feature),
 * A = r_c (x − μ_c), B = x − μ_c. MODE 2 (gmm_scatter_diag): (p, q) =
 * (component, feature), Σ A (B − μ_pq)² with A = resp, B = x.
 * Work-item (lx, ly) owns outputs p0 + ly + u·SUM_LP, q0 + lx + v·SUM_LQ;
 * the group adds up rows [r0, r1) of one chunk, SUM_ROWS at a time. */
#define MODE_SUMS 0
#define MODE_FULL 1
#define MODE_DIAG 2

static inline void
tile_sums (__global const float *LATENT_RESTRICT x,
           __global const float *LATENT_RESTRICT resp,
           __global const float *LATENT_RESTRICT means,
           __global float       *LATENT_RESTRICT out,
           __local float *as,
           __local float *bs,
           __local float *rs,
           const uint stride,
           const uint d,
           const uint k,
           const uint c,
           const uint np,
           const uint nq,
           const uint r0,
           uint r1,
           const int mode)
{
  const uint lx = get_local_id (0), ly = get_local_id (1), lid = ly * SUM_LQ + lx;
  const uint p0 = get_group_id (1) * SUM_TILE_P, q0 = get_group_id (0) * SUM_TILE_Q;
  float acc[SUM_BLOCK_P][SUM_BLOCK_Q];
  float mu[SUM_BLOCK_P][SUM_BLOCK_Q];

  for (uint u = 0; u < SUM_BLOCK_P; u++)
    for (uint v = 0; v < SUM_BLOCK_Q; v++)
      {
        const uint p = p0 + ly + u * SUM_LP, q = q0 + lx + v * SUM_LQ;

        acc[u][v] = 0.0f;
        mu[u][v] = mode == MODE_DIAG && p < np && q < nq ? means[(size_t) p * d + q] : 0.0f;
      }

  /* Above the diagonal nothing is needed: zeros, for the reduction. */
  if (mode == MODE_FULL && p0 + SUM_TILE_P <= q0)
    r1 = r0;

  for (uint row0 = r0; row0 < r1; row0 += SUM_ROWS)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      if (mode == MODE_FULL)
        {
          for (uint e = lid; e < SUM_ROWS; e += SUM_WG)
            rs[e] = resp[(size_t) (row0 + e) * k + c];
          barrier (CLK_LOCAL_MEM_FENCE);
          /* Rows fastest: x is read along its runs. */
          for (uint e = lid; e < SUM_ROWS * SUM_TILE_P; e += SUM_WG)
            {
              const uint r = e % SUM_ROWS, pp = e / SUM_ROWS, p = p0 + pp;

              as[r * SUM_AP + pp] = p < np ? rs[r] * (x[(size_t) p * stride + row0 + r] - means[(size_t) c * d + p])
                                           : 0.0f;
            }
        }
      else
        /* Components fastest: resp is read along its rows. */
        for (uint e = lid; e < SUM_ROWS * SUM_TILE_P; e += SUM_WG)
          {
            const uint pp = e % SUM_TILE_P, r = e / SUM_TILE_P, p = p0 + pp;

            as[r * SUM_AP + pp] = p < np ? resp[(size_t) (row0 + r) * k + p] : 0.0f;
          }
      for (uint e = lid; e < SUM_ROWS * SUM_TILE_Q; e += SUM_WG)
        {
          const uint r = e % SUM_ROWS, qq = e / SUM_ROWS, q = q0 + qq;
          float b = 0.0f;

          if (q < d)
            b = x[(size_t) q * stride + row0 + r] - (mode == MODE_FULL ? means[(size_t) c * d + q] : 0.0f);
          else if (mode == MODE_SUMS && q == d)
            b = 1.0f;
          bs[r * SUM_BQ + qq] = b;
        }
      barrier (CLK_LOCAL_MEM_FENCE);

      for (uint r = 0; r < SUM_ROWS; r++)
        {
          float a[SUM_BLOCK_P], b[SUM_BLOCK_Q];

          for (uint u = 0; u < SUM_BLOCK_P; u++)
            a[u] = as[r * SUM_AP + ly + u * SUM_LP];
          for (uint v = 0; v < SUM_BLOCK_Q; v++)
            b[v] = bs[r * SUM_BQ + lx + v * SUM_LQ];
          for (uint u = 0; u < SUM_BLOCK_P; u++)
            for (uint v = 0; v < SUM_BLOCK_Q; v++)
              {
                if (mode == MODE_DIAG)
                  {
                    const float t = b[v] - mu[u][v];
                    acc[u][v] = fma (a[u] * t, t, acc[u][v]);
                  }
                else
                  acc[u][v] = fma (a[u], b[v], acc[u][v]);
              }
        }
    }

  for (uint u = 0; u < SUM_BLOCK_P; u++)
    for (uint v = 0; v < SUM_BLOCK_Q; v++)
      {
        const uint p = p0 + ly + u * SUM_LP, q = q0 + lx + v * SUM_LQ;

        if (p < np && q < nq)
          out[(size_t) p * nq + q] = acc[u][v];
      }
}

/* Rows [r0, r1) of chunk z: rows_per_chunk rows each, the last ones fewer. */
#define CHUNK_RANGE(z, r0, r1)                                   \
  const uint r0 = min (stride, (z) * rows_per_chunk);           \
  const uint r1 = min (stride, r0 + rows_per_chunk)

/* part: chunks × k × (d + 1). Global (SUM_LQ ⌈(d + 1) / SUM_TILE_Q⌉,
 * SUM_LP ⌈k / SUM_TILE_P⌉, chunks). */
__kernel __attribute__ ((reqd_work_group_size (SUM_LQ, SUM_LP, 1))) void
gmm_sums (__global const float *LATENT_RESTRICT x,
          __global const float *LATENT_RESTRICT resp,
          __global float       *LATENT_RESTRICT part,
          const uint stride,
          const uint d,
          const uint k,
          const uint rows_per_chunk)
{
  __local float as[SUM_ROWS * SUM_AP], bs[SUM_ROWS * SUM_BQ];
  const uint z = get_group_id (2);
  CHUNK_RANGE (z, r0, r1);

  tile_sums (x, resp, resp, part + (size_t) z * k * (d + 1), as, bs, as, stride, d, k, 0, k, d + 1,
             r0, r1, MODE_SUMS);
}

#if COVARIANCE == FULL
/* part: chunks × k × d × d (the lower triangle's tiles; the rest 0). Global
 * (SUM_LQ ⌈d / SUM_TILE_Q⌉, SUM_LP ⌈d / SUM_TILE_P⌉, chunks · k), the
 * third dimension chunk-major within a component. */
__kernel __attribute__ ((reqd_work_group_size (SUM_LQ, SUM_LP, 1))) void
gmm_scatter_full (__global const float *LATENT_RESTRICT x,
                  __global const float *LATENT_RESTRICT resp,
                  __global const float *LATENT_RESTRICT means,
                  __global float       *LATENT_RESTRICT part,
                  const uint stride,
                  const uint d,
                  const uint k,
                  const uint rows_per_chunk,
                  const uint chunks)
{
  __local float as[SUM_ROWS * SUM_AP], bs[SUM_ROWS * SUM_BQ], rs[SUM_ROWS];
  const uint z = get_group_id (2) % chunks, c = get_group_id (2) / chunks;
  CHUNK_RANGE (z, r0, r1);

  tile_sums (x, resp, means, part + ((size_t) z * k + c) * d * d, as, bs, rs, stride, d, k, c, d, d,
             r0, r1, MODE_FULL);
}

#else
/* part: chunks × k × d. Global (SUM_LQ ⌈d / SUM_TILE_Q⌉,
 * SUM_LP ⌈k / SUM_TILE_P⌉, chunks). */
__kernel __attribute__ ((reqd_work_group_size (SUM_LQ, SUM_LP, 1))) void
gmm_scatter_diag (__global const float *LATENT_RESTRICT x,
                  __global const float *LATENT_RESTRICT resp,
                  __global const float *LATENT_RESTRICT means,
                  __global float       *LATENT_RESTRICT part,
                  const uint stride,
                  const uint d,
                  const uint k,
                  const uint rows_per_chunk)
{
  __local float as[SUM_ROWS * SUM_AP], bs[SUM_ROWS * SUM_BQ];
  const uint z = get_group_id (2);
  CHUNK_RANGE (z, r0, r1);

  tile_sums (x, resp, means, part + (size_t) z * k * d, as, bs, as, stride, d, k, 0, k, d,
             r0, r1, MODE_DIAG);
}

#endif

/* out[2j], out[2j + 1]: Σ_z part[z · outs + j] as hi + lo, in double where
 * the device has it. Coalesced: work-item j reads column j of the parts. */
__kernel void
gmm_reduce (__global const float *LATENT_RESTRICT part,
            __global float       *LATENT_RESTRICT out,
            const uint outs,
            const uint parts)
{
  const uint j = get_global_id (0);
#ifdef USE_FP64
  double s = 0.0;
#else
  float s = 0.0f, carry = 0.0f;
#endif

  if (j >= outs)
    return;
  for (uint z = 0; z < parts; z++)
    {
#ifdef USE_FP64
      s += part[(size_t) z * outs + j];
#else
      const float y = part[(size_t) z * outs + j] - carry;
      const float t = s + y;

      carry = (t - s) - y;
      s = t;
#endif
    }
#ifdef USE_FP64
  out[2 * j] = (float) s;
  out[2 * j + 1] = (float) (s - (double) (float) s);
#else
  out[2 * j] = s;
  out[2 * j + 1] = -carry;
#endif
}

/* One work-group: out[0] + out[1] = Σ_j part[j], strided sums then a tree. */
__kernel __attribute__ ((reqd_work_group_size (REDUCE_WG, 1, 1))) void
gmm_reduce_tree (__global const float *LATENT_RESTRICT part,
                 __global float       *LATENT_RESTRICT out,
                 const uint parts)
{
  const uint lid = get_local_id (0);
  __local real_t red[REDUCE_WG];
  real_t s = 0;

  for (uint j = lid; j < parts; j += REDUCE_WG)
    s += part[j];
  red[lid] = s;
  for (uint step = REDUCE_WG / 2; step > 0; step /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      if (lid < step)
        red[lid] += red[lid + step];
    }
  if (lid == 0)
    {
      out[0] = (float) red[0];
      out[1] = (float) (red[0] - (real_t) (float) red[0]);
    }
}

#endif /* LATENT_GPU */
