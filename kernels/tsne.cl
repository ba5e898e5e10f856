/* tsne.cl — t-SNE on the device: each row's Gaussian over its neighbours,
 * the attraction along P, the exact repulsion, and the optimiser's step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout (latent-tsne-private.h says what is computed):
 *   dist2, p_cond   n × k floats, row-major: each row's squared distances
 *                   to its k nearest rows, nearest first, and p_j|i;
 *   row_start, cols, p   P as compressed rows: row i's entries are
 *                   [row_start[i], row_start[i + 1]) of cols and p;
 *   y, gains, update, attr, rep   n float2, one per point.
 * Every kernel is one work-item per row or point, with no atomics, so each
 * sum is taken in one fixed order and a run repeats bit for bit.
 *
 * tsne_calibrate: bisection on the row's precision β until the entropy of
 *   p_j|i ∝ exp(−β (d_j − d_0)) is log(perplexity) within 1e-5 nats.
 * tsne_attract: a_i = Σ_j p_ij w_ij (y_i − y_j) with w = 1 / (1 + ‖y_i − y_j‖²),
 *   and Σ_j p_ij log w_ij for the KL divergence.
 * tsne_repulse: r_i = Σ_{j≠i} w_ij² (y_i − y_j) and z_i = Σ_{j≠i} w_ij. The
 *   GPU shape reads y in tiles of TILE points through local memory.
 * tsne_update: g = α a − r / Z; openTSNE's gains, momentum and step
 *   clipping; y ← y − shift + step (shift: the mean of y, so the embedding
 *   stays centred).
 */

#ifndef TILE
#define TILE 256
#endif

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
  float2 a = (float2) (0.0f);
  float s = 0.0f;

  for (uint e = row_start[i]; e < row_start[i + 1]; e++)
    {
      const float2 dy = yi - y[cols[e]];
      const float w = 1.0f / (1.0f + dot (dy, dy));
      a += p[e] * w * dy;
      s += p[e] * log (w);
    }
  attr[i] = a;
  log_w[i] = s;
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
