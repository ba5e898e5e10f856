/* wta.cl — the winner-take-all autoencoder's step beside its one dense
 * product: gathering a mini-batch, choosing the winners, decoding from
 * them, and the backward pass with the optimiser's update, all of which
 * touch only the winners
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: every matrix is row-major float32. data is the dataset, n × d;
 * order holds row indices; a mini-batch x and its errors e are rows × d.
 * The codes are kept transposed, zt as h × rows (one row per hidden unit),
 * as latent-gemm writes W · Xᵀ: a unit's activations across the batch are
 * contiguous, which lifetime sparsity and the per-unit backward pass walk.
 * The weights w and wd are h × d (wd is w when tied); b has h values, c d.
 *
 * After selection about rate · h units of a row are positive (5 % by
 * default), so the decoder, the code gradient and both weight gradients
 * are sums over winners only: work proportional to the winners, not to
 * h · d · rows. Only the encoder's product W · Xᵀ stays dense.
 *
 * Vectors: column runs go 16 floats at a time (float16), a tail one by one.
 *
 * The GPU shape (LATENT_GPU) replaces the two kernels that walk columns
 * inside one work-item: wta_decode takes a work-group of DECODE_WG per row
 * and wta_units one of UNITS_WG per hidden unit, each work-item a column
 * at a time, so neighbouring work-items read neighbouring floats and a
 * batch keeps thousands of work-items busy; sums over columns are tree
 * reductions in local memory (both sizes powers of two).
 *
 * Subnormals are flushed to zero (-cl-denorms-are-zero, as every
 * program): an activation, gradient or optimiser moment below 1.2e-38
 * (the optimiser's moments of a unit that stopped winning decay into that
 * range) changes no weight by a representable amount.
 */

#define VEC 16

#ifdef LATENT_GPU
#ifndef DECODE_WG
#define DECODE_WG 128
#endif
#ifndef UNITS_WG
#define UNITS_WG 128
#endif

/* The sum of V over the work-group, returned to every work-item; SCRATCH
 * holds a value per work-item (a power of two). The barriers are reached
 * by the whole group. */
static inline float
tree_sum (const float v,
          __local float *scratch)
{
  const uint l = get_local_id (0);
  float total;

  scratch[l] = v;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint span = get_local_size (0) / 2; span > 0; span /= 2)
    {
      if (l < span)
        scratch[l] += scratch[l + span];
      barrier (CLK_LOCAL_MEM_FENCE);
    }
  total = scratch[0];
  /* No work-item may overwrite scratch[0] before all have read it. */
  barrier (CLK_LOCAL_MEM_FENCE);
  return total;
}
#endif

/* x[r][a] = (data[order[first + r]][a] − offset[a]) · scale[a]; work-item
 * (a, r). */
__kernel void
wta_gather (__global const float *LATENT_RESTRICT data,
            __global const uint *LATENT_RESTRICT order,
            const uint first,
            const uint d,
            __global const float *LATENT_RESTRICT offset,
            __global const float *LATENT_RESTRICT scale,
            __global float *LATENT_RESTRICT x)
{
  const uint a = get_global_id (0), r = get_global_id (1);

  if (a < d)
    x[(size_t) r * d + a] = (data[(size_t) order[first + r] * d + a] - offset[a]) * scale[a];
}

/* The first n (< 16) values at z, then zeros: a run's end, read without
 * touching what other work-items write after it. */
static inline float16
load_tail (__global const float *z,
           const uint n)
{
  float v[VEC];

  for (uint l = 0; l < VEC; l++)
    v[l] = l < n ? z[l] : 0.0f;
  return vload16 (0, v);
}

/* The best (value, index) of the count activations ReLU(z + bias) after
 * (tv, ti) in the ranking (larger values first, ties to the lower index),
 * 16 at a time. */
static inline void
next_best (__global const float *z,
           const float bias,
           const uint count,
           float *tv,
           int *ti)
{
  const int16 lane = (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  float16 best = -1.0f;
  int16 at = INT_MAX;
  float8 b8;
  float4 b4;
  float m;
  int8 a8;
  int4 a4;

  for (uint i = 0; i < count; i += VEC)
    {
      const int16 index = (int) i + lane;
      const float16 raw = i + VEC <= count ? vload16 (0, z + i) : load_tail (z + i, count - i);
      const float16 v = fmax (raw + bias, 0.0f);
      const int16 eligible = (index < (int) count) & ((v < *tv) | ((v == *tv) & (index > *ti)));
      const int16 better = eligible & (v > best);

      best = select (best, v, better);
      at = select (at, index, better);
    }
  /* Across lanes: the largest value, and of its lanes the lowest index. */
  b8 = fmax (best.lo, best.hi);
  b4 = fmax (b8.lo, b8.hi);
  m = fmax (fmax (b4.x, b4.y), fmax (b4.z, b4.w));
  at = select ((int16) INT_MAX, at, best == m);
  a8 = min (at.lo, at.hi);
  a4 = min (a8.lo, a8.hi);
  *tv = m;
  *ti = min (min (a4.x, a4.y), min (a4.z, a4.w));
}

/* The winners of one group of count activations ReLU(z + bias), at
 * z[group · outer + i · inner]: a unit's activations across the batch
 * (lifetime sparsity: inner = 1, outer = rows, the bias is the group's) or
 * a row's units (k-sparse: inner = rows, outer = 1, the bias is the
 * element's). Ranked by value, ties to the lower index; the k best are
 * kept and the rest set to 0, in place. k ≥ count keeps all: a plain ReLU.
 * One work-item per group, k passes each taking the best value after the
 * last one taken: 16 lanes at a time where the group is contiguous. */
__kernel void
wta_select (__global float *LATENT_RESTRICT z,
            __global const float *LATENT_RESTRICT bias,
            const uint groups,
            const uint count,
            const uint inner,
            const uint outer,
            const uint bias_per_group,
            const uint k)
{
  const uint g = get_global_id (0);
  __global float *base = z + (size_t) g * outer;
  /* The last winner: every value up to it in the ranking wins. */
  float tv = -INFINITY;
  int ti = count;

  if (g >= groups)
    return;
#define ACTIVATION(i) fmax (base[(size_t) (i) * inner] + bias[bias_per_group ? g : (i)], 0.0f)
  if (k < count)
    {
      tv = INFINITY;
      ti = -1;
      for (uint pass = 0; pass < k; pass++)
        if (inner == 1 && bias_per_group)
          next_best (base, bias[g], count, &tv, &ti);
        else
          {
            int best = -1;
            float bv = 0.0f;

            for (uint i = 0; i < count; i++)
              {
                const float v = ACTIVATION (i);

                if ((v < tv || (v == tv && (int) i > ti)) && (best < 0 || v > bv))
                  {
                    best = i;
                    bv = v;
                  }
              }
            tv = bv;
            ti = best;
          }
    }
  for (uint i = 0; i < count; i++)
    {
      const float v = ACTIVATION (i);

      base[(size_t) i * inner] = v > tv || (v == tv && (int) i <= ti) ? v : 0.0f;
    }
#undef ACTIVATION
}

/* Each row's positive codes as a list: count[r] units, their indices in
 * idx[r · h …] and values in val[r · h …], ascending. Work-item r. */
__kernel void
wta_compact (__global const float *LATENT_RESTRICT zt,
             const uint h,
             const uint rows,
             __global uint *LATENT_RESTRICT count,
             __global uint *LATENT_RESTRICT idx,
             __global float *LATENT_RESTRICT val)
{
  const uint r = get_global_id (0);
  uint n = 0;

  for (uint j = 0; j < h; j++)
    {
      const float s = zt[(size_t) j * rows + r];

      if (s > 0.0f)
        {
          idx[(size_t) r * h + n] = j;
          val[(size_t) r * h + n] = s;
          n++;
        }
    }
  count[r] = n;
}

/* Column a of row r's reconstruction: x̂ = c + Σ over the row's N winners
 * (UNITS, with codes CODES) of s · wd[unit], and e = (x̂ − x) · inv_rows;
 * returns (x̂ − x)². */
static inline float
decode_column (const uint a,
               const size_t row,
               const uint n,
               const uint d,
               __global const uint *units,
               __global const float *codes,
               __global const float *wd,
               __global const float *c,
               __global const float *x,
               __global float *xhat,
               __global float *e,
               const float inv_rows)
{
  float acc = c[a], diff;

  for (uint t = 0; t < n; t++)
    acc = fma (codes[t], wd[(size_t) units[t] * d + a], acc);
  diff = acc - x[row + a];
  xhat[row + a] = acc;
  e[row + a] = diff * inv_rows;
  return diff * diff;
}

/* x̂ and e of every column of the batch's rows, and the loss Σ(x̂ − x)²
 * in partial sums. CPU shape: work-item (block of VEC columns, r), its sum
 * in partial[r · blocks + block]. GPU shape: work-group r of DECODE_WG
 * work-items, each a column at a time, the row's sum in partial[r]. */
#ifdef LATENT_GPU
#define DECODE_GROUP __attribute__((reqd_work_group_size (DECODE_WG, 1, 1)))
#else
#define DECODE_GROUP
#endif
__kernel DECODE_GROUP void
wta_decode (__global const uint *LATENT_RESTRICT count,
            __global const uint *LATENT_RESTRICT idx,
            __global const float *LATENT_RESTRICT val,
            __global const float *LATENT_RESTRICT wd,
            __global const float *LATENT_RESTRICT c,
            __global const float *LATENT_RESTRICT x,
            __global float *LATENT_RESTRICT xhat,
            __global float *LATENT_RESTRICT e,
            __global float *LATENT_RESTRICT partial,
            const uint h,
            const uint d,
            const float inv_rows)
{
#ifndef LATENT_GPU
  const uint block = get_global_id (0), r = get_global_id (1), blocks = get_global_size (0);
  const uint a0 = block * VEC, n = count[r];
  __global const uint *units = idx + (size_t) r * h;
  __global const float *codes = val + (size_t) r * h;
  const size_t row = (size_t) r * d;
  float sum = 0.0f;

  if (a0 + VEC <= d)
    {
      float16 acc = vload16 (0, c + a0), diff;

      for (uint t = 0; t < n; t++)
        acc = fma ((float16) codes[t], vload16 (0, wd + (size_t) units[t] * d + a0), acc);
      diff = acc - vload16 (0, x + row + a0);
      vstore16 (acc, 0, xhat + row + a0);
      vstore16 (diff * inv_rows, 0, e + row + a0);
      diff *= diff;
      sum = diff.s0 + diff.s1 + diff.s2 + diff.s3 + diff.s4 + diff.s5 + diff.s6 + diff.s7 +
            diff.s8 + diff.s9 + diff.sa + diff.sb + diff.sc + diff.sd + diff.se + diff.sf;
    }
  else
    for (uint a = a0; a < d; a++)
      sum += decode_column (a, row, n, d, units, codes, wd, c, x, xhat, e, inv_rows);
  partial[(size_t) r * blocks + block] = sum;
#else
  __local float sums[DECODE_WG];
  const uint l = get_local_id (0), r = get_group_id (1), n = count[r];
  __global const uint *units = idx + (size_t) r * h;
  __global const float *codes = val + (size_t) r * h;
  const size_t row = (size_t) r * d;
  float sum = 0.0f;

  for (uint a = l; a < d; a += DECODE_WG)
    sum += decode_column (a, row, n, d, units, codes, wd, c, x, xhat, e, inv_rows);
  sum = tree_sum (sum, sums);
  if (l == 0)
    partial[r] = sum;
#endif
}

/* Column a of a unit's rows (from UNIT): the encoder's and decoder's
 * gradients summed over the N rows the unit won (WON, with codes S and
 * code gradients DZ), then the optimiser's step on both (one, tied). */
static inline void
step_column (const uint a,
             const size_t unit,
             const uint n,
             const uint d,
             __global const float *dz,
             __global const float *s,
             __global const uint *won,
             __global const float *x,
             __global const float *e,
             __global float *w,
             __global float *wd,
             __global float *vw,
             __global float *vwd,
             __global float *sw,
             __global float *swd,
             const uint tied,
             const float lr,
             const float mu,
             const float eps,
             const uint adam)
{
  float gw = 0.0f, gd = 0.0f, p, v, m2;

  for (uint t = 0; t < n; t++)
    {
      gw = fma (dz[t], x[(size_t) won[t] * d + a], gw);
      gd = fma (s[t], e[(size_t) won[t] * d + a], gd);
    }
  if (tied)
    gw += gd;
  else
    {
      p = wd[unit + a];
      v = vwd[unit + a];
      m2 = adam ? swd[unit + a] : 0.0f;
      LATENT_OPTIMISER_STEP (p, v, m2, gd);
      wd[unit + a] = p;
      vwd[unit + a] = v;
      if (adam)
        swd[unit + a] = m2;
    }
  p = w[unit + a];
  v = vw[unit + a];
  m2 = adam ? sw[unit + a] : 0.0f;
  LATENT_OPTIMISER_STEP (p, v, m2, gw);
  w[unit + a] = p;
  vw[unit + a] = v;
  if (adam)
    sw[unit + a] = m2;
}

/* The optimiser's step on bias j with gradient G. */
static inline void
step_bias (const uint j,
           const float g,
           __global float *b,
           __global float *vb,
           __global float *sb,
           const float lr,
           const float mu,
           const float eps,
           const uint adam)
{
  float p = b[j], v = vb[j], m2 = adam ? sb[j] : 0.0f;

  LATENT_OPTIMISER_STEP (p, v, m2, g);
  b[j] = p;
  vb[j] = v;
  if (adam)
    sb[j] = m2;
}

/* The backward pass and update of one hidden unit j, work-item j:
 *   ∂z[r] = e[r] · wd[j] where the code s = zt[j][r] is positive, else 0;
 *   ∂b[j] = Σ_r ∂z[r];  ∂w[j] = Σ_r ∂z[r] x[r];  ∂wd[j] = Σ_r s[r] e[r]
 * (the two summed into w when tied), then the optimiser's step on the
 * unit's rows and bias. Every value is stepped, winners or not: momentum
 * carries on without a gradient. A unit's gradient reads only its own rows
 * of w and wd, so the units update in place without a barrier. The first
 * pass lists the rows the unit won (hits, h × rows) with their codes
 * (compacted into zt's row, which nothing reads after this kernel) and
 * ∂z (dzt); the sums then walk that list only. wins[j] counts the rows.
 * GPU shape: unit j is work-group j of UNITS_WG work-items; work-item 0
 * lists the rows the unit won, in order (a batch is short), each ∂z is a
 * dot product of d columns summed over the group, then each work-item
 * sums and steps the columns a ≡ its id (mod UNITS_WG). */
#ifdef LATENT_GPU
#define UNITS_GROUP __attribute__((reqd_work_group_size (UNITS_WG, 1, 1)))
#else
#define UNITS_GROUP
#endif
__kernel UNITS_GROUP void
wta_units (__global float *LATENT_RESTRICT zt,
           __global float *LATENT_RESTRICT dzt,
           __global uint *LATENT_RESTRICT hits,
           __global const float *LATENT_RESTRICT e,
           __global const float *LATENT_RESTRICT x,
           __global float *w,
           __global float *wd,
           __global float *LATENT_RESTRICT b,
           __global float *vw,
           __global float *vwd,
           __global float *LATENT_RESTRICT vb,
           __global float *sw,
           __global float *swd,
           __global float *LATENT_RESTRICT sb,
           __global uint *LATENT_RESTRICT wins,
           const uint h,
           const uint rows,
           const uint d,
           const uint tied,
           const float lr,
           const float mu,
           const float eps,
           const uint adam)
{
#ifndef LATENT_GPU
  const uint j = get_global_id (0);
  const size_t unit = (size_t) j * d;
  __global float *s = zt + (size_t) j * rows;
  __global float *dz = dzt + (size_t) j * rows;
  __global uint *won = hits + (size_t) j * rows;
  float db = 0.0f;
  uint n = 0, a = 0;

  if (j >= h)
    return;
  for (uint r = 0; r < rows; r++)
    {
      const float code = s[r];
      __global const float *er = e + (size_t) r * d;
      float16 acc = 0.0f;
      float g;
      uint c = 0;

      if (!(code > 0.0f))
        continue;
      for (; c + VEC <= d; c += VEC)
        acc = fma (vload16 (0, er + c), vload16 (0, wd + unit + c), acc);
      g = acc.s0 + acc.s1 + acc.s2 + acc.s3 + acc.s4 + acc.s5 + acc.s6 + acc.s7 +
          acc.s8 + acc.s9 + acc.sa + acc.sb + acc.sc + acc.sd + acc.se + acc.sf;
      for (; c < d; c++)
        g = fma (er[c], wd[unit + c], g);
      won[n] = r;
      s[n] = code;   /* n ≤ r: that value was read already */
      dz[n] = g;
      db += g;
      n++;
    }
  wins[j] += n;

  for (; a + VEC <= d; a += VEC)
    {
      float16 gw = 0.0f, gd = 0.0f, p, v, m2;

      for (uint t = 0; t < n; t++)
        {
          gw = fma ((float16) dz[t], vload16 (0, x + (size_t) won[t] * d + a), gw);
          gd = fma ((float16) s[t], vload16 (0, e + (size_t) won[t] * d + a), gd);
        }
      if (tied)
        gw += gd;
      else
        {
          p = vload16 (0, wd + unit + a);
          v = vload16 (0, vwd + unit + a);
          m2 = adam ? vload16 (0, swd + unit + a) : 0.0f;
          LATENT_OPTIMISER_STEP (p, v, m2, gd);
          vstore16 (p, 0, wd + unit + a);
          vstore16 (v, 0, vwd + unit + a);
          if (adam)
            vstore16 (m2, 0, swd + unit + a);
        }
      p = vload16 (0, w + unit + a);
      v = vload16 (0, vw + unit + a);
      m2 = adam ? vload16 (0, sw + unit + a) : 0.0f;
      LATENT_OPTIMISER_STEP (p, v, m2, gw);
      vstore16 (p, 0, w + unit + a);
      vstore16 (v, 0, vw + unit + a);
      if (adam)
        vstore16 (m2, 0, sw + unit + a);
    }
  for (; a < d; a++)
    step_column (a, unit, n, d, dz, s, won, x, e, w, wd, vw, vwd, sw, swd, tied, lr, mu, eps, adam);
  step_bias (j, db, b, vb, sb, lr, mu, eps, adam);
#else
  __local float sums[UNITS_WG];
  __local uint won_count;
  const uint j = get_group_id (0), l = get_local_id (0);
  const size_t unit = (size_t) j * d;
  __global float *s = zt + (size_t) j * rows;
  __global float *dz = dzt + (size_t) j * rows;
  __global uint *won = hits + (size_t) j * rows;
  float db = 0.0f;
  uint n;

  if (l == 0)
    {
      n = 0;
      for (uint r = 0; r < rows; r++)
        {
          const float code = s[r];

          if (code > 0.0f)
            {
              won[n] = r;
              s[n] = code;   /* n ≤ r: that value was read already */
              n++;
            }
        }
      won_count = n;
      wins[j] += n;
    }
  barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  n = won_count;

  for (uint t = 0; t < n; t++)
    {
      __global const float *er = e + (size_t) won[t] * d;
      float g = 0.0f;

      for (uint a = l; a < d; a += UNITS_WG)
        g = fma (er[a], wd[unit + a], g);
      g = tree_sum (g, sums);
      if (l == 0)
        dz[t] = g;
      db += g;
    }
  /* Every work-item reads the ∂z work-item 0 wrote. */
  barrier (CLK_GLOBAL_MEM_FENCE);

  for (uint a = l; a < d; a += UNITS_WG)
    step_column (a, unit, n, d, dz, s, won, x, e, w, wd, vw, vwd, sw, swd, tied, lr, mu, eps, adam);
  if (l == 0)
    step_bias (j, db, b, vb, sb, lr, mu, eps, adam);
#endif
}

/* ∂c[a] = Σ_r e[r][a] and the optimiser's step on c; work-item a. */
__kernel void
wta_decoder_bias (__global const float *LATENT_RESTRICT e,
                  __global float *LATENT_RESTRICT c,
                  __global float *LATENT_RESTRICT vc,
                  __global float *LATENT_RESTRICT sc,
                  const uint rows,
                  const uint d,
                  const float lr,
                  const float mu,
                  const float eps,
                  const uint adam)
{
  const uint a = get_global_id (0);
  float g = 0.0f;

  if (a >= d)
    return;
  for (uint r = 0; r < rows; r++)
    g += e[(size_t) r * d + a];
  step_bias (a, g, c, vc, sc, lr, mu, eps, adam);
}
