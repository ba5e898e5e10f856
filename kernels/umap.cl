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
 * Work-item i reads y, writes y_next[i] and, when measure, ce[i] (its
 * edges' part of the cross-entropy): no atomics, so an epoch repeats bit for bit. The random
 * rows are latent_umap_negative's hash of the seed, the edge, the epoch and
 * the sample.
 */

static inline float
clip4 (float v)
{
  return clamp (v, -4.0f, 4.0f);
}

static inline uint
negative_row (uint seed,
              uint e,
              uint epoch,
              uint s,
              uint n)
{
  uint z = seed ^ (e * 0x9e3779b9u) ^ (epoch * 0x85ebca6bu) ^ (s * 0xc2b2ae35u);

  z ^= z >> 16;
  z *= 0x85ebca6bu;
  z ^= z >> 13;
  z *= 0xc2b2ae35u;
  z ^= z >> 16;
  return (uint) (((ulong) z * n) >> 32);
}

/* x^b for x > 0, inline: log₂ from the exponent and the series of
 * 2 atanh t for the mantissa (t ≤ 1/3, to t⁹: 1e-6 relative), 2^y from the
 * integer part and a Taylor polynomial of degree 7 (2e-6). The library's
 * powr, a call per edge and per negative sample in a loop no work-group
 * vectorises, took most of an epoch. */
static inline float
pow_pos (float x,
         float b)
{
  const int bits = as_int (x);
  const float m = as_float ((bits & 0x007fffff) | 0x3f800000);
  const float t = (m - 1.0f) / (m + 1.0f), t2 = t * t;
  const float ln_m = t * (2.0f + t2 * (2.0f / 3 + t2 * (2.0f / 5 + t2 * (2.0f / 7 + t2 * (2.0f / 9)))));
  const float y = b * ((float) ((bits >> 23) - 127) + ln_m * 1.44269504f);
  const float whole = clamp (floor (y), -126.0f, 127.0f);
  const float f = (y - whole) * 0.69314718f;
  const float e = 1.0f + f * (1.0f + f * (0.5f + f * (1.0f / 6 + f * (1.0f / 24 + f * (1.0f / 120 + f * (1.0f / 720 + f * (1.0f / 5040)))))));

  return as_float (((int) whole + 127) << 23) * e;
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
            const uint seed,
            const int measure,
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
      const float pb = d2 > 0.0f ? pow_pos (d2, b) : 0.0f;

      if (measure)
        {
          const float v = clamp (1.0f / (1.0f + a * pb), 1e-12f, 1.0f - 1e-12f);
          const float we = w[e];
          sum += we * log (we / v) + (we < 1.0f ? (1.0f - we) * log ((1.0f - we) / (1.0f - v)) : 0.0f);
        }
      if (next[e] > (float) epoch)
        continue;
      if (d2 > 0.0f)
        {
          const float coeff = -2.0f * a * b * pb / d2 / (1.0f + a * pb);
          move += (float2) (clip4 (coeff * d.x), clip4 (coeff * d.y)) * alpha;
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
              const float coeff = 2.0f * gamma * b / ((0.001f + f2) * (1.0f + a * pow_pos (f2, b)));
              move += (float2) (clip4 (coeff * f.x), clip4 (coeff * f.y)) * alpha;
            }
        }
      next_negative[e] += count * every_negative;
    }
  y_next[i] = yi + move;
  ce[i] = sum;
}
