/* umap.cl — an epoch of UMAP's layout: every point's move gathered from
 * its own edges and negative samples, then all moved at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout (latent-umap-private.h says what is computed): y and y_next are
 * n float2; the graph is compressed rows, row i's edges
 * [row_start[i], row_start[i + 1]) of cols, w (weight), every (epochs
 * between samples), next and next_negative (the epochs of the edge's next
 * sample and next negative samples, which only row i's work-item updates).
 * Work-item i reads y, writes y_next[i] and ce[i] (its edges' part of the
 * cross-entropy): no atomics, so an epoch repeats bit for bit. The random
 * rows are latent_umap_negative's hash of the seed, the edge, the epoch and
 * the sample.
 */

static inline float
clip4 (float v)
{
  return clamp (v, -4.0f, 4.0f);
}

static inline uint
negative_row (ulong seed,
              ulong e,
              uint  epoch,
              uint  s,
              uint  n)
{
  ulong z = seed + 0x9e3779b97f4a7c15UL * (e + 1) + ((ulong) epoch << 32) + s;

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
  z ^= z >> 31;
  return (uint) ((z >> 32) % n);
}

__kernel void
umap_epoch (__global const float2 *LATENT_RESTRICT y,
            __global float2 *LATENT_RESTRICT y_next,
            __global const uint *LATENT_RESTRICT row_start,
            __global const int *LATENT_RESTRICT cols,
            __global const float *LATENT_RESTRICT w,
            __global const float *LATENT_RESTRICT every,
            __global float *LATENT_RESTRICT next,
            __global float *LATENT_RESTRICT next_negative,
            const uint n,
            const uint epoch,
            const float a,
            const float b,
            const float alpha,
            const float gamma,
            const float negative_rate,
            const ulong seed,
            __global float *LATENT_RESTRICT ce)
{
  const uint i = get_global_id (0);

  if (i >= n)
    return;

  const float2 yi = y[i];
  float2 move = (float2) (0.0f);
  float sum = 0.0f;

  for (uint e = row_start[i]; e < row_start[i + 1]; e++)
    {
      const float2 d = yi - y[cols[e]];
      const float d2 = dot (d, d);
      const float pb = d2 > 0.0f ? powr (d2, b) : 0.0f;
      const float v = clamp (1.0f / (1.0f + a * pb), 1e-12f, 1.0f - 1e-12f);
      const float we = w[e];

      sum += we * log (we / v) + (we < 1.0f ? (1.0f - we) * log ((1.0f - we) / (1.0f - v)) : 0.0f);
      if (next[e] > (float) epoch)
        continue;
      if (d2 > 0.0f)
        {
          const float coeff = -2.0f * a * b * pb / d2 / (1.0f + a * pb);
          /* Twice: the edge is pulled from both of its ends. */
          move += 2.0f * (float2) (clip4 (coeff * d.x), clip4 (coeff * d.y)) * alpha;
        }
      next[e] += every[e];
      const float every_negative = every[e] / negative_rate;
      const float due = ((float) epoch - next_negative[e]) / every_negative;
      const uint count = due > 0.0f ? (uint) due : 0u;
      for (uint s = 0; s < count; s++)
        {
          const uint k = negative_row (seed, e, epoch, s, n);
          const float2 f = yi - y[k];
          const float f2 = dot (f, f);
          if (f2 > 0.0f)
            {
              const float coeff = 2.0f * gamma * b / ((0.001f + f2) * (1.0f + a * powr (f2, b)));
              move += (float2) (clip4 (coeff * f.x), clip4 (coeff * f.y)) * alpha;
            }
        }
      next_negative[e] += count * every_negative;
    }
  y_next[i] = yi + move;
  ce[i] = sum;
}
