/* kmeans-cpu.cl — the k-means kernels of the CPU shape (LATENT_GPU unset):
 * one work-item walks many rows with VEC-wide vectors, so a CPU device such
 * as PoCL fills its SIMD lanes from one work-item
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Assembled after kmeans.cl (its helpers, layout and bounded passes'
 * rows), by engine/cl/latent-cl.c for a CPU-shaped device.
 *
 * kmeans_assign is the full pass: for each block of 4 rows the dot products
 * with the centers in 4 × 4 vector accumulators (nearest4). While the rows
 * are still in cache, they are added to the work-item's own per-cluster
 * sums, so the pass reads the data once. kmeans_assign_lanes is the same
 * pass, without bounds, for rows of at most four columns (a pixel's colour,
 * a point of the plane): 16 rows to a float16, one per lane, as such rows
 * cost less to assign afresh than their bounds cost to keep. The bounded
 * passes (kmeans_hamerly, kmeans_elkan) keep those sums up to date as rows
 * change cluster, and Elkan's pass tests rows ahead and fetches their
 * copies before it needs them. kmeans_reduce sums the work-items' sums.
 *
 * Layout (beside kmeans.cl's): work-item g owns rows
 * [g·rows_per_item, (g+1)·rows_per_item) and the slices g of partial_sums
 * (items × k × dp), partial_counts (items × k), partial_sqnorm (items × k)
 * and partial_inertia and partial_visited (items).
 */

/* The whole file is the CPU shape's; the guard keeps the kernels a
 * preprocessor lists per shape (tests/oclgrind/run-oclgrind) right. */
#ifndef LATENT_GPU

/* A row changes cluster (kmeans.cl): the work-item's sums, counts and
 * squared norms of both clusters follow it. */
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
}

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

/* Hamerly's pass (kmeans.cl, hamerly_rows) over the work-item's rows. */
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

  partial_visited[item] =
    hamerly_rows (x, xq, centers_q, centers_i, cinfo, xerr, copy_step, xnorm, centers, cnorm, move, half_gap,
                  labels, upper, lower, partial_sums + (size_t) item * k * dv, partial_counts + (size_t) item * k,
                  partial_sqnorm + (size_t) item * k, begin, end, k, dv, cnmax, move_max, move_second,
                  move_argmax);
}

/* Elkan's pass (kmeans.cl, elkan_row) over the work-item's rows. On a CPU
 * rows are tested ahead and their copies fetched (prefetch_bytes), and a
 * row's move waits for its floats. */
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
  const uint item = get_global_id (0);
  const uint begin = min (n, item * rows_per_item);
  const uint end = min (n, begin + rows_per_item);
  __global vec_t *sums = partial_sums + (size_t) item * k * dv;
  __global int *counts = partial_counts + (size_t) item * k;
  __global float *sqnorm = partial_sqnorm + (size_t) item * k;
  uint visited = 0;
  uint held = end;   /* a row whose move waits for its floats */
  int held_from = 0, held_to = 0;
  ulong ahead = 0;   /* bit r: row i + r is open; rows [i, scan) are tested */
  uint scan = begin, ahead_open = 0;

  for (uint i = begin; i < end; i++)
    {
      const int old = labels[i];
      const float u = upper[i] + move[old];
      int now;

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

      now = elkan_row (x, xq, centers_q, centers_i, cinfo, xerr, copy_step, centers, move + kl, half_gap,
                       center_dist, upper, lowers, i, old, u, kl, dv, rebase, &visited);
      if (now != old)
        {
          /* The row's floats are not in cache (only its copy was read):
           * they are fetched now and added when the next row moves, or at
           * the end, so the misses overlap other rows' work. */
          if (held < end)
            move_row (held, held_from, held_to, x + (size_t) held * dv, xnorm[held], labels, sums, counts, sqnorm, dv);
          held = i;
          held_from = old;
          held_to = now;
          prefetch_bytes (x + (size_t) i * dv, dv * VEC * sizeof (float));
        }
    }
  if (held < end)
    move_row (held, held_from, held_to, x + (size_t) held * dv, xnorm[held], labels, sums, counts, sqnorm, dv);

  partial_visited[item] = visited;
}

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

/* k-means++'s trials (kmeans.cl): work-item g owns rows [g·rows,
 * (g+1)·rows) and takes each row against four candidates at a time in
 * VEC-wide accumulators; a row stays in the first-level cache between the
 * fours, so the data is read once. */
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

#endif /* !LATENT_GPU */
