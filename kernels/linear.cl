/* linear.cl — the one pass over the rows that PCA, PPCA and factor analysis
 * make before the Gram product: sum the rows per column after shifting
 * them by a vector close to the mean, and write the shifted rows (when
 * out is to be used, i.e. write != 0)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: x and out are n × d row-major float32 (the rows of the dataset).
 * shift has d values. Work-item (c, b) owns the 16 columns starting at 16·c
 * of the rows b·rows_per_item … b·rows_per_item + rows_per_item − 1 and
 * writes their sum to partial[b · d + column]; the host adds the partials
 * in double. With the shift near the mean the Gram product of the shifted
 * rows loses no precision to cancellation, and the host corrects it by the
 * small remaining offset exactly.
 *
 * The GPU shape (LATENT_GPU): work-item (c, b) owns column c alone, so
 * neighbouring work-items read neighbouring floats of a row.
 *
 * Subnormals are flushed to zero (-cl-denorms-are-zero, as every
 * program): a shifted value below 1.2e-38 adds nothing to a column's sum
 * or to the Gram product that follows.
 */

/* Column C of rows FIRST … LAST − 1, one value at a time. */
static inline void
shift_column (__global const float *LATENT_RESTRICT x,
              __global const float *LATENT_RESTRICT shift,
              __global float *LATENT_RESTRICT out,
              __global float *LATENT_RESTRICT partial,
              const uint c,
              const uint first,
              const uint last,
              const uint d,
              const uint block,
              const uint write)
{
  float sum = 0.0f;

  for (uint i = first; i < last; i++)
    {
      const float v = x[(ulong) i * d + c] - shift[c];

      if (write)
        out[(ulong) i * d + c] = v;
      sum += v;
    }
  partial[(ulong) block * d + c] = sum;
}

__kernel void
linear_shift (__global const float *LATENT_RESTRICT x,
              __global const float *LATENT_RESTRICT shift,
              __global float *LATENT_RESTRICT out,
              __global float *LATENT_RESTRICT partial,
              const uint n,
              const uint d,
              const uint rows_per_item,
              const uint write)
{
  const uint block = get_global_id (1);
  const uint first = block * rows_per_item;
  const uint last = min (n, first + rows_per_item);
  /* 16 columns a work-item on a CPU, one on a GPU. */
#ifdef LATENT_GPU
  const uint cols = 1;
#else
  const uint cols = 16;
#endif
  const uint col = get_global_id (0) * cols;

  if (col >= d || first >= n)
    return;
#ifndef LATENT_GPU
  if (col + 16 <= d)
    {
      const float16 s = vload16 (0, shift + col);
      float16 sum = 0.0f;

      for (uint i = first; i < last; i++)
        {
          const float16 v = vload16 (0, x + (ulong) i * d + col) - s;

          if (write)
            vstore16 (v, 0, out + (ulong) i * d + col);
          sum += v;
        }
      vstore16 (sum, 0, partial + (ulong) block * d + col);
      return;
    }
#endif
  for (uint c = col; c < min (d, col + cols); c++)
    shift_column (x, shift, out, partial, c, first, last, d, block, write);
}

/* ---- linear_pairs: the rows as 8-bit integers, for gemm's row pairs ------
 *
 * grid holds lo, step, 1 / step and tol. Value v of column c is taken as
 * lo + q · step with q = rint((v − lo) / step) in [0, 255], and stored as s = q − origin[c], |s| ≤
 * 255 (origin near the column's mean keeps the products small). Row pair
 * p goes to pairs[p · d + c] = s(2p) in the low 16 bits, s(2p + 1) in the
 * high ones (0 past the last row). A value off the grid (q out of range,
 * or v more than tol from lo + q · step, or not a number) is counted: the
 * host then keeps to floats. Work-item (g, b) owns the columns of
 * linear_shift's work-item g and the row pairs b · pairs_per_item …;
 * it writes its columns' sums of s to sums[b · d + c] and its count to
 * off[b · get_global_size (0) + g]. The CPU shape only: the GPU shape's
 * products take floats. */

#ifndef LATENT_GPU

/* A value's integer, and whether it is off the grid. */
static inline int
on_grid (const float v,
         const float4 grid,
         const int origin,
         int *off)
{
  const float q = rint ((v - grid.s0) * grid.s2);

  if (!(q >= 0.0f && q <= 255.0f && fabs (v - fma (q, grid.s1, grid.s0)) <= grid.s3))
    {
      (*off)++;
      return 0;
    }
  return (int) q - origin;
}

/* 1 in each lane whose value v (its point q) is off the grid, else 0:
 * isless etc. give −1 where true, so 1 + their & counts a value that fails
 * any; a NaN fails every test. */
static inline int16
off_grid16 (const float16 v,
            const float16 q,
            const float4 grid)
{
  return 1 + (isgreaterequal (q, 0.0f) & islessequal (q, 255.0f) &
              islessequal (fabs (v - fma (q, grid.s1, grid.s0)), grid.s3));
}

static inline int
lane_sum (const int16 v)
{
  const int8 a = v.lo + v.hi;
  const int4 b = a.lo + a.hi;
  const int2 c = b.lo + b.hi;

  return c.x + c.y;
}

static inline int
pairs_column (__global const float *LATENT_RESTRICT x,
              __global const int *LATENT_RESTRICT origin,
              __global int *LATENT_RESTRICT pairs,
              __global int *LATENT_RESTRICT sums,
              const float4 grid,
              const uint c,
              const uint first,
              const uint last,
              const uint n,
              const uint d,
              const uint block)
{
  int sum = 0, off = 0;

  for (uint p = first; p < last; p++)
    {
      const int even = on_grid (x[(ulong) 2 * p * d + c], grid, origin[c], &off);
      const int odd = 2 * p + 1 < n ? on_grid (x[(ulong) (2 * p + 1) * d + c], grid, origin[c], &off) : 0;

      pairs[(ulong) p * d + c] = (even & 0xffff) | (odd << 16);
      sum += even + odd;
    }
  sums[(ulong) block * d + c] = sum;
  return off;
}

__kernel void
linear_pairs (__global const float *LATENT_RESTRICT x,
              __global const int *LATENT_RESTRICT origin,
              __global int *LATENT_RESTRICT pairs,
              __global int *LATENT_RESTRICT sums,
              __global int *LATENT_RESTRICT off,
              const float4 grid,
              const uint n,
              const uint d,
              const uint pairs_per_item)
{
  const uint block = get_global_id (1);
  const uint kp = (n + 1) / 2;
  const uint first = block * pairs_per_item;
  const uint last = min (kp, first + pairs_per_item);
  const uint col = get_global_id (0) * 16;
  int count = 0;

  if (col >= d || first >= kp)
    return;
  if (col + 16 <= d)
    {
      const int16 o = vload16 (0, origin + col);
      int16 sum = 0, bad = 0;

      for (uint p = first; p < last; p++)
        {
          const float16 v0 = vload16 (0, x + (ulong) 2 * p * d + col);
          /* Past the last row, lo: on the grid, and its value is 0. */
          const float16 v1 = 2 * p + 1 < n ? vload16 (0, x + (ulong) (2 * p + 1) * d + col) : grid.s0;
          const float16 q0 = rint ((v0 - grid.s0) * grid.s2), q1 = rint ((v1 - grid.s0) * grid.s2);
          const int16 s0 = convert_int16 (q0) - o;
          const int16 s1 = 2 * p + 1 < n ? convert_int16 (q1) - o : 0;

          bad += off_grid16 (v0, q0, grid) + off_grid16 (v1, q1, grid);
          vstore16 ((s0 & 0xffff) | (s1 << 16), 0, pairs + (ulong) p * d + col);
          sum += s0 + s1;
        }
      vstore16 (sum, 0, sums + (ulong) block * d + col);
      count = lane_sum (bad);
    }
  else
    for (uint c = col; c < min (d, col + 16); c++)
      count += pairs_column (x, origin, pairs, sums, grid, c, first, last, n, d, block);
  off[(ulong) block * get_global_size (0) + get_global_id (0)] = count;
}

/* ---- linear_quads: the same for gemm's row quads ------------------------
 *
 * As linear_pairs with every origin 128, so that s = q − 128 is a signed
 * byte: row quad p goes to quads[p · d + c], rows 4p … 4p + 3 from the
 * lowest byte up, 0 past the last row. quads_per_item as pairs_per_item. */

static inline int
quads_column (__global const float *LATENT_RESTRICT x,
              __global int *LATENT_RESTRICT quads,
              __global int *LATENT_RESTRICT sums,
              const float4 grid,
              const uint c,
              const uint first,
              const uint last,
              const uint n,
              const uint d,
              const uint block)
{
  int sum = 0, off = 0;

  for (uint p = first; p < last; p++)
    {
      uint word = 0;

      for (uint t = 0; t < 4; t++)
        {
          const uint row = 4 * p + t;
          const int v = row < n ? on_grid (x[(ulong) row * d + c], grid, 128, &off) : 0;

          word |= (uint) (v & 0xff) << (8 * t);
          sum += v;
        }
      quads[(ulong) p * d + c] = (int) word;
    }
  sums[(ulong) block * d + c] = sum;
  return off;
}

/* One work-item a block of quads_per_item row quads, every column: it
 * streams its rows front to back, four at a time (a column strip a
 * work-item read one cache line a row, 3 kB apart, and packed at a third
 * of the speed), and sums the block's columns in its row of sums. Run with
 * global size 1 in dimension 0. */
__kernel void
linear_quads (__global const float *LATENT_RESTRICT x,
              __global int *LATENT_RESTRICT quads,
              __global int *LATENT_RESTRICT sums,
              __global int *LATENT_RESTRICT off,
              const float4 grid,
              const uint n,
              const uint d,
              const uint quads_per_item)
{
  const uint block = get_global_id (1);
  const uint kq = (n + 3) / 4;
  const uint first = block * quads_per_item;
  const uint last = min (kq, first + quads_per_item);
  const uint wide = d / 16 * 16;
  __global int *LATENT_RESTRICT sum = sums + (ulong) block * d;
  int16 bad = 0;
  int count = 0;

  if (first >= kq)
    return;
  for (uint c = 0; c < wide; c += 16)
    vstore16 ((int16) 0, 0, sum + c);
  for (uint p = first; p < last; p++)
    for (uint c = 0; c < wide; c += 16)
      {
        uint16 word = 0;
        int16 total = vload16 (0, sum + c);

        for (uint t = 0; t < 4; t++)
          {
            const uint row = 4 * p + t;
            /* Past the last row, lo: on the grid, and stored as 0. */
            const float16 v = row < n ? vload16 (0, x + (ulong) row * d + c) : grid.s0;
            const float16 q = rint ((v - grid.s0) * grid.s2);
            const int16 s = row < n ? convert_int16 (q) - 128 : 0;

            bad += off_grid16 (v, q, grid);
            word |= (as_uint16 (s) & 0xff) << (8 * t);
            total += s;
          }
        vstore16 (as_int16 (word), 0, quads + (ulong) p * d + c);
        vstore16 (total, 0, sum + c);
      }
  count = lane_sum (bad);
  /* The last columns, fewer than 16, one at a time. */
  for (uint c = wide; c < d; c++)
    count += quads_column (x, quads, sums, grid, c, first, last, n, d, block);
  off[block] = count;
}

#endif /* !LATENT_GPU */
