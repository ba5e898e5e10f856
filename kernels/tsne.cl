/* tsne.cl — t-SNE on the device: each row's Gaussian over its neighbours,
 * the attraction along P, the exact repulsion, and the optimiser's step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout (latent-tsne-private.h says what is computed):
 *   dist2, p_cond   n × k floats, row-major: each row's squared distances
 *                   to its k nearest rows, nearest first, and p_j|i;
 *   row_start, cols, p   P as compressed rows: row i's entries are
 *                   [row_start[i], row_start[i + 1]) of cols and p, a
 *                   multiple of AVEC (8) of them, the padding p = 0;
 *   y, gains, update, attr, rep   n float2, one per point.
 * Every kernel is one work-item per row or point, with no atomics, so each
 * sum is taken in one fixed order and a run repeats bit for bit.
 *
 * tsne_calibrate: bisection on the row's precision β until the entropy of
 *   p_j|i ∝ exp(−β (d_j − d_0)) is log(perplexity) within 1e-5 nats.
 * tsne_attract: a_i = Σ_j p_ij w_ij (y_i − y_j) with w = 1 / (1 + ‖y_i − y_j‖²),
 *   and Σ_j p_ij log w_ij for the KL divergence, AVEC affinities at a time
 *   (each row padded to a multiple of AVEC with p = 0).
 * tsne_repulse: r_i = Σ_{j≠i} w_ij² (y_i − y_j) and z_i = Σ_{j≠i} w_ij. The
 *   GPU shape reads y in tiles of TILE points through local memory.
 * tsne_update: g = α a − r / Z; openTSNE's gains, momentum and step
 *   clipping; y ← y − shift + step (shift: the mean of y, so the embedding
 *   stays centred).
 */

#ifndef TILE
#define TILE 256
#endif

/* Affinities a step of tsne_attract takes; the host pads rows to it. */
#define AVEC 8
typedef float8 avec_t;
typedef int8 aint_t;
#define as_aint as_int8
#define as_avec as_float8
#define convert_avec convert_float8
#define VLOAD_INT vload8
#define VLOAD_FLOAT vload8

#define ENTROPY_TOLERANCE 1e-5f
#define MAX_BISECTIONS 200

__kernel void
tsne_calibrate (__global const float *LATENT_RESTRICT dist2,
                const uint n,
                const uint k,
                const float target,
                __global float *LATENT_RESTRICT p_cond)
{
  const uint i = get_global_id (0);

  if (i >= n)
    return;

  __global const float *d = dist2 + (size_t) i * k;
  __global float *p = p_cond + (size_t) i * k;
  const float d0 = d[0];
  float beta = 1.0f, lo = -INFINITY, hi = INFINITY, sum = 1.0f;

  for (uint step = 0; step < MAX_BISECTIONS; step++)
    {
      float weighted = 0.0f;

      sum = 0.0f;
      for (uint q = 0; q < k; q++)
        {
          const float e = exp (-beta * (d[q] - d0));
          sum += e;
          weighted += e * (d[q] - d0);
        }
      const float h = log (sum) + beta * weighted / sum;
      if (fabs (h - target) < ENTROPY_TOLERANCE)
        break;
      if (h > target)
        {
          lo = beta;
          beta = isinf (hi) ? beta * 2.0f : (beta + hi) / 2.0f;
        }
      else
        {
          hi = beta;
          beta = isinf (lo) ? beta / 2.0f : (beta + lo) / 2.0f;
        }
    }
  for (uint q = 0; q < k; q++)
    p[q] = exp (-beta * (d[q] - d0)) / sum;
}

/* ln x for x ≥ 1, within 2e-7 relative, for AVEC values at once: the
 * exponent, and for the mantissa m ∈ [1, 2) the series 2 atanh t =
 * 2 (t + t³/3 + t⁵/5 + …), t = (m − 1) / (m + 1) ≤ 1/3, to t¹¹ (its remainder
 * below (1/3)¹³ · 2/13 < 1e-7). */
static inline avec_t
log_ge1 (avec_t x)
{
  const aint_t bits = as_aint (x);
  const avec_t m = as_avec ((bits & 0x007fffff) | 0x3f800000);
  const avec_t t = (m - 1.0f) / (m + 1.0f), t2 = t * t;
  const avec_t series = t * (2.0f + t2 * (2.0f / 3 + t2 * (2.0f / 5 + t2 * (2.0f / 7 + t2 * (2.0f / 9 + t2 * (2.0f / 11))))));

  return convert_avec ((bits >> 23) - 127) * 0.69314718f + series;
}

static inline float
avec_sum (avec_t v)
{
  const float4 h = v.lo + v.hi;
  return h.x + h.y + h.z + h.w;
}

/* Rows are padded to multiples of AVEC entries (p = 0, the row itself), so
 * each step takes AVEC affinities as one vector: the library's logarithm,
 * a call per affinity in a loop no work-group vectorises, took two thirds
 * of a 70,000-point run. */
__kernel void
tsne_attract (__global const float2 *LATENT_RESTRICT y,
              __global const uint *LATENT_RESTRICT row_start,
              __global const int *LATENT_RESTRICT cols,
              __global const float *LATENT_RESTRICT p,
              const uint n,
              __global float2 *LATENT_RESTRICT attr,
              __global float *LATENT_RESTRICT log_w)
{
  const uint i = get_global_id (0);

  if (i >= n)
    return;

  const float2 yi = y[i];
  avec_t ax = 0.0f, ay = 0.0f, s = 0.0f;

  for (uint e = row_start[i]; e < row_start[i + 1]; e += AVEC)
    {
      const aint_t c = VLOAD_INT (0, cols + e);
      const avec_t pe = VLOAD_FLOAT (0, p + e);
      const float2 y0 = y[c.s0], y1 = y[c.s1], y2 = y[c.s2], y3 = y[c.s3];
      const float2 y4 = y[c.s4], y5 = y[c.s5], y6 = y[c.s6], y7 = y[c.s7];
      const avec_t dx = yi.x - (avec_t) (y0.x, y1.x, y2.x, y3.x, y4.x, y5.x, y6.x, y7.x);
      const avec_t dy = yi.y - (avec_t) (y0.y, y1.y, y2.y, y3.y, y4.y, y5.y, y6.y, y7.y);
      const avec_t q = 1.0f + dx * dx + dy * dy;
      const avec_t w = pe / q;

      ax += w * dx;
      ay += w * dy;
      s -= pe * log_ge1 (q);
    }
  attr[i] = (float2) (avec_sum (ax), avec_sum (ay));
  log_w[i] = avec_sum (s);
}

__kernel void
tsne_repulse (__global const float2 *LATENT_RESTRICT y,
              const uint n,
              __global float2 *LATENT_RESTRICT rep,
              __global float *LATENT_RESTRICT z)
{
  const uint i = get_global_id (0);
  const float2 yi = i < n ? y[i] : (float2) (0.0f);
  float2 r = (float2) (0.0f);
  float s = 0.0f;

#ifdef LATENT_GPU
  __local float2 tile[TILE];
  const uint l = get_local_id (0);

  for (uint base = 0; base < n; base += TILE)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      for (uint t = l; t < TILE; t += get_local_size (0))
        tile[t] = base + t < n ? y[base + t] : (float2) (0.0f);
      barrier (CLK_LOCAL_MEM_FENCE);
      const uint count = min ((uint) TILE, n - base);
      for (uint t = 0; t < count; t++)
        {
          const float2 dy = yi - tile[t];
          const float w = 1.0f / (1.0f + dot (dy, dy));
          r += w * w * dy;
          s += w;
        }
    }
#else
  for (uint j = 0; j < n; j++)
    {
      const float2 dy = yi - y[j];
      const float w = 1.0f / (1.0f + dot (dy, dy));
      r += w * w * dy;
      s += w;
    }
#endif
  if (i >= n)
    return;
  rep[i] = r;
  /* The point itself was counted: w_ii = 1, and no force. */
  z[i] = s - 1.0f;
}

__kernel void
tsne_update (__global float2 *LATENT_RESTRICT y,
             __global float2 *LATENT_RESTRICT gains,
             __global float2 *LATENT_RESTRICT update,
             __global const float2 *LATENT_RESTRICT attr,
             __global const float2 *LATENT_RESTRICT rep,
             const uint n,
             const float alpha,
             const float inv_z,
             const float lr,
             const float momentum,
             const float min_gain,
             const float max_step,
             const float2 shift)
{
  const uint i = get_global_id (0);

  if (i >= n)
    return;

  const float2 g = alpha * attr[i] - rep[i] * inv_z;
  float2 u = update[i];
  float2 gain = gains[i];
  /* sign (0) is 0, as NumPy's: a first step has every gain raised. */
  const int2 flipped = isnotequal (sign (u), sign (g));

  gain = select (gain * 0.8f + min_gain, gain + 0.2f, flipped);
  u = momentum * u - lr * gain * g;
  const float norm = length (u);
  if (norm > max_step)
    u *= max_step / norm;
  gains[i] = gain;
  update[i] = u;
  y[i] = y[i] - shift + u;
}
