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
