/* wta.cl — the winner-take-all autoencoder's passes besides its matrix
 * products (those are latent-gemm's): gathering a mini-batch, choosing the
 * winners, the reconstruction error, the masked gradient, the column sums
 * and the optimiser's update
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: every matrix is row-major float32. data is the dataset, n × d;
 * order holds row indices; a mini-batch x is rows × d; the codes z, s and
 * the code gradient ds are rows × h (h hidden units); the weights w and wd
 * are h × d. One work-item per element unless a kernel says otherwise.
 */

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

/* The winners of one group of count activations ReLU(z + bias), at
 * z[base + i · inner] with base = group · outer: a unit's column across the
 * batch (lifetime sparsity: inner = h, outer = 1, the bias is the group's)
 * or a row's units (k-sparse: inner = 1, outer = h, the bias is the
 * element's). Ranked by value, ties to the lower index: k passes each take
 * the best value after the last one taken, then every value up to that
 * one is kept and the rest set to 0, in place. k ≥ count keeps all: a
 * plain ReLU. One work-item per group. */
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
  float tv = INFINITY;
  int ti = -1;

  if (g >= groups)
    return;
#define ACTIVATION(i) fmax (base[(size_t) (i) * inner] + bias[bias_per_group ? g : (i)], 0.0f)
  if (k >= count)
    tv = -INFINITY;
  for (uint pass = 0; pass < k && k < count; pass++)
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
  for (uint i = 0; i < count; i++)
    {
      const float v = ACTIVATION (i);

      base[(size_t) i * inner] = v > tv || (v == tv && (int) i <= ti) ? v : 0.0f;
    }
#undef ACTIVATION
}

/* x̂ += c, e = (x̂ − x) · inv_rows, and each row's Σ(x̂ − x)² in
 * loss[r]; work-item r walks its row. */
__kernel void
wta_error (__global float *LATENT_RESTRICT xhat,
           __global const float *LATENT_RESTRICT x,
           __global const float *LATENT_RESTRICT c,
           __global float *LATENT_RESTRICT e,
           __global float *LATENT_RESTRICT loss,
           const uint d,
           const float inv_rows)
{
  const uint r = get_global_id (0);
  const size_t row = (size_t) r * d;
  float sum = 0.0f;

  for (uint a = 0; a < d; a++)
    {
      const float v = xhat[row + a] + c[a], diff = v - x[row + a];

      xhat[row + a] = v;
      e[row + a] = diff * inv_rows;
      sum += diff * diff;
    }
  loss[r] = sum;
}

/* ds = ds where the code is positive, else 0: the gradient through the
 * winners' ReLU. */
__kernel void
wta_mask (__global float *LATENT_RESTRICT ds,
          __global const float *LATENT_RESTRICT s)
{
  const size_t i = get_global_id (0);

  if (!(s[i] > 0.0f))
    ds[i] = 0.0f;
}

/* out[j] = Σ_r m[r][j] over rows × cols; with wins, also
 * wins[j] += the number of rows where s[r][j] > 0. Work-item j. */
__kernel void
wta_column_sums (__global const float *LATENT_RESTRICT m,
                 const uint rows,
                 const uint cols,
                 __global float *LATENT_RESTRICT out,
                 __global const float *LATENT_RESTRICT s,
                 __global uint *LATENT_RESTRICT wins,
                 const uint count_wins)
{
  const uint j = get_global_id (0);
  float sum = 0.0f;
  uint won = 0;

  if (j >= cols)
    return;
  for (uint r = 0; r < rows; r++)
    {
      sum += m[(size_t) r * cols + j];
      if (count_wins)
        won += s[(size_t) r * cols + j] > 0.0f;
    }
  out[j] = sum;
  if (count_wins)
    wins[j] += won;
}

/* One optimiser step on param, elementwise. Momentum (adam = 0):
 * v = μ v − lr g, p += v. Adam: v = β1 v + (1 − β1) g,
 * s = β2 s + (1 − β2) g², p −= lr · v / (√s + eps), with the bias
 * corrections folded into lr and eps by the host. */
__kernel void
wta_update (__global float *LATENT_RESTRICT param,
            __global const float *LATENT_RESTRICT grad,
            __global float *LATENT_RESTRICT v,
            __global float *LATENT_RESTRICT s,
            const uint count,
            const float lr,
            const float mu,
            const float eps,
            const uint adam)
{
  const uint i = get_global_id (0);

  if (i >= count)
    return;
  if (adam)
    {
      const float g = grad[i];
      const float m1 = 0.9f * v[i] + (1.0f - 0.9f) * g;
      const float m2 = 0.999f * s[i] + (1.0f - 0.999f) * g * g;

      v[i] = m1;
      s[i] = m2;
      param[i] -= lr * m1 / (sqrt (m2) + eps);
    }
  else
    {
      const float step = mu * v[i] - lr * grad[i];

      v[i] = step;
      param[i] += step;
    }
}
