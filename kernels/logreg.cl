/* logreg.cl — multinomial logistic regression's step beside its two dense
 * products: gathering standardised rows, the softmax with each row's
 * cross-entropy, and the optimiser's update of the weights and biases
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: every matrix is row-major float32. data is a dataset, n × d, with
 * its classes in labels (int, n); rows_of holds rows of it. A gathered
 * batch x is rows × d, standardised: x' = (x − mean) · scale per column.
 * The scores z are rows × c (latent-gemm writes X Wᵀ there), and the
 * softmax kernel overwrites them in place with E = (P − onehot(y)) / rows,
 * which the weight gradient Eᵀ X reads. The weights w and their gradient gw
 * are c × d, the biases b have c values; the optimiser's memory (vw, vb;
 * Adam's sw, sb) has the layout of what it belongs to.
 *
 * Work: logreg_gather is one work-item per row and VEC columns;
 * logreg_softmax one per row in groups of LOGREG_WG, which sum their
 * losses and right predictions in local memory (one partial per group,
 * added up on the host in double); logreg_update one per VEC weights, then
 * one per class for the biases (each sums its column of E);
 * logreg_gradient, for L-BFGS, the same split, writing the gradient (the
 * weights' c · d values, then the c biases') in place of a step.
 *
 * Vectors: column runs go VEC floats at a time (float16), a tail one by one.
 *
 * Subnormals are flushed to zero (-cl-denorms-are-zero, as every
 * program): a softmax tail exp (z − max) below 1.2e-38 is a probability
 * no float sum or gradient can hold beside the top class's, and the
 * cross-entropy reads the log-sum-exp, not the flushed term.
 */

#ifndef LOGREG_WG
#define LOGREG_WG 64
#endif

#define VEC 16

/* x[r][a] = (data[rows_of[first + r]][a] − mean[a]) · scale[a] and
 * y[r] = labels[rows_of[first + r]]; work-item (column block, r). */
__kernel void
logreg_gather (__global const float *LATENT_RESTRICT data,
               __global const int *LATENT_RESTRICT labels,
               __global const int *LATENT_RESTRICT rows_of,
               const uint first,
               const uint rows,
               const uint d,
               __global const float *LATENT_RESTRICT mean,
               __global const float *LATENT_RESTRICT scale,
               __global float *LATENT_RESTRICT x,
               __global int *LATENT_RESTRICT y)
{
  const uint block = get_global_id (0), r = get_global_id (1);
  const uint a = block * VEC;
  size_t src, dst;

  if (r >= rows || a >= d)
    return;
  src = (size_t) rows_of[first + r] * d;
  dst = (size_t) r * d;
  if (block == 0)
    y[r] = labels[rows_of[first + r]];
  if (a + VEC <= d)
    vstore16 ((vload16 (0, data + src + a) - vload16 (0, mean + a)) * vload16 (0, scale + a), 0, x + dst + a);
  else
    for (uint t = a; t < d; t++)
      x[dst + t] = (data[src + t] - mean[t]) * scale[t];
}

/* Row r's scores z[r] (+ b) to its softmax: the row's cross-entropy
 * log Σ exp(z − max) + max − z[y] and its prediction (the first class of
 * the highest score); with grad, z[r] becomes (P − onehot(y)) · inv_rows.
 * Each group writes the sum of its rows' losses and its count of right
 * predictions to partial_loss and partial_right. */
__kernel __attribute__((reqd_work_group_size (LOGREG_WG, 1, 1))) void
logreg_softmax (__global float *LATENT_RESTRICT z,
                __global const float *LATENT_RESTRICT b,
                __global const int *LATENT_RESTRICT y,
                const uint rows,
                const uint c,
                const float inv_rows,
                const uint grad,
                __global int *LATENT_RESTRICT pred,
                __global float *LATENT_RESTRICT partial_loss,
                __global uint *LATENT_RESTRICT partial_right)
{
  __local float loss_l[LOGREG_WG];
  __local uint right_l[LOGREG_WG];
  const uint r = get_global_id (0), l = get_local_id (0);
  float loss = 0.0f;
  uint right = 0;

  if (r < rows)
    {
      __global float *zr = z + (size_t) r * c;
      const int label = y[r];
      float top = zr[0] + b[0], sum = 0.0f, zy = 0.0f;
      int best = 0;

      for (uint k = 1; k < c; k++)
        {
          const float s = zr[k] + b[k];

          if (s > top)
            {
              top = s;
              best = k;
            }
        }
      for (uint k = 0; k < c; k++)
        {
          const float s = zr[k] + b[k];

          sum += exp (s - top);
          if (k == (uint) label)
            zy = s;
        }
      loss = log (sum) + top - zy;
      right = best == label;
      pred[r] = best;
      if (grad)
        {
          const float inv_sum = 1.0f / sum;

          for (uint k = 0; k < c; k++)
            zr[k] = (exp (zr[k] + b[k] - top) * inv_sum - (k == (uint) label ? 1.0f : 0.0f)) * inv_rows;
        }
    }

  /* Both sums in one tree; rows past the end add zeros. */
  loss_l[l] = loss;
  right_l[l] = right;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint span = LOGREG_WG / 2; span > 0; span /= 2)
    {
      if (l < span)
        {
          loss_l[l] += loss_l[l + span];
          right_l[l] += right_l[l + span];
        }
      barrier (CLK_LOCAL_MEM_FENCE);
    }
  if (l == 0)
    {
      partial_loss[get_group_id (0)] = loss_l[0];
      partial_right[get_group_id (0)] = right_l[0];
    }
}

/* Work-item i < blocks updates the weights i · VEC ..< i · VEC + VEC of
 * the cd = c · d, with the gradient gw + l2 · w, and writes the sum of
 * their squares before the step to sq[i] (the loss's penalty). Work-item
 * blocks + k updates bias k with the sum of column k of e (rows × c), not
 * penalised. Momentum's v stands in for Adam's s when adam is 0. */
__kernel void
logreg_update (__global float *LATENT_RESTRICT w,
               __global float *LATENT_RESTRICT vw,
               __global float *sw,
               __global const float *LATENT_RESTRICT gw,
               __global float *LATENT_RESTRICT b,
               __global float *LATENT_RESTRICT vb,
               __global float *sb,
               __global const float *LATENT_RESTRICT e,
               __global float *LATENT_RESTRICT sq,
               const uint cd,
               const uint c,
               const uint rows,
               const float l2,
               const float lr,
               const float mu,
               const float eps,
               const uint adam)
{
  const uint i = get_global_id (0), blocks = LATENT_DIV_UP (cd, VEC);

  if (i < blocks)
    {
      const uint a = i * VEC;

      if (a + VEC <= cd)
        {
          float16 p = vload16 (0, w + a), v = vload16 (0, vw + a);
          float16 s = adam ? vload16 (0, sw + a) : (float16) 0.0f;
          const float16 g = fma ((float16) l2, p, vload16 (0, gw + a));
          const float16 p2 = p * p;

          sq[i] = p2.s0 + p2.s1 + p2.s2 + p2.s3 + p2.s4 + p2.s5 + p2.s6 + p2.s7 +
                  p2.s8 + p2.s9 + p2.sa + p2.sb + p2.sc + p2.sd + p2.se + p2.sf;
          LATENT_OPTIMISER_STEP (p, v, s, g);
          vstore16 (p, 0, w + a);
          vstore16 (v, 0, vw + a);
          if (adam)
            vstore16 (s, 0, sw + a);
        }
      else
        {
          float total = 0.0f;

          for (uint t = a; t < cd; t++)
            {
              float p = w[t], v = vw[t], s = adam ? sw[t] : 0.0f;
              const float g = fma (l2, p, gw[t]);

              total += p * p;
              LATENT_OPTIMISER_STEP (p, v, s, g);
              w[t] = p;
              vw[t] = v;
              if (adam)
                sw[t] = s;
            }
          sq[i] = total;
        }
    }
  else if (i < blocks + c)
    {
      const uint k = i - blocks;
      float g = 0.0f, p = b[k], v = vb[k], s = adam ? sb[k] : 0.0f;

      for (uint r = 0; r < rows; r++)
        g += e[(size_t) r * c + k];
      LATENT_OPTIMISER_STEP (p, v, s, g);
      b[k] = p;
      vb[k] = v;
      if (adam)
        sb[k] = s;
    }
}

/* L-BFGS's gradient: work-item i < blocks writes g = gw + l2 · w for the
 * weights i · VEC ..< i · VEC + VEC of the cd = c · d, and the sum of their
 * squares to sq[i]; work-item blocks + k writes g[cd + k], the sum of
 * column k of e (rows × c). */
__kernel void
logreg_gradient (__global const float *LATENT_RESTRICT w,
                 __global const float *LATENT_RESTRICT gw,
                 __global const float *LATENT_RESTRICT e,
                 __global float *LATENT_RESTRICT g,
                 __global float *LATENT_RESTRICT sq,
                 const uint cd,
                 const uint c,
                 const uint rows,
                 const float l2)
{
  const uint i = get_global_id (0), blocks = LATENT_DIV_UP (cd, VEC);

  if (i < blocks)
    {
      const uint a = i * VEC;

      if (a + VEC <= cd)
        {
          const float16 p = vload16 (0, w + a), p2 = p * p;

          vstore16 (fma ((float16) l2, p, vload16 (0, gw + a)), 0, g + a);
          sq[i] = p2.s0 + p2.s1 + p2.s2 + p2.s3 + p2.s4 + p2.s5 + p2.s6 + p2.s7 +
                  p2.s8 + p2.s9 + p2.sa + p2.sb + p2.sc + p2.sd + p2.se + p2.sf;
        }
      else
        {
          float total = 0.0f;

          for (uint t = a; t < cd; t++)
            {
              g[t] = fma (l2, w[t], gw[t]);
              total += w[t] * w[t];
            }
          sq[i] = total;
        }
    }
  else if (i < blocks + c)
    {
      const uint k = i - blocks;
      float total = 0.0f;

      for (uint r = 0; r < rows; r++)
        total += e[(size_t) r * c + k];
      g[cd + k] = total;
    }
}
