/* latent-wta-reference.c — the autoencoder's step in plain C
 *
 * The test oracle and the fall-back: every product written out as the
 * formulas in latent-wta-private.h say, accumulated in double. Codes are
 * mostly zero, so the loops over the code skip its zeros.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-wta"

#include "latent-wta-private.h"

#include <math.h>
#include <string.h>

void
latent_wta_select (const float *values,
                   guint8      *mask,
                   guint        count,
                   gsize        stride,
                   guint        k)
{
  for (guint i = 0; i < count; i++)
    mask[i * stride] = 0;
  /* k passes, each taking the best value not taken yet: O(k · count),
   * and ties go to the lower index because only a larger value replaces
   * the best so far. */
  for (guint pass = 0; pass < MIN (k, count); pass++)
    {
      gint best = -1;

      for (guint i = 0; i < count; i++)
        if (!mask[i * stride] && (best < 0 || values[i * stride] > values[best * stride]))
          best = i;
      mask[best * stride] = 1;
    }
}

void
latent_wta_select_batch (LatentWta   *self,
                         const float *a,
                         guint8      *mask,
                         guint        rows)
{
  const guint h = self->h, k = latent_wta_batch_winners (self, rows);

  switch (self->sparsity)
    {
    case LATENT_WTA_LIFETIME:
      for (guint j = 0; j < h; j++)
        latent_wta_select (a + j, mask + j, rows, h, k);
      break;
    case LATENT_WTA_K_SPARSE:
      for (guint r = 0; r < rows; r++)
        latent_wta_select (a + (gsize) r * h, mask + (gsize) r * h, h, 1, k);
      break;
    case LATENT_WTA_NONE:
      memset (mask, 1, (gsize) rows * h);
      break;
    }
}

gboolean
latent_wta_gather (LatentWta    *self,
                   const guint  *order,
                   guint         rows,
                   float        *x,
                   GError      **error)
{
  const guint d = self->d;

  if (!latent_rows_gather (self->rows, order, rows, x, NULL, error))
    return FALSE;
  for (guint r = 0; r < rows; r++)
    for (guint a = 0; a < d; a++)
      x[(gsize) r * d + a] = (x[(gsize) r * d + a] - self->offset[a]) * self->scale[a];
  return TRUE;
}

void
latent_wta_update (LatentWta *self,
                   float     *param,
                   float     *grad,
                   float     *v,
                   float     *s,
                   gsize      count)
{
  if (self->adam)
    {
      const float b1 = LATENT_WTA_BETA1, b2 = LATENT_WTA_BETA2;
      float lr, eps;

      latent_wta_adam_factors (self, &lr, &eps);
      for (gsize i = 0; i < count; i++)
        {
          v[i] = b1 * v[i] + (1 - b1) * grad[i];
          s[i] = b2 * s[i] + (1 - b2) * grad[i] * grad[i];
          param[i] -= lr * v[i] / (sqrtf (s[i]) + eps);
        }
    }
  else
    {
      const float mu = self->momentum, lr = self->learning_rate;

      for (gsize i = 0; i < count; i++)
        {
          v[i] = mu * v[i] - lr * grad[i];
          param[i] += v[i];
        }
    }
}

/* The code of @rows rows of x: code = ReLU(x Wᵀ + b) ⊙ winners. */
static void
encode (LatentWta   *self,
        const float *x,
        guint        rows,
        float       *code)
{
  const guint d = self->d, h = self->h;
  g_autofree guint8 *mask = g_new (guint8, (gsize) rows * h);

  for (guint r = 0; r < rows; r++)
    for (guint j = 0; j < h; j++)
      {
        const float *xr = x + (gsize) r * d, *wj = self->p.w + (gsize) j * d;
        double z = self->p.b[j];

        for (guint a = 0; a < d; a++)
          z += (double) wj[a] * xr[a];
        code[(gsize) r * h + j] = MAX (0.0f, (float) z);
      }
  latent_wta_select_batch (self, code, mask, rows);
  for (gsize i = 0; i < (gsize) rows * h; i++)
    if (!mask[i])
      code[i] = 0;
}

/* E = (code W_d + c − x) / rows, and the loss ½ Σ‖x̂ − x‖² / rows;
 * x̂ itself in @xhat when not NULL. */
static double
decode_error (LatentWta   *self,
              const float *x,
              const float *code,
              guint        rows,
              float       *e,
              float       *xhat)
{
  const guint d = self->d, h = self->h;
  const float *wd = self->tied ? self->p.w : self->p.wd;
  g_autofree double *acc = g_new (double, d);
  double loss = 0;

  for (guint r = 0; r < rows; r++)
    {
      for (guint a = 0; a < d; a++)
        acc[a] = self->p.c[a];
      for (guint j = 0; j < h; j++)
        {
          const double s = code[(gsize) r * h + j];

          if (s == 0)
            continue;
          for (guint a = 0; a < d; a++)
            acc[a] += s * wd[(gsize) j * d + a];
        }
      for (guint a = 0; a < d; a++)
        {
          const double diff = acc[a] - x[(gsize) r * d + a];

          loss += diff * diff;
          if (e)
            e[(gsize) r * d + a] = diff / rows;
          if (xhat)
            xhat[(gsize) r * d + a] = acc[a];
        }
    }
  return 0.5 * loss / rows;
}

gboolean
latent_wta_reference_forward (LatentWta    *self,
                              const guint  *order,
                              guint         rows,
                              double       *loss,
                              float        *xhat,
                              GError      **error)
{
  g_autofree float *x = g_new (float, (gsize) rows * self->d);
  g_autofree float *code = g_new (float, (gsize) rows * self->h);

  if (!latent_wta_gather (self, order, rows, x, error))
    return FALSE;
  encode (self, x, rows, code);
  *loss = decode_error (self, x, code, rows, NULL, xhat);
  return TRUE;
}

gboolean
latent_wta_reference_step (LatentWta    *self,
                           const guint  *order,
                           guint         rows,
                           double       *loss,
                           GError      **error)
{
  const guint d = self->d, h = self->h;
  const gsize hd = (gsize) h * d;
  const float *wd = self->tied ? self->p.w : self->p.wd;
  g_autofree float *x = g_new (float, (gsize) rows * d);
  g_autofree float *code = g_new (float, (gsize) rows * h);
  g_autofree float *e = g_new (float, (gsize) rows * d);
  g_autofree float *dz = g_new0 (float, (gsize) rows * h);
  g_autofree double *gw = g_new0 (double, hd);
  g_autofree double *gwd = self->tied ? NULL : g_new0 (double, hd);
  g_autofree double *gb = g_new0 (double, h);
  g_autofree double *gc = g_new0 (double, d);
  g_autofree float *grad = g_new (float, hd);

  if (!latent_wta_gather (self, order, rows, x, error))
    return FALSE;
  encode (self, x, rows, code);
  *loss = decode_error (self, x, code, rows, e, NULL);

  /* ∂Z = (E W_dᵀ) ⊙ [S > 0], only where the code is positive. */
  for (guint r = 0; r < rows; r++)
    for (guint j = 0; j < h; j++)
      {
        double ds = 0;

        if (code[(gsize) r * h + j] <= 0)
          continue;
        for (guint a = 0; a < d; a++)
          ds += (double) e[(gsize) r * d + a] * wd[(gsize) j * d + a];
        dz[(gsize) r * h + j] = ds;
        self->wins[j]++;
      }
  /* ∂W = ∂Zᵀ X, ∂W_d = Sᵀ E (into ∂W when tied), the biases' sums. */
  for (guint r = 0; r < rows; r++)
    {
      const float *xr = x + (gsize) r * d, *er = e + (gsize) r * d;

      for (guint a = 0; a < d; a++)
        gc[a] += er[a];
      for (guint j = 0; j < h; j++)
        {
          const double s = code[(gsize) r * h + j], g = dz[(gsize) r * h + j];
          double *decoder = self->tied ? gw : gwd;

          if (s <= 0)
            continue;
          gb[j] += g;
          for (guint a = 0; a < d; a++)
            {
              gw[(gsize) j * d + a] += g * xr[a];
              decoder[(gsize) j * d + a] += s * er[a];
            }
        }
    }

  for (gsize i = 0; i < hd; i++)
    grad[i] = gw[i];
  latent_wta_update (self, self->p.w, grad, self->v.w, self->s.w, hd);
  if (!self->tied)
    {
      for (gsize i = 0; i < hd; i++)
        grad[i] = gwd[i];
      latent_wta_update (self, self->p.wd, grad, self->v.wd, self->s.wd, hd);
    }
  for (guint j = 0; j < h; j++)
    grad[j] = gb[j];
  latent_wta_update (self, self->p.b, grad, self->v.b, self->s.b, h);
  for (guint a = 0; a < d; a++)
    grad[a] = gc[a];
  latent_wta_update (self, self->p.c, grad, self->v.c, self->s.c, d);
  return TRUE;
}
