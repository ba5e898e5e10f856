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
#ifdef LATENT_GPU
  const uint col = get_global_id (0);
  float sum = 0.0f;

  if (col >= d || first >= n)
    return;
  for (uint i = first; i < last; i++)
    {
      const float v = x[(ulong) i * d + col] - shift[col];

      if (write)
        out[(ulong) i * d + col] = v;
      sum += v;
    }
  partial[(ulong) block * d + col] = sum;
#else
  const uint col = get_global_id (0) * 16;

  if (col >= d || first >= n)
    return;

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
    }
  else
    {
      for (uint c = col; c < d; c++)
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
    }
#endif
}
