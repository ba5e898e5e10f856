/* kmeans-gpu.cl — the k-means kernels of the GPU shape (LATENT_GPU):
 * work-groups, coalesced loads and tiles in local memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Assembled after kmeans.cl (its helpers, layout and bounded passes'
 * rows), by engine/cl/latent-cl.c for a GPU-shaped device, or any device
 * with LATENT_KERNELS=gpu (the tests run it on PoCL).
 *
 * kmeans_assign_tiles treats the full pass as a product, a work-group per
 * TILE_ROWS rows with rows and centers staged in local memory, a
 * BLOCK_ROWS × BLOCK_CENTERS register block per work-item, then the
 * nearest center's distance recomputed from differences, one
 * partial_inertia per group; kmeans_nearest does the same from dot products
 * that the matrix product computed, for many centers. The sums are not
 * kept per work-item: kmeans_sums adds the rows of each cluster from the
 * labels (a group owns SUM_COLUMNS columns of SUM_ROWS rows for
 * SUM_CLUSTERS clusters, in local memory, each work-item one column, so no
 * two work-items touch the same word) into chunks × k × dp partials, and
 * kmeans_reduce_chunks sums the chunks on the device. The bounded passes
 * run one row per work-item in groups of ROW_GROUP, only relabel rows, and
 * reduce their visit counts per group; the sums are then rebuilt from the
 * labels. Without bounds, kmeans_update moves the centers to their means on
 * the device between passes, and a step reads back only its figures: the
 * groups' inertia, the centers' moves and the counts, in one buffer.
 *
 * Layout (beside kmeans.cl's): x and centers as there, read as floats
 * (dp per row); partial_inertia and partial_visited one per group; the
 * sums' partials chunks × k × dp, counts and Σ|x|² chunks × k.
 */

/* The whole file is the GPU shape's; the guard keeps the kernels a
 * preprocessor lists per shape (tests/oclgrind/run-oclgrind) right. */
#ifdef LATENT_GPU

/* The bounded passes' work-groups: one row per work-item. */
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

/* The sums are rebuilt from the labels after the pass (kmeans_sums). */
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
  labels[row] = to;
}

/* Hamerly's pass (kmeans.cl, hamerly_rows), one row per work-item; the
 * group's visit counts summed. */
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
  __local uint scratch[ROW_GROUP];
  const uint item = get_global_id (0);
  const uint begin = min (n, item * rows_per_item);
  const uint end = min (n, begin + rows_per_item);
  uint visited =
    hamerly_rows (x, xq, centers_q, centers_i, cinfo, xerr, copy_step, xnorm, centers, cnorm, move, half_gap,
                  labels, upper, lower, partial_sums + (size_t) item * k * dv, partial_counts + (size_t) item * k,
                  partial_sqnorm + (size_t) item * k, begin, end, k, dv, cnmax, move_max, move_second,
                  move_argmax);

  visited = group_sum (visited, scratch);
  if (get_local_id (0) == 0)
    partial_visited[get_group_id (0)] = visited;
}

/* Elkan's pass (kmeans.cl, elkan_row), one row per work-item; the group's
 * visit counts summed. */
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
  __local uint scratch[ROW_GROUP];
  const uint item = get_global_id (0);
  const uint begin = min (n, item * rows_per_item);
  const uint end = min (n, begin + rows_per_item);
  __global vec_t *sums = partial_sums + (size_t) item * k * dv;
  __global int *counts = partial_counts + (size_t) item * k;
  __global float *sqnorm = partial_sqnorm + (size_t) item * k;
  uint visited = 0;

  for (uint i = begin; i < end; i++)
    {
      const int old = labels[i];
      const float u = upper[i] + move[old];
      const int now = elkan_row (x, xq, centers_q, centers_i, cinfo, xerr, copy_step, centers, move + kl, half_gap,
                                 center_dist, upper, lowers, i, old, u, kl, dv, rebase, &visited);

      if (now != old)
        move_row (i, old, now, x + (size_t) i * dv, xnorm[i], labels, sums, counts, sqnorm, dv);
    }

  visited = group_sum (visited, scratch);
  if (get_local_id (0) == 0)
    partial_visited[get_group_id (0)] = visited;
}

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

/* k-means++'s trials (kmeans.cl): a group of SEED_GROUP work-items takes
 * one row at a time, each work-item a strided slice of its columns
 * (consecutive work-items read consecutive addresses), and adds the four
 * dot products in local memory. */
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
