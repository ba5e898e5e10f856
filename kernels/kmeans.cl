/* kmeans.cl — the k-means assignment pass: exact, and with bounds that skip
 * the rows whose cluster cannot change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * kmeans_assign is the full pass: every row against every center. For each
 * block of 4 rows the squared distances to the centers come from
 * |x|² + |c|² − 2 x·c, with the dot products in 4 × 4 vector accumulators
 * (explicit VEC-wide vectors, so a CPU device such as PoCL fills its SIMD
 * lanes from one work-item). The nearest center's distance is then
 * recomputed from differences, which do not cancel. While the rows are still
 * in cache, they are added to the work-item's own per-cluster sums, so the
 * pass reads the data once. It also leaves the bounds the next passes use.
 * kmeans_assign_lanes is the same pass, without bounds, for rows of at most
 * four columns (a pixel's colour, a point of the plane): 16 rows to a
 * float16, one per lane, as such rows cost less to assign afresh than
 * their bounds cost to keep.
 *
 * kmeans_elkan (Elkan, 2003) gives the same assignment without visiting most
 * rows: each row keeps an upper bound on the distance to its center and a
 * lower bound on the distance to every other (halves, rounded down). When
 * the centers move, the bounds move by at most as much; a center whose lower
 * bound, or half its distance from the row's center, exceeds the upper bound
 * cannot take the row. Bounds are tightened first from an 8-bit copy of the
 * rows (kmeans_quantize), whose error |x − x̃| is known per row, so most rows
 * cost a quarter of their bytes; only close calls read the floats. Only rows
 * that change cluster touch the per-cluster sums, which persist between
 * passes. kmeans_hamerly (Hamerly, 2010) keeps a single lower bound per row,
 * for when Elkan's n × k bounds do not fit.
 *
 * Layout: x is n × dp floats, row-major, dp a multiple of VEC with zero
 * padding, so every row starts on a vector boundary and is read as vec_t
 * (buffers are aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN); dv = dp / VEC.
 * centers is kp × dp with kp a multiple of 4 (padding rows are zero and never
 * chosen). Work-item g owns rows [g·rows_per_item, (g+1)·rows_per_item) and
 * the slices g of partial_sums (items × k × dp), partial_counts (items × k),
 * partial_sqnorm (items × k: Σ|x|² per cluster, for the inertia) and
 * partial_inertia (items). The copy: xq n × dp codes, xerr n float2
 * (|x − x̃|, |q|²), centers_q kp × dp floats and centers_i kp × dp int16
 * (the centers in the copy's units, and rounded), cinfo kp float2.
 *
 * The GPU shape (LATENT_GPU) replaces the full pass and the per-item sums:
 * kmeans_assign_tiles treats the pass as a product, a work-group per
 * TILE_ROWS rows with rows and centers staged in local memory, a
 * BLOCK_ROWS × BLOCK_CENTERS register block per work-item, then the
 * nearest center's distance recomputed from differences as above, one
 * partial_inertia per group; kmeans_nearest does the same from dot products
 * that the matrix product computed, for many centers. The sums are not
 * kept per work-item:
 * kmeans_sums adds the rows of each cluster from the labels (a group owns
 * SUM_COLUMNS columns of SUM_ROWS rows for SUM_CLUSTERS clusters, in local
 * memory, each work-item one column, so no two work-items touch the same
 * word) into chunks × k × dp partials, and kmeans_reduce_chunks sums the
 * chunks on the device. The bounded passes run one row per work-item in
 * groups of ROW_GROUP, only relabel rows, and reduce their visit counts per
 * group; the sums are then rebuilt from the labels. Without bounds,
 * kmeans_update moves the centers to their means on the device between
 * passes, and a step reads back only its figures: the groups' inertia,
 * the centers' moves and the counts, in one buffer.
 *
 * kmeans_seed, at the end, scores k-means++'s candidates for the next center;
 * kmeans_seed_copy does it from the 8-bit copy when that is the rows.
 *
 * Subnormals are flushed to zero (-cl-denorms-are-zero, as every
 * program): distances and their bounds compare clusters, and a squared
 * difference below 1.2e-38 changes no comparison of normal distances.
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

/* Rounding slack for the bounds, relative to the squared norms involved. */
#define SLACK 4e-7f

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

#if VEC == 16
typedef uchar16 qvec_t;
#define convert_vec convert_float16
#define encode convert_uchar16_sat_rte
#elif VEC == 8
typedef uchar8 qvec_t;
#define convert_vec convert_float8
#define encode convert_uchar8_sat_rte
#else
typedef uchar4 qvec_t;
#define convert_vec convert_float4
#define encode convert_uchar4_sat_rte
#endif

/* |x̃ − c| / step for the 8-bit copy x̃ of a row, in the copy's units: with
 * CENTER_Q = (c − lo) / step, x̃ − c = step · (q − CENTER_Q), so a value
 * costs a conversion, a subtraction and a fused multiply-add. A row of the
 * copy is a quarter of the memory traffic of the row itself. With
 * e = |x − x̃|, the triangle inequality gives
 * |x̃ − c| − e ≤ |x − c| ≤ |x̃ − c| + e. */
static inline float
copy_distance (__global const qvec_t *LATENT_RESTRICT row,
               __global const vec_t *LATENT_RESTRICT center_q,
               const uint dv)
{
  vec_t acc0 = 0.0f, acc1 = 0.0f;
  uint j = 0;

  /* Two accumulators: one chain of dependent FMAs would wait on latency. */
  for (; j + 1 < dv; j += 2)
    {
      const vec_t u0 = convert_vec (row[j]) - center_q[j];
      const vec_t u1 = convert_vec (row[j + 1]) - center_q[j + 1];
      acc0 = fma (u0, u0, acc0);
      acc1 = fma (u1, u1, acc1);
    }
  if (j < dv)
    {
      const vec_t u = convert_vec (row[j]) - center_q[j];
      acc0 = fma (u, u, acc0);
    }
  return sqrt (hsum (acc0 + acc1));
}

/* With AVX-512BW the copy's distance is taken in integers instead. The
 * host rounds each center to c̃ = rint (128 · CENTER_Q) in int16
 * (centers_i), and |q − c̃ / 128|² = |q|² − q·c̃ / 64 + |c̃ / 128|², with
 * q·c̃ from pmaddwd, which multiplies 32 pairs and adds them in twos: two
 * instructions for 32 values where the floats take eight. The center's
 * rounding, at most 1/256 of a step a value, is cinfo[c].y, added to the
 * triangle inequality; cinfo[c].x = |c̃ / 128|², xerr[i].y = |q|². The
 * float sums of the three terms are off by a few units in the last place
 * of |q|² + |c̃ / 128|², which INT_SLACK covers. */
#if VEC == 16 && defined(__AVX512BW__) && !defined(LATENT_GPU)
#define INTEGER_COPY 1
#endif
#define INT_SLACK 2e-6f

#ifdef INTEGER_COPY
typedef short latent_short32 __attribute__ ((ext_vector_type (32)));
typedef uchar latent_uchar32 __attribute__ ((ext_vector_type (32)));

/* q · c̃ of a row of the copy and a center in int16 (dv vectors of 16). */
static inline float
copy_dot (__global const qvec_t *LATENT_RESTRICT row,
          __global const short *LATENT_RESTRICT ci,
          const uint dv)
{
  __global const qvec_t *end = row + dv;
  int16 acc = 0;

  for (; row + 1 < end; row += 2, ci += 32)
    {
      const latent_uchar32 q8 = __builtin_shufflevector (row[0], row[1], 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                         13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
                                                         27, 28, 29, 30, 31);
      const short16 c0 = vload16 (0, ci), c1 = vload16 (1, ci);
      const latent_short32 c = __builtin_shufflevector (c0, c1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                                        15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                                                        30, 31);

      acc += __builtin_ia32_pmaddwd512 (__builtin_convertvector (q8, latent_short32), c);
    }
  if (row < end)
    acc.lo += __builtin_ia32_pmaddwd256 (convert_short16 (row[0]), vload16 (0, ci));
  /* Each lane is exact (at most 49 · 255 · 32767 for d = 784); their sum
   * may not fit an int. */
  return hsum (convert_float16 (acc));
}

/* (lower, upper) bounds on |x̃ − c| in the copy's units. */
static inline float2
copy_range (__global const qvec_t *LATENT_RESTRICT row,
            __global const short *LATENT_RESTRICT ci,
            const float qn,
            const float2 info,
            const uint dv)
{
  const float d2 = qn + info.x - copy_dot (row, ci, dv) * (1.0f / 64.0f);
  const float slack = INT_SLACK * (qn + info.x);

  return (float2) (sqrt (fmax (d2 - slack, 0.0f)) - info.y, sqrt (d2 + slack) + info.y);
}
#define COPY_RANGE(i, c) \
  copy_range (xq + (size_t) (i) * dv, centers_i + (size_t) (c) * dv * VEC, xerr[i].y, cinfo[c], dv)
#else
#define COPY_RANGE(i, c) \
  ((float2) copy_distance (xq + (size_t) (i) * dv, centers_q + (size_t) (c) * dv, dv))
#endif

/* (lower, upper) bounds on |x − c| from the copy's range and its error. */
static inline float2
copy_bounds (const float2 range,
             const float  step,
             const float  error)
{
  return (float2) (fmax (step * range.x - error, 0.0f) * (1.0f - SLACK), (step * range.y + error) * (1.0f + SLACK));
}
#define COPY_BOUNDS(i, c) copy_bounds (COPY_RANGE (i, c), copy_step, xerr[i].x)
#define UPPER_FROM_COPY(i, c) (COPY_BOUNDS (i, c).y)

/* On a CPU the bounded passes wait on memory, not arithmetic: the rows
 * whose copy they read are scattered, each a fresh miss. So the pass asks
 * for copies ahead, and the reads overlap the work on the rows in between:
 * Hamerly's, of the row PREFETCH_AHEAD rows ahead when the nearest-center
 * gap alone does not settle it (the cheap test); Elkan's, of the next
 * PREFETCH_AHEAD rows that its bounds leave open, as that gap settles
 * almost none of Fashion-MNIST's rows at k = 10 while the bounds settle
 * a sixth to seven eighths of them: fetching by the cheap test read 1.2
 * times the copies the pass used at step 2, 6.9 times at step 25. The
 * hint asks for the second-level cache: asked into the first, the 13
 * lines a row took the first level's few miss buffers and the pass
 * stalled on the prefetches themselves (about 10 % less time a step on
 * Zen 4, median of 20 runs).
 * The host defines PREFETCH_AHEAD for CPU devices only (Oclgrind cannot
 * run the builtin). */
#if !defined(LATENT_GPU) && defined(PREFETCH_AHEAD) && defined(__has_builtin)
#if __has_builtin(__builtin_prefetch)
#define HAVE_PREFETCH 1
#endif
#endif
/* How many open rows Elkan's CPU-shaped pass tests ahead: the same logic
 * runs without the fetches (Oclgrind), so the simulator checks it. */
#ifdef PREFETCH_AHEAD
#define LOOK_AHEAD PREFETCH_AHEAD
#else
#define LOOK_AHEAD 4
#endif

static inline void
prefetch_bytes (__global const void *p,
                const uint bytes)
{
#ifdef HAVE_PREFETCH
  for (uint b = 0; b < bytes; b += 64)
    __builtin_prefetch ((__global const uchar *) p + b, 0, 2);
#endif
}

static inline void
prefetch_copy (__global const qvec_t *LATENT_RESTRICT xq,
               __global const int *LATENT_RESTRICT labels,
               __global const float *LATENT_RESTRICT upper,
               __global const float *LATENT_RESTRICT move,
               __global const float *LATENT_RESTRICT half_gap,
               const uint row,
               const uint end,
               const uint dv)
{
#ifdef HAVE_PREFETCH
  const uint a = row + PREFETCH_AHEAD;

  if (a < end && (upper[a] + move[labels[a]]) * (1.0f + SLACK) > half_gap[labels[a]])
    prefetch_bytes (xq + (size_t) a * dv, dv * VEC);
#endif
}

/* Lane q of a vector comparison (−1 or 0) as bit q. */
static inline uint
lane_bits (const int16 m)
{
  const uint16 b = as_uint16 (m) & (uint16) (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192,
                                            16384, 32768);
  const uint8 c = b.lo | b.hi;
  const uint4 d = c.lo | c.hi;
  const uint2 e = d.lo | d.hi;
  return e.x | e.y;
}

static inline float
exact_distance2 (__global const vec_t *LATENT_RESTRICT row,
                 __global const vec_t *LATENT_RESTRICT center,
                 const uint dv)
{
  vec_t acc0 = 0.0f, acc1 = 0.0f;
  uint j = 0;

  for (; j + 1 < dv; j += 2)
    {
      const vec_t u0 = row[j] - center[j];
      const vec_t u1 = row[j + 1] - center[j + 1];
      acc0 = fma (u0, u0, acc0);
      acc1 = fma (u1, u1, acc1);
    }
  if (j < dv)
    {
      const vec_t u = row[j] - center[j];
      acc0 = fma (u, u, acc0);
    }
  return hsum (acc0 + acc1);
}

/* Row r against the block's 4 centers: d holds the squared distances. */
#define CONSIDER(r)                                                            \
  do {                                                                         \
    const float4 d = (float4) (xn##r) + cn                                     \
                     - 2.0f * (float4) (hsum (acc##r##0), hsum (acc##r##1),    \
                                        hsum (acc##r##2), hsum (acc##r##3));   \
    const float dd[4] = { d.s0, d.s1, d.s2, d.s3 };                            \
    for (uint q = 0; q < 4 && c + q < k; q++)                                  \
      {                                                                        \
        if (dd[q] < best[r]) { second[r] = best[r]; best[r] = dd[q]; label[r] = c + q; } \
        else if (dd[q] < second[r]) second[r] = dd[q];                         \
      }                                                                        \
    /* One vector conversion for the 4 bounds (padding lanes are ignored). */  \
    if (keep_lowers)                                                           \
      vstore_half4_rtn (sqrt (fmax (d - SLACK * ((float4) (xn##r) + cn), 0.0f)), 0, lw##r + c); \
  } while (0)

/* Nearest and second-nearest center (squared, expanded form) of 4 rows,
 * and with keep_lowers a lower bound on the distance to every center in
 * lw0…lw3 (one row of k floats each). The block is 4 rows × 4 centers:
 * 16 vector accumulators plus 8 operands fit the 32 registers of AVX-512. */
static inline void
nearest4 (__global const vec_t *LATENT_RESTRICT x0,
          __global const vec_t *LATENT_RESTRICT x1,
          __global const vec_t *LATENT_RESTRICT x2,
          __global const vec_t *LATENT_RESTRICT x3,
          const float xn0, const float xn1, const float xn2, const float xn3,
          __global const vec_t *LATENT_RESTRICT centers,
          __global const float *LATENT_RESTRICT cnorm,
          const uint k,
          const uint dv,
          const int keep_lowers,
          __global half *lw0,
          __global half *lw1,
          __global half *lw2,
          __global half *lw3,
          float *best,
          float *second,
          int *label)
{
  for (uint r = 0; r < 4; r++)
    {
      best[r] = INFINITY;
      second[r] = INFINITY;
      label[r] = 0;
    }

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
        const float4 cn = vload4 (0, cnorm + c);
        CONSIDER (0);
        CONSIDER (1);
        CONSIDER (2);
        CONSIDER (3);
      }
    }
}

static inline void
add_row (__global vec_t *LATENT_RESTRICT sum,
         __global const vec_t *LATENT_RESTRICT row,
         const uint dv)
{
  for (uint j = 0; j < dv; j++)
    sum[j] += row[j];
}

/* A row changes cluster: its label, and the work-item's sums, counts and
 * squared norms of both clusters. */
#ifdef LATENT_GPU
#ifndef ROW_GROUP
#define ROW_GROUP 128
#endif

/* Σ v over the work-group, any group size; every work-item must call it. */
static inline uint
group_sum (const uint v,
           __local uint *scratch)
{
  const uint lid = get_local_id (0);

  scratch[lid] = v;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size (0); s > 1;)
    {
      const uint h = (s + 1) / 2;

      if (lid < s - h)
        scratch[lid] += scratch[lid + h];
      barrier (CLK_LOCAL_MEM_FENCE);
      s = h;
    }
  return scratch[0];
}
#endif

static inline void
move_row (const uint row,
          const int from,
          const int to,
          __global const vec_t *LATENT_RESTRICT x,
          const float xn,
          __global int *LATENT_RESTRICT labels,
          __global vec_t *LATENT_RESTRICT sums,
          __global int *LATENT_RESTRICT counts,
          __global float *LATENT_RESTRICT sqnorm,
          const uint dv)
{
#ifdef LATENT_GPU
  /* The GPU shape rebuilds the sums from the labels after the pass. */
  labels[row] = to;
#else
  __global vec_t *a = sums + (size_t) from * dv;
  __global vec_t *b = sums + (size_t) to * dv;

  for (uint j = 0; j < dv; j++)
    {
      const vec_t v = x[j];
      a[j] -= v;
      b[j] += v;
    }
  labels[row] = to;
  counts[from]--;
  counts[to]++;
  sqnorm[from] -= xn;
  sqnorm[to] += xn;
#endif
}

/* The lower bound from the second-nearest squared distance, less the
 * rounding the expanded form can make. */
static inline float
lower_bound (const float second,
             const float xn,
             const float cnmax)
{
  return sqrt (fmax (second - SLACK * (xn + cnmax), 0.0f));
}

#ifndef LATENT_GPU
/* The GPU shape's full pass is kmeans_assign_tiles. */
__kernel void
kmeans_assign (__global const vec_t *LATENT_RESTRICT x,
               __global const float *LATENT_RESTRICT xnorm,
               __global const vec_t *LATENT_RESTRICT centers,
               __global const float *LATENT_RESTRICT cnorm,
               __global int         *LATENT_RESTRICT labels,
               __global float       *LATENT_RESTRICT dist,
               __global float       *LATENT_RESTRICT upper,
               __global float       *LATENT_RESTRICT lower,
               __global half        *LATENT_RESTRICT lowers,
               __global vec_t       *LATENT_RESTRICT partial_sums,
               __global int         *LATENT_RESTRICT partial_counts,
               __global float       *LATENT_RESTRICT partial_sqnorm,
               __global float       *LATENT_RESTRICT partial_inertia,
               const uint n,
               const uint k,
               const uint kl,
               const uint dv,
               const uint rows_per_item,
               const float cnmax,
               const int accumulate,
               const int keep_lowers)
{
  const uint item = get_global_id (0);
  const uint begin = min (n, item * rows_per_item);
  const uint end = min (n, begin + rows_per_item);
  __global vec_t *sums = partial_sums + (size_t) item * k * dv;
  __global int *counts = partial_counts + (size_t) item * k;
  __global float *sqnorm = partial_sqnorm + (size_t) item * k;
  float inertia = 0.0f;

  if (accumulate)
    {
      for (uint i = 0; i < k * dv; i++)
        sums[i] = 0.0f;
      for (uint c = 0; c < k; c++)
        {
          counts[c] = 0;
          sqnorm[c] = 0.0f;
        }
    }

  for (uint i = begin; i < end; i += 4)
    {
      /* Rows past the end repeat the last row; their results are dropped. */
      const uint r0 = i, r1 = min (i + 1, end - 1), r2 = min (i + 2, end - 1), r3 = min (i + 3, end - 1);
      const uint valid = min (4u, end - i);
      float best[4], second[4];
      int label[4];

      nearest4 (x + (size_t) r0 * dv, x + (size_t) r1 * dv, x + (size_t) r2 * dv, x + (size_t) r3 * dv,
                xnorm[r0], xnorm[r1], xnorm[r2], xnorm[r3], centers, cnorm, k, dv,
                keep_lowers, lowers + (size_t) r0 * kl, lowers + (size_t) r1 * kl,
                lowers + (size_t) r2 * kl, lowers + (size_t) r3 * kl, best, second, label);

      for (uint r = 0; r < valid; r++)
        {
          const uint row = i + r;
          __global const vec_t *xr = x + (size_t) row * dv;
          const float d2 = exact_distance2 (xr, centers + (size_t) label[r] * dv, dv);

          labels[row] = label[r];
          dist[row] = d2;
          upper[row] = sqrt (d2);
          lower[row] = lower_bound (second[r], xnorm[row], cnmax);
          inertia += d2;
          if (accumulate)
            {
              add_row (sums + (size_t) label[r] * dv, xr, dv);
              counts[label[r]]++;
              sqnorm[label[r]] += xnorm[row];
            }
        }
    }

  partial_inertia[item] = inertia;
}

#if VEC == 4
/* Four rows from i + r of x (n × 4 floats) as one float16, rows past
 * end − 1 repeating it; and lane by lane into out[], those past end − 1
 * onto it (the same value: they repeat that row). No private arrays:
 * Oclgrind 21.10 corrupts its heap counting kernels that have them. */
#define LANES_ROW(r) vload4 (min (i + (r), end - 1), x)
#define LANES_ROWS(r) (float16) (LANES_ROW (r), LANES_ROW ((r) + 1), LANES_ROW ((r) + 2), LANES_ROW ((r) + 3))
#define LANES_SCATTER(out, v)                                                  \
  do {                                                                         \
    out[min (i + 0, end - 1)] = v.s0; out[min (i + 1, end - 1)] = v.s1;        \
    out[min (i + 2, end - 1)] = v.s2; out[min (i + 3, end - 1)] = v.s3;        \
    out[min (i + 4, end - 1)] = v.s4; out[min (i + 5, end - 1)] = v.s5;        \
    out[min (i + 6, end - 1)] = v.s6; out[min (i + 7, end - 1)] = v.s7;        \
    out[min (i + 8, end - 1)] = v.s8; out[min (i + 9, end - 1)] = v.s9;        \
    out[min (i + 10, end - 1)] = v.sa; out[min (i + 11, end - 1)] = v.sb;      \
    out[min (i + 12, end - 1)] = v.sc; out[min (i + 13, end - 1)] = v.sd;      \
    out[min (i + 14, end - 1)] = v.se; out[min (i + 15, end - 1)] = v.sf;      \
  } while (0)

/* kmeans_assign_lanes: the same full pass, without bounds, for rows of at
 * most four columns (VEC == 4, so x is n × 4 floats). Such a row is a
 * single vector: kmeans_assign would spend a horizontal sum on each row and
 * center. Here a work-item takes 16 rows at a time, one per lane of a
 * float16, and a column per vector (the 16 × 4 block transposed in
 * registers), so a center costs four multiply-adds for 16 rows, and the
 * distances come from differences, which do not cancel. */
__kernel void
kmeans_assign_lanes (__global const float  *LATENT_RESTRICT x,
                     __global const float  *LATENT_RESTRICT xnorm,
                     __global const float4 *LATENT_RESTRICT centers,
                     __global int          *LATENT_RESTRICT labels,
                     __global float        *LATENT_RESTRICT dist,
                     __global float4       *LATENT_RESTRICT partial_sums,
                     __global int          *LATENT_RESTRICT partial_counts,
                     __global float        *LATENT_RESTRICT partial_sqnorm,
                     __global float        *LATENT_RESTRICT partial_inertia,
                     const uint n,
                     const uint k,
                     const uint rows_per_item,
                     const int accumulate)
{
  const uint item = get_global_id (0);
  const uint begin = min (n, item * rows_per_item);
  const uint end = min (n, begin + rows_per_item);
  const int16 lane = (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  __global float4 *sums = partial_sums + (size_t) item * k;
  __global int *counts = partial_counts + (size_t) item * k;
  __global float *sqnorm = partial_sqnorm + (size_t) item * k;
  float16 inertia = 0.0f;

  if (accumulate)
    for (uint c = 0; c < k; c++)
      {
        sums[c] = 0.0f;
        counts[c] = 0;
        sqnorm[c] = 0.0f;
      }

  for (uint i = begin; i < end; i += 16)
    {
      const uint valid = min (16u, end - i);
      float16 a, b, c, d, best = INFINITY;
      int16 label = 0;

      if (valid == 16)
        {
          __global const float *block = x + (size_t) i * 4;

          a = vload16 (0, block), b = vload16 (1, block), c = vload16 (2, block), d = vload16 (3, block);
        }
      else
        a = LANES_ROWS (0), b = LANES_ROWS (4), c = LANES_ROWS (8), d = LANES_ROWS (12);
      {
        /* The 16 × 4 block transposed: a column of the 16 rows a vector. */
        const float16 x0 = (float16) (a.s048c, b.s048c, c.s048c, d.s048c);
        const float16 x1 = (float16) (a.s159d, b.s159d, c.s159d, d.s159d);
        const float16 x2 = (float16) (a.s26ae, b.s26ae, c.s26ae, d.s26ae);
        const float16 x3 = (float16) (a.s37bf, b.s37bf, c.s37bf, d.s37bf);

        for (uint q = 0; q < k; q++)
          {
            const float4 m = centers[q];
            const float16 t0 = x0 - m.x, t1 = x1 - m.y, t2 = x2 - m.z, t3 = x3 - m.w;
            const float16 d2 = fma (t3, t3, fma (t2, t2, fma (t1, t1, t0 * t0)));
            /* The first of equally near centers, as in kmeans_assign. */
            const int16 closer = isless (d2, best);

            best = select (best, d2, closer);
            label = select (label, (int16) q, closer);
          }
      }

      inertia += select ((float16) 0.0f, best, lane < (int16) valid);
      if (valid == 16)
        {
          vstore16 (label, 0, labels + i);
          vstore16 (best, 0, dist + i);
        }
      else
        {
          LANES_SCATTER (labels, label);
          LANES_SCATTER (dist, best);
        }
      /* The rows are still in cache; their labels were just written. */
      if (accumulate)
        for (uint row = i; row < i + valid; row++)
          {
            const int l = labels[row];

            sums[l] += vload4 (row, x);
            counts[l]++;
            sqnorm[l] += xnorm[row];
          }
    }

  {
    const float8 h8 = inertia.lo + inertia.hi;
    const float4 h4 = h8.lo + h8.hi;

    partial_inertia[item] = h4.x + h4.y + h4.z + h4.w;
  }
}
#endif
#endif

/* move[c]: how far center c moved; move_max, move_second: the largest and
 * second-largest moves, move_argmax: the center that moved most. half[c]:
 * half the distance from center c to its nearest other center. */
__kernel void
kmeans_hamerly (__global const vec_t *LATENT_RESTRICT x,
                __global const qvec_t *LATENT_RESTRICT xq,
                __global const vec_t *LATENT_RESTRICT centers_q,
                __global const short *LATENT_RESTRICT centers_i,
                __global const float2 *LATENT_RESTRICT cinfo,
                __global const float2 *LATENT_RESTRICT xerr,
                const float copy_step,
                __global const float *LATENT_RESTRICT xnorm,
                __global const vec_t *LATENT_RESTRICT centers,
                __global const float *LATENT_RESTRICT cnorm,
                __global const float *LATENT_RESTRICT move,
                __global const float *LATENT_RESTRICT half_gap,
                __global int         *LATENT_RESTRICT labels,
                __global float       *LATENT_RESTRICT upper,
                __global float       *LATENT_RESTRICT lower,
                __global vec_t       *LATENT_RESTRICT partial_sums,
                __global int         *LATENT_RESTRICT partial_counts,
                __global float       *LATENT_RESTRICT partial_sqnorm,
                __global int         *LATENT_RESTRICT partial_visited,
                const uint n,
                const uint k,
                const uint dv,
                const uint rows_per_item,
                const float cnmax,
                const float move_max,
                const float move_second,
                const int move_argmax)
{
  const uint item = get_global_id (0);
  const uint begin = min (n, item * rows_per_item);
  const uint end = min (n, begin + rows_per_item);
  __global vec_t *sums = partial_sums + (size_t) item * k * dv;
  __global int *counts = partial_counts + (size_t) item * k;
  __global float *sqnorm = partial_sqnorm + (size_t) item * k;
  uint queue[4];
  uint queued = 0, visited = 0;
#ifdef LATENT_GPU
  __local uint scratch[ROW_GROUP];
#endif

  for (uint i = begin; i <= end; i++)
    {
      if (i < end)
        {
          const int a = labels[i];
          float u = upper[i] + move[a];
          const float l = lower[i] - (a == move_argmax ? move_second : move_max);
          const float m = fmax (half_gap[a], l);

          prefetch_copy (xq, labels, upper, move, half_gap, i, end, dv);

          if (u * (1.0f + SLACK) > m)
            {
              /* The bound is loose: tighten it with the true distance. */
              /* First from the cheap copy; if that cannot settle the row,
               * the exact distance. */
              u = UPPER_FROM_COPY (i, a);
              if (u * (1.0f + SLACK) > m)
                u = sqrt (exact_distance2 (x + (size_t) i * dv, centers + (size_t) a * dv, dv));
              visited++;
            }
          upper[i] = u;
          lower[i] = l;
          if (u * (1.0f + SLACK) <= m)
            continue;
          queue[queued++] = i;
          visited += k;
          if (queued < 4)
            continue;
        }
      if (queued == 0)
        continue;

      {
        const uint q0 = queue[0];
        const uint q1 = queued > 1 ? queue[1] : q0;
        const uint q2 = queued > 2 ? queue[2] : q0;
        const uint q3 = queued > 3 ? queue[3] : q0;
        float best[4], second[4];
        int label[4];

        nearest4 (x + (size_t) q0 * dv, x + (size_t) q1 * dv, x + (size_t) q2 * dv, x + (size_t) q3 * dv,
                  xnorm[q0], xnorm[q1], xnorm[q2], xnorm[q3], centers, cnorm, k, dv,
                  0, (__global half *) upper, (__global half *) upper, (__global half *) upper,
                  (__global half *) upper, best, second, label);

        for (uint r = 0; r < queued; r++)
          {
            const uint row = queue[r];
            const int old = labels[row];
            const int now = label[r];
            __global const vec_t *xr = x + (size_t) row * dv;

            upper[row] = sqrt (exact_distance2 (xr, centers + (size_t) now * dv, dv));
            lower[row] = lower_bound (second[r], xnorm[row], cnmax);
            if (now != old)
              move_row (row, old, now, xr, xnorm[row], labels, sums, counts, sqnorm, dv);
          }
        queued = 0;
      }
    }

#ifdef LATENT_GPU
  visited = group_sum (visited, scratch);
  if (get_local_id (0) == 0)
    partial_visited[get_group_id (0)] = visited;
#else
  partial_visited[item] = visited;
#endif
}

/* Elkan's bounds on a row's distances to the 16 centers from jc: the
 * stored halves (rounded down) less each center's drift since. */
static inline float16
elkan_lowers (__global const half *LATENT_RESTRICT l,
              __global const float *LATENT_RESTRICT drift,
              const uint jc)
{
  return vload_half16 (0, l + jc) - vload16 (0, drift + jc);
}

/* Which of those 16 centers neither bound rules out (−1 a lane) for a row
 * at most U from its center, GAPS its distances to them. */
static inline int16
elkan_block_open (const float u,
                  const float16 lv,
                  __global const float *LATENT_RESTRICT gaps)
{
  return isgreater ((float16) (u * (1.0f + SLACK)), fmax (lv, 0.5f * vload16 (0, gaps)));
}

#ifndef LATENT_GPU
/* Whether kmeans_elkan must look at row i: its bounds leave a center of
 * some block open (the pass's own test, on the row's bounds as stored). */
static inline bool
elkan_open (__global const int *LATENT_RESTRICT labels,
            __global const float *LATENT_RESTRICT upper,
            __global const half *LATENT_RESTRICT lowers,
            __global const float *LATENT_RESTRICT move,
            __global const float *LATENT_RESTRICT half_gap,
            __global const float *LATENT_RESTRICT center_dist,
            const uint i,
            const uint kl)
{
  const int c = labels[i];
  const float u = upper[i] + move[c];
  __global const half *l = lowers + (size_t) i * kl;
  __global const float *gaps = center_dist + (size_t) c * kl;

  if (u * (1.0f + SLACK) <= half_gap[c])
    return false;
  /* lane_bits, not any (): PoCL 3.1 compiles any () to a test and a
   * branch for each pair of lanes, and this runs for every row. */
  for (uint jc = 0; jc < kl; jc += 16)
    if (lane_bits (elkan_block_open (u, elkan_lowers (l, move + kl, jc), gaps + jc)))
      return true;
  return false;
}
#endif

/* Elkan's variant (2003) for larger k: a lower bound per row and center
 * (lowers, n × kl halves, rounded down, with kl = k rounded up to 16), and the center-to-center
 * distances (center_dist, k × kl, padding INFINITY), so a row is compared
 * only with the few centers its bounds cannot rule out. Bounds are updated
 * and tested 16 centers at a time; only a block with a candidate falls back
 * to scalar code. Rows are visited one at a time; each distance is one
 * vector pass over the row. A stored bound is the bound plus its center's
 * drift (move[kl + c], how far it has moved since the host last zeroed
 * it), so a bound stays true without being written again each pass: a
 * block its row leaves alone is only read, and halves are rounded once,
 * not once a pass. With rebase, the pass stores every bound as it is, and
 * the host zeroes the drifts after it. */
__kernel void
kmeans_elkan (__global const vec_t *LATENT_RESTRICT x,
              __global const qvec_t *LATENT_RESTRICT xq,
              __global const vec_t *LATENT_RESTRICT centers_q,
              __global const short *LATENT_RESTRICT centers_i,
              __global const float2 *LATENT_RESTRICT cinfo,
              __global const float2 *LATENT_RESTRICT xerr,
              const float copy_step,
              __global const float *LATENT_RESTRICT xnorm,
              __global const vec_t *LATENT_RESTRICT centers,
              __global const float *LATENT_RESTRICT move,
              __global const float *LATENT_RESTRICT half_gap,
              __global const float *LATENT_RESTRICT center_dist,
              __global int         *LATENT_RESTRICT labels,
              __global float       *LATENT_RESTRICT upper,
              __global half        *LATENT_RESTRICT lowers,
              __global vec_t       *LATENT_RESTRICT partial_sums,
              __global int         *LATENT_RESTRICT partial_counts,
              __global float       *LATENT_RESTRICT partial_sqnorm,
              __global int         *LATENT_RESTRICT partial_visited,
              const uint n,
              const uint k,
              const uint kl,
              const uint dv,
              const uint rows_per_item,
              const int rebase)
{
  __global const float *drift = move + kl;
  const uint item = get_global_id (0);
  const uint begin = min (n, item * rows_per_item);
  const uint end = min (n, begin + rows_per_item);
  __global vec_t *sums = partial_sums + (size_t) item * k * dv;
  __global int *counts = partial_counts + (size_t) item * k;
  __global float *sqnorm = partial_sqnorm + (size_t) item * k;
  uint visited = 0;
#ifdef LATENT_GPU
  __local uint scratch[ROW_GROUP];
#else
  uint held = end;   /* a row whose move waits for its floats */
  int held_from = 0, held_to = 0;
  ulong ahead = 0;   /* bit r: row i + r is open; rows [i, scan) are tested */
  uint scan = begin, ahead_open = 0;
#endif

  for (uint i = begin; i < end; i++)
    {
      __global const vec_t *xr = x + (size_t) i * dv;
      __global half *l = lowers + (size_t) i * kl;
      const int old = labels[i];
      int now = old;
      float u = upper[i] + move[old];
      bool tight = false, tight_copy = false;
      float own_lower = 0.0f;   /* the copy's lower bound for the row's center */
      /* A row closer to its center than half the gap to any other stays. */
      const bool settled = u * (1.0f + SLACK) <= half_gap[old];

#ifndef LATENT_GPU
      /* Rows are tested ahead (as far as the 64 bits of ahead reach)
       * until LOOK_AHEAD of them are open, and their copies fetched; a
       * row that is not is only moved on. */
      while (scan < end && scan < i + 64 && ahead_open < LOOK_AHEAD)
        {
          if (elkan_open (labels, upper, lowers, move, half_gap, center_dist, scan, kl))
            {
              ahead |= (ulong) 1 << (scan - i);
              ahead_open++;
              prefetch_bytes (xq + (size_t) scan * dv, dv * VEC);
            }
          scan++;
        }
      {
        const bool look = ahead & 1;

        ahead >>= 1;
        ahead_open -= look;
        if (!look && !rebase)
          {
            upper[i] = u;
            continue;
          }
      }
#endif

      for (uint jc = 0; jc < kl; jc += 16)
        {
          /* Bounds are stored as halves rounded down: half the traffic. */
          const float16 lv = elkan_lowers (l, drift, jc);
          float lanes[16];
          uint open;

          /* The centers of the block neither bound rules out, a bit each
           * (never padding: its center distance is infinite); a center
           * that takes the row only tightens both bounds, so the set
           * holds for the rest of the block. */
          if (settled || !(open = lane_bits (elkan_block_open (u, lv, center_dist + (size_t) now * kl + jc))))
            {
              if (rebase)
                vstore_half16_rtn (lv, 0, l + jc);
              continue;
            }

          /* A center of this block may be nearer: look at each, in private
           * lanes, and store the block's bounds once at the end. */
          vstore16 (lv, 0, lanes);
#define SET_LOWER(c, value)                                    \
          do {                                                 \
            if ((uint) (c) >= jc && (uint) (c) < jc + 16)      \
              lanes[(c) - jc] = (value);                       \
            else                                               \
              vstore_half_rtn ((value) + (rebase && (uint) (c) < jc ? 0.0f : drift[c]), (c), l); \
          } while (0)
          while (open != 0)
            {
              /* The lowest bit: 31 − clz of it (OpenCL 1.2 has no ctz). */
              const uint j = jc + 31 - clz (open & -open);
              float z, lj;

              open &= open - 1;
              if (j == (uint) now)
                continue;
              z = fmax (lanes[j - jc], 0.5f * center_dist[(size_t) now * kl + j]);
              if (u * (1.0f + SLACK) <= z)
                continue;
              /* Tighten from the 8-bit copy first; most rows end here. */
              if (!tight_copy)
                {
                  const float2 own = COPY_BOUNDS (i, now);

                  u = own.y;
                  own_lower = own.x;
                  tight_copy = true;
                  visited++;
                  if (u * (1.0f + SLACK) <= z)
                    continue;
                }
              /* The copy's bounds on |x − c_j| may rule j out too, */
              {
                const float2 other = COPY_BOUNDS (i, j);

                lj = other.x;
                lanes[j - jc] = lj;
                visited++;
                if (u * (1.0f + SLACK) <= lj)
                  continue;
                /* or show it nearer than the row's center, which then
                 * needs no exact distance (the row's floats are read
                 * once, to move it). */
                if (!tight && other.y * (1.0f + SLACK) < own_lower)
                  {
                    SET_LOWER (now, own_lower);
                    now = j;
                    u = other.y;
                    own_lower = other.x;
                    continue;
                  }
              }
              /* Too close to call from the copy: exact distances decide. */
              if (!tight)
                {
                  u = sqrt (exact_distance2 (xr, centers + (size_t) now * dv, dv));
                  SET_LOWER (now, u);
                  tight = true;
                  if (u * (1.0f + SLACK) <= lj)
                    continue;
                }
              lj = sqrt (exact_distance2 (xr, centers + (size_t) j * dv, dv));
              lanes[j - jc] = lj;
              if (lj < u || (lj == u && j < (uint) now))
                {
                  now = j;
                  u = lj;
                }
            }
#undef SET_LOWER
          vstore_half16_rtn (vload16 (0, lanes) + (rebase ? (float16) 0.0f : vload16 (0, drift + jc)), 0, l + jc);
        }

      upper[i] = u;
      if (now != old)
        {
#ifndef LATENT_GPU
          /* The row's floats are not in cache (only its copy was read):
           * they are fetched now and added when the next row moves, or at
           * the end, so the misses overlap other rows' work. */
          if (held < end)
            move_row (held, held_from, held_to, x + (size_t) held * dv, xnorm[held], labels, sums, counts, sqnorm, dv);
          held = i;
          held_from = old;
          held_to = now;
          prefetch_bytes (xr, dv * VEC * sizeof (float));
#else
          move_row (i, old, now, xr, xnorm[i], labels, sums, counts, sqnorm, dv);
#endif
        }
    }
#ifndef LATENT_GPU
  if (held < end)
    move_row (held, held_from, held_to, x + (size_t) held * dv, xnorm[held], labels, sums, counts, sqnorm, dv);
#endif

#ifdef LATENT_GPU
  visited = group_sum (visited, scratch);
  if (get_local_id (0) == 0)
    partial_visited[get_group_id (0)] = visited;
#else
  partial_visited[item] = visited;
#endif
}

/* center_dist[c][o] = |c − o| rounded down (k × kl; INFINITY on the
 * diagonal and in the padding) and
 * half_gap[c] = half the distance to the nearest other center. One
 * work-item per center. */
__kernel void
kmeans_center_gaps (__global const vec_t *LATENT_RESTRICT centers,
                    __global float       *LATENT_RESTRICT center_dist,
                    __global float       *LATENT_RESTRICT half_gap,
                    const uint k,
                    const uint kl,
                    const uint dv)
{
  const uint c = get_global_id (0);
  float nearest = INFINITY;

  if (c >= k)
    return;
  for (uint o = 0; o < kl; o++)
    {
      float d = INFINITY;

      /* The center itself is never a rival: INFINITY keeps it out of the
       * block test in kmeans_elkan. */
      if (o < k && o != c)
        {
          d = sqrt (exact_distance2 (centers + (size_t) c * dv, centers + (size_t) o * dv, dv)) * (1.0f - SLACK);
          nearest = fmin (nearest, d);
        }
      center_dist[(size_t) c * kl + o] = d;
    }
  half_gap[c] = 0.5f * nearest;
}

/* The 8-bit copy of the rows used to tighten bounds cheaply: codes on one
 * scale for all rows, x̃ = lo + q · step with RANGE = (lo, step) spanning
 * the data and zero, and per row an upper bound on |x − x̃|. Rows of 8-bit
 * images come back exact up to float rounding. One work-item per row. */
__kernel void
kmeans_quantize (__global const vec_t *LATENT_RESTRICT x,
                 __global qvec_t      *LATENT_RESTRICT xq,
                 __global float2      *LATENT_RESTRICT xerr,
                 const float2 range,
                 const uint n,
                 const uint dv)
{
  const uint i = get_global_id (0);
  __global const vec_t *row = x + (size_t) i * dv;
  vec_t acc = 0.0f, norm = 0.0f;

  if (i >= n)
    return;
  for (uint j = 0; j < dv; j++)
    {
      const qvec_t q = encode ((row[j] - range.x) / range.y);
      const vec_t u = row[j] - fma (convert_vec (q), (vec_t) range.y, (vec_t) range.x);
      xq[(size_t) i * dv + j] = q;
      acc = fma (u, u, acc);
      norm = fma (convert_vec (q), convert_vec (q), norm);
    }
  xerr[i] = (float2) (sqrt (hsum (acc)) * (1.0f + SLACK) + FLT_MIN, hsum (norm));
}

#ifndef LATENT_GPU
/* One work-item per vector of the k × dv sums (the GPU shape's is
 * kmeans_reduce_chunks). */
__kernel void
kmeans_reduce (__global const vec_t *LATENT_RESTRICT partial_sums,
               __global vec_t       *LATENT_RESTRICT sums,
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
#endif

#ifdef LATENT_GPU

/* Tunables of the GPU shape (the host passes the tuned or default values):
 * a work-group takes TILE_ROWS rows against TILE_CENTERS centers at a time,
 * TILE_DEPTH columns per step through local memory; each work-item holds
 * BLOCK_ROWS × BLOCK_CENTERS dot products in registers. The group has
 * (TILE_ROWS / BLOCK_ROWS) · (TILE_CENTERS / BLOCK_CENTERS) work-items, a
 * multiple of TILE_ROWS so that the exact pass gives each work-item a
 * single row. */
#ifndef TILE_ROWS
#define TILE_ROWS 64
#endif
#ifndef TILE_CENTERS
#define TILE_CENTERS 32
#endif
#ifndef TILE_DEPTH
#define TILE_DEPTH 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 4
#endif
#ifndef BLOCK_CENTERS
#define BLOCK_CENTERS 4
#endif
/* kmeans_sums: SUM_COLUMNS work-items (one column each) × SUM_ROWS rows ×
 * SUM_CLUSTERS clusters per group. */
#ifndef SUM_COLUMNS
#define SUM_COLUMNS 64
#endif
#ifndef SUM_CLUSTERS
#define SUM_CLUSTERS 64
#endif
#ifndef SUM_ROWS
#define SUM_ROWS 256
#endif
/* Eight, not four: on an H200 a step took 0.524 against 0.560 ms at
 * k = 10, 0.801 against 0.822 ms at k = 100 (Fashion-MNIST). */
#ifndef SUM_UNROLL
#define SUM_UNROLL 8
#endif

#define ROW_ITEMS (TILE_ROWS / BLOCK_ROWS)
#define CENTER_ITEMS (TILE_CENTERS / BLOCK_CENTERS)
#define ASSIGN_GROUP (ROW_ITEMS * CENTER_ITEMS)
#define STAGE_WIDTH (TILE_ROWS > TILE_CENTERS ? TILE_ROWS : TILE_CENTERS)

#if TILE_ROWS % BLOCK_ROWS != 0 || TILE_CENTERS % BLOCK_CENTERS != 0 || CENTER_ITEMS % BLOCK_ROWS != 0
#error "kmeans: TILE_ROWS, TILE_CENTERS must be multiples of their blocks, and TILE_CENTERS / BLOCK_CENTERS of BLOCK_ROWS"
#endif

/* Center C at squared distance D from a row (|x|² = XN, |c|² = CN), kept
 * if it is among the two nearest so far (ties to the center seen first),
 * and its lower bound stored among the row's halves LOWERS unless NULL. */
static inline void
keep_nearest (const float          d,
              const uint           c,
              const float          xn,
              const float          cn,
              float               *best,
              float               *second,
              int                 *label,
              __global half       *lowers)
{
  if (d < *best)
    {
      *second = *best;
      *best = d;
      *label = c;
    }
  else if (d < *second)
    *second = d;
  if (lowers != NULL)
    vstore_half_rtn (sqrt (fmax (d - SLACK * (xn + cn), 0.0f)), c, lowers);
}

/* A work-item's nearest (BEST, LABEL) and second-nearest (SECOND) centers
 * for row RR, merged into the group's running choice for it; ties go to
 * the lowest index, whatever the order of merging. */
static inline void
merge_choice (__local float *run_best,
              __local float *run_second,
              __local int   *run_label,
              const uint     rr,
              const float    best,
              const float    second,
              const int      label)
{
  const float b = run_best[rr];

  if (best < b || (best == b && label < run_label[rr]))
    {
      run_second[rr] = fmin (b, second);
      run_best[rr] = best;
      run_label[rr] = label;
    }
  else
    run_second[rr] = fmin (run_second[rr], best);
}

/* The end of a group's full pass, once run_best, run_second and run_label
 * hold its TILE_ROWS rows' nearest centers: the nearest center's distance
 * from differences, which do not cancel (the rows again, beside their
 * centers' columns), the rows' labels and bounds, and the group's inertia.
 * As the group is a multiple of TILE_ROWS, work-item lid always sums row
 * lid % TILE_ROWS. Every work-item of the group calls it. */
static void
finish_tile (__global const float *LATENT_RESTRICT x,
             __global const float *LATENT_RESTRICT xnorm,
             __global const float *LATENT_RESTRICT centers,
             __global int         *LATENT_RESTRICT labels,
             __global float       *LATENT_RESTRICT dist,
             __global float       *LATENT_RESTRICT upper,
             __global float       *LATENT_RESTRICT lower,
             __global float       *LATENT_RESTRICT partial_inertia,
             __local float        *xs,
             __local float        *cs,
             __local float        *part,
             __local const float  *run_best,
             __local const float  *run_second,
             __local const int    *run_label,
             const uint n,
             const uint dp,
             const float cnmax)
{
  const uint lid = get_local_id (0);
  const uint row0 = get_group_id (0) * TILE_ROWS;
  float acc2 = 0.0f;

  for (uint d0 = 0; d0 < dp; d0 += TILE_DEPTH)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      for (uint e = lid; e < TILE_ROWS * TILE_DEPTH; e += ASSIGN_GROUP)
        {
          const uint rr = e / TILE_DEPTH, dd = e % TILE_DEPTH;
          const uint row = row0 + rr, col = d0 + dd;
          const bool inside = row < n && col < dp;

          xs[dd * (TILE_ROWS + 1) + rr] = inside ? x[(size_t) row * dp + col] : 0.0f;
          cs[dd * (TILE_ROWS + 1) + rr] = inside ? centers[(size_t) run_label[rr] * dp + col] : 0.0f;
        }
      barrier (CLK_LOCAL_MEM_FENCE);
      for (uint e = lid; e < TILE_ROWS * TILE_DEPTH; e += ASSIGN_GROUP)
        {
          const uint at = (e / TILE_ROWS) * (TILE_ROWS + 1) + e % TILE_ROWS;
          const float u = xs[at] - cs[at];

          acc2 = fma (u, u, acc2);
        }
    }

  part[lid] = acc2;
  barrier (CLK_LOCAL_MEM_FENCE);
  if (lid < TILE_ROWS)
    {
      const uint row = row0 + lid;
      float d2 = 0.0f;

      for (uint p = 0; p < ASSIGN_GROUP / TILE_ROWS; p++)
        d2 += part[p * TILE_ROWS + lid];
      if (row < n)
        {
          labels[row] = run_label[lid];
          dist[row] = d2;
          upper[row] = sqrt (d2);
          lower[row] = lower_bound (run_second[lid], xnorm[row], cnmax);
        }
      else
        d2 = 0.0f;
      /* Only this work-item reads or writes part[lid] here. */
      part[lid] = d2;
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    {
      float inertia = 0.0f;

      for (uint r = 0; r < TILE_ROWS; r++)
        inertia += part[r];
      partial_inertia[get_group_id (0)] = inertia;
    }
}

/* Labels, exact distances and bounds of TILE_ROWS rows per group. The
 * register block's loops have constant trip counts, which GPU compilers
 * unroll by themselves; an explicit unroll only made PoCL's compile (the
 * tests run this shape on PoCL) take about 1.6 times as long. Local
 * tiles are stored column-major with one word of padding (TILE_ROWS + 1),
 * so the transposing stores and the work-items' reads hit distinct banks.
 * x and centers are the same buffers as above, read as floats. */
__kernel __attribute__ ((reqd_work_group_size (ASSIGN_GROUP, 1, 1))) void
kmeans_assign_tiles (__global const float *LATENT_RESTRICT x,
                     __global const float *LATENT_RESTRICT xnorm,
                     __global const float *LATENT_RESTRICT centers,
                     __global const float *LATENT_RESTRICT cnorm,
                     __global int         *LATENT_RESTRICT labels,
                     __global float       *LATENT_RESTRICT dist,
                     __global float       *LATENT_RESTRICT upper,
                     __global float       *LATENT_RESTRICT lower,
                     __global half        *LATENT_RESTRICT lowers,
                     __global float       *LATENT_RESTRICT partial_inertia,
                     const uint n,
                     const uint k,
                     const uint kl,
                     const uint dp,
                     const float cnmax,
                     const int keep_lowers)
{
  __local float xs[TILE_DEPTH * (TILE_ROWS + 1)];
  __local float cs[TILE_DEPTH * (STAGE_WIDTH + 1)];
  __local float run_best[TILE_ROWS], run_second[TILE_ROWS];
  __local int run_label[TILE_ROWS];
  __local float part[ASSIGN_GROUP];
  const uint lid = get_local_id (0);
  const uint row0 = get_group_id (0) * TILE_ROWS;
  const uint tr = lid % ROW_ITEMS, tk = lid / ROW_ITEMS;
  float xn[BLOCK_ROWS];

  for (uint r = lid; r < TILE_ROWS; r += ASSIGN_GROUP)
    {
      run_best[r] = INFINITY;
      run_second[r] = INFINITY;
      run_label[r] = 0;
    }
  for (uint r = 0; r < BLOCK_ROWS; r++)
    {
      const uint row = row0 + tr + r * ROW_ITEMS;
      xn[r] = row < n ? xnorm[row] : 0.0f;
    }

  for (uint c0 = 0; c0 < k; c0 += TILE_CENTERS)
    {
      float acc[BLOCK_ROWS][BLOCK_CENTERS];
      float best[BLOCK_ROWS], second[BLOCK_ROWS];
      int label[BLOCK_ROWS];

      for (uint r = 0; r < BLOCK_ROWS; r++)
        for (uint q = 0; q < BLOCK_CENTERS; q++)
          acc[r][q] = 0.0f;

      for (uint d0 = 0; d0 < dp; d0 += TILE_DEPTH)
        {
          /* The previous step's tiles are consumed. Consecutive
           * work-items load consecutive columns of a row. */
          barrier (CLK_LOCAL_MEM_FENCE);
          for (uint e = lid; e < TILE_ROWS * TILE_DEPTH; e += ASSIGN_GROUP)
            {
              const uint rr = e / TILE_DEPTH, dd = e % TILE_DEPTH;
              const uint row = row0 + rr, col = d0 + dd;

              xs[dd * (TILE_ROWS + 1) + rr] = row < n && col < dp ? x[(size_t) row * dp + col] : 0.0f;
            }
          for (uint e = lid; e < TILE_CENTERS * TILE_DEPTH; e += ASSIGN_GROUP)
            {
              const uint kk = e / TILE_DEPTH, dd = e % TILE_DEPTH;
              const uint c = c0 + kk, col = d0 + dd;

              cs[dd * (TILE_CENTERS + 1) + kk] = c < k && col < dp ? centers[(size_t) c * dp + col] : 0.0f;
            }
          barrier (CLK_LOCAL_MEM_FENCE);

          for (uint dd = 0; dd < TILE_DEPTH; dd++)
            {
              float a[BLOCK_ROWS], b[BLOCK_CENTERS];

              for (uint r = 0; r < BLOCK_ROWS; r++)
                a[r] = xs[dd * (TILE_ROWS + 1) + tr + r * ROW_ITEMS];
              for (uint q = 0; q < BLOCK_CENTERS; q++)
                b[q] = cs[dd * (TILE_CENTERS + 1) + tk + q * CENTER_ITEMS];
              for (uint r = 0; r < BLOCK_ROWS; r++)
                for (uint q = 0; q < BLOCK_CENTERS; q++)
                  acc[r][q] = fma (a[r], b[q], acc[r][q]);
            }
        }

      /* This work-item's nearest and second-nearest of its centers, in
       * ascending order, so ties go to the lowest index as elsewhere. */
      for (uint r = 0; r < BLOCK_ROWS; r++)
        {
          const uint row = row0 + tr + r * ROW_ITEMS;

          best[r] = INFINITY;
          second[r] = INFINITY;
          label[r] = 0;
          for (uint q = 0; q < BLOCK_CENTERS; q++)
            {
              const uint c = c0 + tk + q * CENTER_ITEMS;

              if (c < k)
                {
                  const float cn = cnorm[c];

                  keep_nearest (xn[r] + cn - 2.0f * acc[r][q], c, xn[r], cn, &best[r], &second[r], &label[r],
                                keep_lowers && row < n ? lowers + (size_t) row * kl : NULL);
                }
            }
        }

      /* Merge into the rows' running choice, one column of work-items at
       * a time: each row is written by one work-item per step. */
      for (uint p = 0; p < CENTER_ITEMS; p++)
        {
          barrier (CLK_LOCAL_MEM_FENCE);
          if (tk == p)
            for (uint r = 0; r < BLOCK_ROWS; r++)
              merge_choice (run_best, run_second, run_label, tr + r * ROW_ITEMS, best[r], second[r], label[r]);
        }
    }

  finish_tile (x, xnorm, centers, labels, dist, upper, lower, partial_inertia, xs, cs, part, run_best,
               run_second, run_label, n, dp, cnmax);
}

/* The same pass from the dot products x·c, which the matrix product
 * (gemm.cl) leaves in dots (n × kp, row-major): for many centers a tuned
 * product outruns the tiles above. Each of a row's ROW_LANES work-items
 * takes the centers c ≡ lane (mod ROW_LANES), so consecutive work-items read
 * consecutive dots of a row; the lanes' choices are merged in local memory
 * and finish_tile ends the pass as above. */
#define ROW_LANES (ASSIGN_GROUP / TILE_ROWS)

__kernel __attribute__ ((reqd_work_group_size (ASSIGN_GROUP, 1, 1))) void
kmeans_nearest (__global const float *LATENT_RESTRICT x,
                __global const float *LATENT_RESTRICT xnorm,
                __global const float *LATENT_RESTRICT centers,
                __global const float *LATENT_RESTRICT cnorm,
                __global const float *LATENT_RESTRICT dots,
                __global int         *LATENT_RESTRICT labels,
                __global float       *LATENT_RESTRICT dist,
                __global float       *LATENT_RESTRICT upper,
                __global float       *LATENT_RESTRICT lower,
                __global half        *LATENT_RESTRICT lowers,
                __global float       *LATENT_RESTRICT partial_inertia,
                const uint n,
                const uint k,
                const uint kp,
                const uint kl,
                const uint dp,
                const float cnmax,
                const int keep_lowers)
{
  __local float xs[TILE_DEPTH * (TILE_ROWS + 1)];
  __local float cs[TILE_DEPTH * (STAGE_WIDTH + 1)];
  __local float run_best[TILE_ROWS], run_second[TILE_ROWS];
  __local int run_label[TILE_ROWS];
  __local float part[ASSIGN_GROUP];
  const uint lid = get_local_id (0);
  const uint rr = lid / ROW_LANES, lane = lid % ROW_LANES;
  const uint row = get_group_id (0) * TILE_ROWS + rr;
  float best = INFINITY, second = INFINITY;
  int label = 0;

  if (row < n)
    {
      const float xn = xnorm[row];

      /* Ascending centers, so ties go to the lowest index as elsewhere. */
      for (uint c = lane; c < k; c += ROW_LANES)
        {
          const float cn = cnorm[c];

          keep_nearest (xn + cn - 2.0f * dots[(size_t) row * kp + c], c, xn, cn, &best, &second, &label,
                        keep_lowers ? lowers + (size_t) row * kl : NULL);
        }
    }
  if (lane == 0)
    {
      run_best[rr] = best;
      run_second[rr] = second;
      run_label[rr] = label;
    }
  /* One lane at a time: each row is written by one work-item per step. */
  for (uint p = 1; p < ROW_LANES; p++)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      if (lane == p)
        merge_choice (run_best, run_second, run_label, rr, best, second, label);
    }
  finish_tile (x, xnorm, centers, labels, dist, upper, lower, partial_inertia, xs, cs, part, run_best,
               run_second, run_label, n, dp, cnmax);
}

/* Per-cluster sums, counts and Σ|x|² from the labels. Group (b, chunk, g)
 * takes columns [b·SUM_COLUMNS, …), rows [chunk·SUM_ROWS, …) and clusters
 * [g·SUM_CLUSTERS, …); each work-item adds its one column of the rows of
 * those clusters into its own column of local sums, so consecutive
 * work-items read consecutive addresses and no two touch the same word (no
 * barrier). Work-item 0 of column block 0 keeps the counts. Output:
 * partial_sums (chunks × k × dp), partial_counts and partial_sqnorm
 * (chunks × k). */
__kernel void
kmeans_sums (__global const float *LATENT_RESTRICT x,
             __global const float *LATENT_RESTRICT xnorm,
             __global const int   *LATENT_RESTRICT labels,
             __global float       *LATENT_RESTRICT partial_sums,
             __global int         *LATENT_RESTRICT partial_counts,
             __global float       *LATENT_RESTRICT partial_sqnorm,
             const uint n,
             const uint k,
             const uint dp)
{
  __local float acc[SUM_CLUSTERS * SUM_COLUMNS];
  __local int count[SUM_CLUSTERS];
  __local float sq[SUM_CLUSTERS];
  const uint t = get_local_id (0);
  const uint col = get_global_id (0);
  const uint chunk = get_group_id (1);
  const uint c0 = get_group_id (2) * SUM_CLUSTERS;
  const uint kc = min ((uint) SUM_CLUSTERS, k - c0);
  const uint begin = min (n, chunk * SUM_ROWS), end = min (n, begin + SUM_ROWS);
  const bool stats = get_group_id (0) == 0 && t == 0;
  const bool mine = col < dp;
  uint i = begin;

  for (uint c = 0; c < kc; c++)
    acc[c * SUM_COLUMNS + t] = 0.0f;
  if (stats)
    for (uint c = 0; c < kc; c++)
      {
        count[c] = 0;
        sq[c] = 0.0f;
      }

  /* SUM_UNROLL rows' loads in flight before their additions. Labels below
   * c0 wrap to large values and fall outside [0, kc). */
  for (; i + SUM_UNROLL <= end; i += SUM_UNROLL)
    {
      uint c[SUM_UNROLL];
      float v[SUM_UNROLL];

#pragma unroll
      for (uint u = 0; u < SUM_UNROLL; u++)
        {
          c[u] = (uint) labels[i + u] - c0;
          v[u] = c[u] < kc && mine ? x[(size_t) (i + u) * dp + col] : 0.0f;
        }
#pragma unroll
      for (uint u = 0; u < SUM_UNROLL; u++)
        if (c[u] < kc)
          {
            acc[c[u] * SUM_COLUMNS + t] += v[u];
            if (stats)
              {
                count[c[u]]++;
                sq[c[u]] += xnorm[i + u];
              }
          }
    }
  for (; i < end; i++)
    {
      const uint c = (uint) labels[i] - c0;

      if (c < kc)
        {
          if (mine)
            acc[c * SUM_COLUMNS + t] += x[(size_t) i * dp + col];
          if (stats)
            {
              count[c]++;
              sq[c] += xnorm[i];
            }
        }
    }

  if (mine)
    for (uint c = 0; c < kc; c++)
      partial_sums[((size_t) chunk * k + c0 + c) * dp + col] = acc[c * SUM_COLUMNS + t];
  if (stats)
    for (uint c = 0; c < kc; c++)
      {
        partial_counts[(size_t) chunk * k + c0 + c] = count[c];
        partial_sqnorm[(size_t) chunk * k + c0 + c] = sq[c];
      }
}

/* The chunks' partials summed, one work-item per float of the k × dp sums
 * (consecutive work-items, consecutive addresses); the first k work-items
 * also sum the counts and Σ|x|², and copy the counts' bits into the
 * step's figures at counts_at (kmeans_update). */
__kernel void
kmeans_reduce_chunks (__global const float *LATENT_RESTRICT partial_sums,
                      __global const int   *LATENT_RESTRICT partial_counts,
                      __global const float *LATENT_RESTRICT partial_sqnorm,
                      __global float       *LATENT_RESTRICT sums,
                      __global int         *LATENT_RESTRICT counts,
                      __global float       *LATENT_RESTRICT sqnorm,
                      __global float       *LATENT_RESTRICT figures,
                      const uint counts_at,
                      const uint chunks,
                      const uint k,
                      const uint size)
{
  const uint at = get_global_id (0);

  if (at < size)
    {
      float total = 0.0f;

      for (uint g = 0; g < chunks; g++)
        total += partial_sums[(size_t) g * size + at];
      sums[at] = total;
    }
  if (at < k)
    {
      int count = 0;
      float total = 0.0f;

      for (uint g = 0; g < chunks; g++)
        {
          count += partial_counts[(size_t) g * k + at];
          total += partial_sqnorm[(size_t) g * k + at];
        }
      counts[at] = count;
      figures[counts_at + at] = as_float (count);
      sqnorm[at] = total;
    }
}

/* The centers moved to their clusters' means on the device, between two
 * passes without bounds, so the host neither reads the sums nor writes the
 * centers back (a GPU step is a millisecond; those copies and the host's
 * loops were a third of it). Group c divides the sums of cluster c by its
 * count (a cluster without rows keeps its center) and leaves the new
 * center's |c|² in cnorm[c] and how far it moved, squared, in
 * figures[moved_at + c] (the step's figures, read back in one copy).
 * Layout: sums and centers k × dp (centers has kp rows; the padding rows
 * stay zero), counts and cnorm k. */
#ifndef UPDATE_GROUP
#define UPDATE_GROUP 64
#endif

__kernel __attribute__ ((reqd_work_group_size (UPDATE_GROUP, 1, 1))) void
kmeans_update (__global const float *LATENT_RESTRICT sums,
               __global const int   *LATENT_RESTRICT counts,
               __global float       *LATENT_RESTRICT centers,
               __global float       *LATENT_RESTRICT cnorm,
               __global float       *LATENT_RESTRICT figures,
               const uint moved_at,
               const uint dp)
{
  __local float2 part[UPDATE_GROUP];
  const uint c = get_group_id (0), lid = get_local_id (0);
  const int count = counts[c];
  float norm = 0.0f, move = 0.0f;

  for (uint f = lid; f < dp; f += UPDATE_GROUP)
    {
      const size_t at = (size_t) c * dp + f;
      const float old = centers[at];
      const float now = count > 0 ? sums[at] / (float) count : old;

      centers[at] = now;
      norm = fma (now, now, norm);
      move = fma (now - old, now - old, move);
    }
  part[lid] = (float2) (norm, move);
  for (uint s = UPDATE_GROUP / 2; s > 0; s /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      if (lid < s)
        part[lid] += part[lid + s];
    }
  if (lid == 0)
    {
      cnorm[c] = part[0].x;
      figures[moved_at + c] = part[0].y;
    }
}

#endif /* LATENT_GPU */

/* ---- k-means++'s trials ----------------------------------------------------
 *
 * kmeans_seed scores the candidates for k-means++'s next center: for row i
 * and candidate t, out[t · n + i] = min (closest[i], |x_i − cand_t|²), and
 * each work-item (CPU shape) or group (GPU shape) leaves Σ_i of those in
 * partial[· · tp + t]; the host keeps the candidate with the smallest sum.
 * Distances come from differences, as in the host's reference, so a row is
 * at exactly 0 from itself. Layout: x n × dp as above, cand tp × dp (tp a
 * multiple of 4, at most SEED_MAX_TRIALS; the sums of padding candidates
 * are ignored), closest n, out tp × n, partial (items or groups)
 * × tp.
 *
 * CPU shape: work-item g owns rows [g·rows, (g+1)·rows) and takes each row
 * against four candidates at a time in VEC-wide accumulators; a row stays in
 * the first-level cache between the fours, so the data is read once. GPU
 * shape: a group of SEED_GROUP work-items takes one row at a time, each
 * work-item a strided slice of its columns (consecutive work-items read
 * consecutive addresses), and adds the four dot products in local memory.
 */

#ifndef SEED_MAX_TRIALS
#define SEED_MAX_TRIALS 16
#endif

/* Row i's minima for candidates t0 … t0 + 3 into out, and into the sums. */
static inline void
seed_keep (__global float *LATENT_RESTRICT out,
           float4                         *pot,
           const float4                    d,
           const uint                      t0,
           const uint                      n,
           const uint                      i)
{
  out[(size_t) t0 * n + i] = d.x;
  out[(size_t) (t0 + 1) * n + i] = d.y;
  out[(size_t) (t0 + 2) * n + i] = d.z;
  out[(size_t) (t0 + 3) * n + i] = d.w;
  pot[t0 / 4] += d;
}

#ifndef LATENT_GPU

__kernel void
kmeans_seed (__global const vec_t *LATENT_RESTRICT x,
             __global const vec_t *LATENT_RESTRICT cand,
             __global const float *LATENT_RESTRICT closest,
             __global float       *LATENT_RESTRICT out,
             __global float       *LATENT_RESTRICT partial,
             const uint n,
             const uint dv,
             const uint tp,
             const uint rows)
{
  const uint g = get_global_id (0);
  const uint begin = min (n, g * rows), end = min (n, begin + rows);
  float4 pot[SEED_MAX_TRIALS / 4];

  for (uint q = 0; q < tp / 4; q++)
    pot[q] = 0.0f;
  for (uint i = begin; i < end; i++)
    {
      __global const vec_t *row = x + (size_t) i * dv;

#ifdef HAVE_PREFETCH
      if (i + PREFETCH_AHEAD < end)
        for (uint b = 0; b < dv * VEC * 4; b += 64)
          __builtin_prefetch ((__global const char *) (row + PREFETCH_AHEAD * dv) + b, 0, 2);
#endif
      for (uint t0 = 0; t0 < tp; t0 += 4)
        {
          __global const vec_t *c = cand + (size_t) t0 * dv;
          vec_t a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
          float4 d;

          for (uint j = 0; j < dv; j++)
            {
              const vec_t v = row[j];
              const vec_t u0 = v - c[j], u1 = v - c[dv + j], u2 = v - c[2 * dv + j], u3 = v - c[3 * dv + j];
              a0 = fma (u0, u0, a0);
              a1 = fma (u1, u1, a1);
              a2 = fma (u2, u2, a2);
              a3 = fma (u3, u3, a3);
            }
          d = fmin ((float4) (hsum (a0), hsum (a1), hsum (a2), hsum (a3)), closest[i]);
          seed_keep (out, pot, d, t0, n, i);
        }
    }
  for (uint q = 0; q < tp / 4; q++)
    vstore4 (pot[q], q, partial + (size_t) g * tp);
}

/* The same from the 8-bit copy, where it is the rows (images: every value
 * on the copy's grid, so |x − x̃| is rounding): a quarter of the bytes.
 * cand holds the candidates' codes as floats (tp × dp), so the distance is
 * step² Σ (q_x − q_c)², exact in the codes. */
__kernel void
kmeans_seed_copy (__global const qvec_t *LATENT_RESTRICT xq,
                  __global const vec_t  *LATENT_RESTRICT cand,
                  __global const float  *LATENT_RESTRICT closest,
                  __global float        *LATENT_RESTRICT out,
                  __global float        *LATENT_RESTRICT partial,
                  const float step2,
                  const uint n,
                  const uint dv,
                  const uint tp,
                  const uint rows)
{
  const uint g = get_global_id (0);
  const uint begin = min (n, g * rows), end = min (n, begin + rows);
  float4 pot[SEED_MAX_TRIALS / 4];

  for (uint q = 0; q < tp / 4; q++)
    pot[q] = 0.0f;
  for (uint i = begin; i < end; i++)
    {
      __global const qvec_t *row = xq + (size_t) i * dv;

#ifdef HAVE_PREFETCH
      if (i + PREFETCH_AHEAD < end)
        for (uint b = 0; b < dv * VEC; b += 64)
          __builtin_prefetch ((__global const uchar *) (row + PREFETCH_AHEAD * dv) + b, 0, 2);
#endif
      for (uint t0 = 0; t0 < tp; t0 += 4)
        {
          __global const vec_t *c = cand + (size_t) t0 * dv;
          vec_t a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
          float4 d;

          for (uint j = 0; j < dv; j++)
            {
              const vec_t v = convert_vec (row[j]);
              const vec_t u0 = v - c[j], u1 = v - c[dv + j], u2 = v - c[2 * dv + j], u3 = v - c[3 * dv + j];
              a0 = fma (u0, u0, a0);
              a1 = fma (u1, u1, a1);
              a2 = fma (u2, u2, a2);
              a3 = fma (u3, u3, a3);
            }
          d = fmin (step2 * (float4) (hsum (a0), hsum (a1), hsum (a2), hsum (a3)), closest[i]);
          seed_keep (out, pot, d, t0, n, i);
        }
    }
  for (uint q = 0; q < tp / 4; q++)
    vstore4 (pot[q], q, partial + (size_t) g * tp);
}

#else /* LATENT_GPU */

#ifndef SEED_GROUP
#define SEED_GROUP 64
#endif

__kernel __attribute__ ((reqd_work_group_size (SEED_GROUP, 1, 1))) void
kmeans_seed (__global const float *LATENT_RESTRICT x,
             __global const float *LATENT_RESTRICT cand,
             __global const float *LATENT_RESTRICT closest,
             __global float       *LATENT_RESTRICT out,
             __global float       *LATENT_RESTRICT partial,
             const uint n,
             const uint dv,
             const uint tp,
             const uint rows)
{
  __local float4 sum[SEED_GROUP];
  const uint l = get_local_id (0), group = get_group_id (0), groups = get_num_groups (0);
  const uint dp = dv * VEC;
  float4 pot[SEED_MAX_TRIALS / 4];

  (void) rows;
  for (uint q = 0; q < tp / 4; q++)
    pot[q] = 0.0f;
  for (uint i = group; i < n; i += groups)
    for (uint t0 = 0; t0 < tp; t0 += 4)
      {
        __global const float *c = cand + (size_t) t0 * dp;
        float4 acc = 0.0f;

        for (uint f = l; f < dp; f += SEED_GROUP)
          {
            const float4 u = x[(size_t) i * dp + f] - (float4) (c[f], c[dp + f], c[2 * dp + f], c[3 * dp + f]);
            acc = fma (u, u, acc);
          }
        sum[l] = acc;
        barrier (CLK_LOCAL_MEM_FENCE);
        for (uint s = SEED_GROUP / 2; s > 0; s >>= 1)
          {
            if (l < s)
              sum[l] += sum[l + s];
            barrier (CLK_LOCAL_MEM_FENCE);
          }
        if (l == 0)
          {
            const float4 d = fmin (sum[0], closest[i]);

            seed_keep (out, pot, d, t0, n, i);
          }
        /* Nobody writes sum for the next four until work-item 0 has read it. */
        barrier (CLK_LOCAL_MEM_FENCE);
      }
  if (l == 0)
    for (uint q = 0; q < tp / 4; q++)
      vstore4 (pot[q], q, partial + (size_t) group * tp);
}

#endif /* LATENT_GPU */
