/* kmeans.cl — the k-means assignment pass: exact, and with bounds that skip
 * the rows whose cluster cannot change. What both kernel shapes share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The program is this file, then kmeans-cpu.cl or kmeans-gpu.cl, chosen by
 * the device's kernel shape when engine/cl/latent-cl.c assembles it; each
 * holds the kernels only its shape has. Here: the helpers, the bounded
 * passes' work on rows (hamerly_rows, elkan_row; the kernels around them
 * are the shapes'), kmeans_center_gaps, kmeans_quantize and k-means++'s
 * bookkeeping.
 *
 * The full pass takes every row against every center: the squared
 * distances come from |x|² + |c|² − 2 x·c, and the nearest center's
 * distance is then recomputed from differences, which do not cancel. It
 * also leaves the bounds the next passes use.
 *
 * kmeans_elkan (Elkan, 2003) gives the same assignment without visiting most
 * rows: each row keeps an upper bound on the distance to its center and a
 * lower bound on the distance to every other (halves, rounded down). When
 * the centers move, the bounds move by at most as much; a center whose lower
 * bound, or half its distance from the row's center, exceeds the upper bound
 * cannot take the row. Bounds are tightened first from an 8-bit copy of the
 * rows (kmeans_quantize), whose error |x − x̃| is known per row, so most rows
 * cost a quarter of their bytes; only close calls read the floats.
 * kmeans_hamerly (Hamerly, 2010) keeps a single lower bound per row, for
 * when Elkan's n × k bounds do not fit. A row that changes cluster goes
 * through move_row, which each shape defines.
 *
 * Layout: x is n × dp floats, row-major, dp a multiple of VEC with zero
 * padding, so every row starts on a vector boundary and is read as vec_t
 * (buffers are aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN); dv = dp / VEC.
 * centers is kp × dp with kp a multiple of 4 (padding rows are zero and never
 * chosen). Per-cluster sums are k × dp, counts and Σ|x|² (sqnorm, for the
 * inertia) k; how they are split among work-items or chunks is the shape's.
 * The copy: xq n × dp codes, xerr n float2 (|x − x̃|, |q|²), centers_q
 * kp × dp floats and centers_i kp × dp int16 (the centers in the copy's
 * units, and rounded), cinfo kp float2.
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

/* A row changes cluster: its label, and where the shape keeps them
 * (kmeans-cpu.cl) the work-item's sums, counts and squared norms of both
 * clusters; kmeans-gpu.cl rebuilds those from the labels after the pass. */
static inline void move_row (const uint row,
                             const int from,
                             const int to,
                             __global const vec_t *LATENT_RESTRICT x,
                             const float xn,
                             __global int *LATENT_RESTRICT labels,
                             __global vec_t *LATENT_RESTRICT sums,
                             __global int *LATENT_RESTRICT counts,
                             __global float *LATENT_RESTRICT sqnorm,
                             const uint dv);

/* The lower bound from the second-nearest squared distance, less the
 * rounding the expanded form can make. */
static inline float
lower_bound (const float second,
             const float xn,
             const float cnmax)
{
  return sqrt (fmax (second - SLACK * (xn + cnmax), 0.0f));
}

/* Hamerly's pass over rows [begin, end): the kernels kmeans_hamerly of
 * both shapes. move[c]: how far center c moved; move_max, move_second: the
 * largest and second-largest moves, move_argmax: the center that moved
 * most. half_gap[c]: half the distance from center c to its nearest other
 * center. SUMS, COUNTS and SQNORM go to move_row. Returns how many
 * distances the rows cost (the pass's visit count). */
static inline uint
hamerly_rows (__global const vec_t *LATENT_RESTRICT x,
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
              __global vec_t       *LATENT_RESTRICT sums,
              __global int         *LATENT_RESTRICT counts,
              __global float       *LATENT_RESTRICT sqnorm,
              const uint begin,
              const uint end,
              const uint k,
              const uint dv,
              const float cnmax,
              const float move_max,
              const float move_second,
              const int move_argmax)
{
  uint queue[4];
  uint queued = 0, visited = 0;

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
  return visited;
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

/* Elkan's variant (2003) for larger k, one row at a time: the kernels
 * kmeans_elkan of both shapes. A lower bound per row and center (lowers,
 * n × kl halves, rounded down, with kl = k rounded up to 16), and the
 * center-to-center distances (center_dist, k × kl, padding INFINITY), so a
 * row is compared only with the few centers its bounds cannot rule out.
 * Bounds are updated and tested 16 centers at a time; only a block with a
 * candidate falls back to scalar code. Each distance is one vector pass
 * over the row. A stored bound is the bound plus its center's drift
 * (drift[c], how far it has moved since the host last zeroed it), so a
 * bound stays true without being written again each pass: a block its row
 * leaves alone is only read, and halves are rounded once, not once a pass.
 * With rebase, the pass stores every bound as it is, and the host zeroes
 * the drifts after it.
 *
 * Row i, of center OLD and upper bound U (moved by its center's move):
 * stores its bounds and returns its center, OLD or a nearer one; the
 * caller moves the row. VISITED counts the distances taken. */
static inline int
elkan_row (__global const vec_t *LATENT_RESTRICT x,
           __global const qvec_t *LATENT_RESTRICT xq,
           __global const vec_t *LATENT_RESTRICT centers_q,
           __global const short *LATENT_RESTRICT centers_i,
           __global const float2 *LATENT_RESTRICT cinfo,
           __global const float2 *LATENT_RESTRICT xerr,
           const float copy_step,
           __global const vec_t *LATENT_RESTRICT centers,
           __global const float *LATENT_RESTRICT drift,
           __global const float *LATENT_RESTRICT half_gap,
           __global const float *LATENT_RESTRICT center_dist,
           __global float       *LATENT_RESTRICT upper,
           __global half        *LATENT_RESTRICT lowers,
           const uint i,
           const int old,
           float u,
           const uint kl,
           const uint dv,
           const int rebase,
           uint *visited)
{
  __global const vec_t *xr = x + (size_t) i * dv;
  __global half *l = lowers + (size_t) i * kl;
  int now = old;
  bool tight = false, tight_copy = false;
  float own_lower = 0.0f;   /* the copy's lower bound for the row's center */
  /* A row closer to its center than half the gap to any other stays. */
  const bool settled = u * (1.0f + SLACK) <= half_gap[old];

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
              (*visited)++;
              if (u * (1.0f + SLACK) <= z)
                continue;
            }
          /* The copy's bounds on |x − c_j| may rule j out too, */
          {
            const float2 other = COPY_BOUNDS (i, j);

            lj = other.x;
            lanes[j - jc] = lj;
            (*visited)++;
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
  return now;
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
 * × tp. How the rows are shared out is each shape's (kmeans_seed in
 * kmeans-cpu.cl and kmeans-gpu.cl).
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
