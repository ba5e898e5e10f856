/* mlp.cl — the multilayer perceptron's hidden layers: each unit's
 * activation after the matrix product, with dropout, and the error sent
 * back through it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: a layer's outputs a are rows × units, row-major float32, with
 * units a multiple of nothing in particular; latent-gemm has written
 * A_prev Wᵀ there. The error e has the same layout. The rest of a step
 * (gathering rows, the softmax and cross-entropy, the optimiser's update)
 * is logistic regression's (logreg.cl), run on each layer.
 *
 * Work: one work-item per value, (unit, row).
 *
 * Dropout keeps unit u of row r at step step when a hash of the seed, the
 * step, r, the layer and u is at least threshold (p · 2³²); the survivors
 * are scaled by keep_scale = 1 / (1 − p). The hash is
 * latent-mlp-private.h's latent_mlp_keeps, bit for bit, so both paths drop
 * the same units. With threshold 0 every unit is kept.
 */

static bool
keeps (const uint seed,
       const uint step,
       const uint row,
       const uint layer,
       const uint unit,
       const uint threshold)
{
  uint z = seed ^ (step * 0x9e3779b9u) ^ (row * 0x85ebca6bu) ^ ((unit + (layer << 24)) * 0xc2b2ae35u);

  z ^= z >> 16;
  z *= 0x85ebca6bu;
  z ^= z >> 13;
  z *= 0xc2b2ae35u;
  z ^= z >> 16;
  return z >= threshold;
}

/* a[r][u] = act (a[r][u] + b[u]), ReLU or (with use_tanh) tanh, dropped or
 * scaled as above. */
__kernel void
mlp_activate (__global float *LATENT_RESTRICT a,
              __global const float *LATENT_RESTRICT b,
              const uint rows,
              const uint units,
              const uint use_tanh,
              const uint seed,
              const uint step,
              const uint layer,
              const uint threshold,
              const float keep_scale)
{
  const uint u = get_global_id (0), r = get_global_id (1);
  const size_t at = (size_t) r * units + u;
  float v;

  if (u >= units || r >= rows)
    return;
  v = a[at] + b[u];
  v = use_tanh ? tanh (v) : fmax (v, 0.0f);
  if (threshold != 0)
    v = keeps (seed, step, r, layer, u, threshold) ? v * keep_scale : 0.0f;
  a[at] = v;
}

/* e[r][u] (the error at the layer's outputs, E_next W) times the slope of
 * its activation, read off the output a: 1 where ReLU's is positive,
 * 1 − tanh² for tanh, both times keep_scale, and 0 where dropout silenced
 * the unit. */
__kernel void
mlp_backward (__global float *LATENT_RESTRICT e,
              __global const float *LATENT_RESTRICT a,
              const uint rows,
              const uint units,
              const uint use_tanh,
              const uint seed,
              const uint step,
              const uint layer,
              const uint threshold,
              const float keep_scale)
{
  const uint u = get_global_id (0), r = get_global_id (1);
  const size_t at = (size_t) r * units + u;
  float slope;

  if (u >= units || r >= rows)
    return;
  if (threshold != 0 && !keeps (seed, step, r, layer, u, threshold))
    slope = 0.0f;
  else if (use_tanh)
    {
      const float t = a[at] / keep_scale;

      slope = (1.0f - t * t) * keep_scale;
    }
  else
    slope = a[at] > 0.0f ? keep_scale : 0.0f;
  e[at] *= slope;
}
