/* latent-mlp-reference.c — the multilayer perceptron's step in plain C
 *
 * The test oracle and the fall-back: latent-mlp-private.h's formulas
 * written out, every sum in double, the activations kept in float as the
 * device keeps them, the update in float exactly as the device does it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-mlp"

#include "latent-mlp-private.h"

#include <math.h>
#include <string.h>

/* Rows of the test set standardised at a time. */
#define TEST_BLOCK 1024

static gboolean
gather (LatentMlp     *self,
        LatentRows    *source,
        const gint32  *rows_of,
        guint          rows,
        float         *x,
        gint32        *y,
        GError       **error)
{
  const guint d = self->d;

  /* Row indices are never negative: the same values as guint. */
  if (!latent_rows_gather (source, (const guint *) rows_of, rows, x, y, error))
    return FALSE;
  for (guint r = 0; r < rows; r++)
    for (guint a = 0; a < d; a++)
      x[(gsize) r * d + a] = (x[(gsize) r * d + a] - self->mean[a]) * self->scale[a];
  return TRUE;
}

/* The hidden layers' outputs a[1 ..< L] from a[0] (rows × d), with
 * dropout at @step when @train, and the class scores into @z (rows × c). */
static void
forward (LatentMlp  *self,
         float     **a,
         guint       rows,
         gboolean    train,
         guint32     step,
         double     *z)
{
  const guint32 threshold = latent_mlp_threshold (self), seed = (guint32) self->seed;
  const gboolean drop = train && self->dropout > 0;
  const float keep_scale = drop ? 1 / (1 - (float) self->dropout) : 1;

  for (guint l = 0; l < self->n_layers; l++)
    {
      const guint in = self->sizes[l], out = self->sizes[l + 1];
      const gboolean last = l + 1 == self->n_layers;

      for (guint r = 0; r < rows; r++)
        {
          const float *x = a[l] + (gsize) r * in;

          for (guint k = 0; k < out; k++)
            {
              const float *wk = self->w[l] + (gsize) k * in;
              double s = self->b[l][k];
              float v;

              for (guint i = 0; i < in; i++)
                s += (double) wk[i] * x[i];
              if (last)
                {
                  z[(gsize) r * out + k] = s;
                  continue;
                }
              v = self->tanh ? tanhf ((float) s) : MAX ((float) s, 0.0f);
              if (drop)
                v = latent_mlp_keeps (seed, step, r, l, k, threshold) ? v * keep_scale : 0.0f;
              a[l + 1][(gsize) r * out + k] = v;
            }
        }
    }
}

/* Every row's softmax and cross-entropy: their sum; @e (when not NULL)
 * gets (P − onehot) / @batch, @pred the class of the highest score. */
static double
softmax_rows (LatentMlp    *self,
              const double *z,
              const gint32 *y,
              guint         rows,
              guint         batch,
              double       *e,
              gint32       *pred)
{
  const guint c = self->c;
  double loss = 0;

  for (guint r = 0; r < rows; r++)
    {
      const double *zr = z + (gsize) r * c;
      double sum = 0;
      guint best = 0;

      for (guint k = 1; k < c; k++)
        if (zr[k] > zr[best])
          best = k;
      for (guint k = 0; k < c; k++)
        sum += exp (zr[k] - zr[best]);
      loss += log (sum) + zr[best] - zr[y[r]];
      pred[r] = best;
      for (guint k = 0; e && k < c; k++)
        e[(gsize) r * c + k] = (exp (zr[k] - zr[best]) / sum - (k == (guint) y[r])) / batch;
    }
  return loss;
}

/* The loss and gradient of the batch order[first ..+ rows) into @gw and
 * @gb (per layer, as the weights and biases), how many rows it predicted
 * right before the step. */
static gboolean
batch_gradient (LatentMlp  *self,
                guint       first,
                guint       rows,
                double    **gw,
                double    **gb,
                double     *loss,
                guint      *right,
                GError    **error)
{
  const guint L = self->n_layers, c = self->c;
  const guint32 threshold = latent_mlp_threshold (self), seed = (guint32) self->seed;
  const gboolean drop = self->dropout > 0;
  const float keep_scale = drop ? 1 / (1 - (float) self->dropout) : 1;
  float *a[LATENT_MLP_MAX_LAYERS] = { NULL };
  g_autofree gint32 *y = g_new (gint32, rows);
  g_autofree gint32 *pred = g_new (gint32, rows);
  g_autofree double *z = g_new (double, (gsize) rows * c);
  g_autofree double *e = NULL, *e_prev = NULL;
  guint widest = 0;
  double sq = 0;
  gboolean ok;

  for (guint l = 0; l < L; l++)
    {
      a[l] = g_new (float, (gsize) rows * self->sizes[l]);
      widest = MAX (widest, self->sizes[l + 1]);
    }
  e = g_new (double, (gsize) rows * widest);
  e_prev = g_new (double, (gsize) rows * widest);
  if (!(ok = gather (self, self->rows, self->order + first, rows, a[0], y, error)))
    goto out;
  forward (self, a, rows, TRUE, self->iteration, z);
  *loss = softmax_rows (self, z, y, rows, rows, e, pred) / rows;
  *right = 0;
  for (guint r = 0; r < rows; r++)
    *right += pred[r] == y[r];

  for (guint l = L; l-- > 0;)
    {
      const guint in = self->sizes[l], out = self->sizes[l + 1];
      const float *w = self->w[l];
      double *swap;

      /* ∂W = Eᵀ A + λ W, ∂b = Σ_rows E */
      memset (gw[l], 0, sizeof (double) * out * in);
      memset (gb[l], 0, sizeof (double) * out);
      for (guint r = 0; r < rows; r++)
        for (guint k = 0; k < out; k++)
          {
            const double ek = e[(gsize) r * out + k];
            const float *ar = a[l] + (gsize) r * in;
            double *gk = gw[l] + (gsize) k * in;

            gb[l][k] += ek;
            for (guint i = 0; i < in; i++)
              gk[i] += ek * ar[i];
          }
      for (gsize i = 0; i < (gsize) out * in; i++)
        {
          sq += (double) w[i] * w[i];
          gw[l][i] += self->l2 * w[i];
        }
      if (l == 0)
        break;
      /* E_{l−1} = (E_l W_l) ⊙ act′ · keep / (1 − p), act′ from the output. */
      for (guint r = 0; r < rows; r++)
        for (guint i = 0; i < in; i++)
          {
            const float out_value = a[l][(gsize) r * in + i];
            double s = 0, slope;

            for (guint k = 0; k < out; k++)
              s += e[(gsize) r * out + k] * w[(gsize) k * in + i];
            if (drop && !latent_mlp_keeps (seed, self->iteration, r, l - 1, i, threshold))
              slope = 0;
            else if (self->tanh)
              {
                const double t = (double) out_value / keep_scale;

                slope = (1 - t * t) * keep_scale;
              }
            else
              slope = out_value > 0 ? keep_scale : 0;
            e_prev[(gsize) r * in + i] = s * slope;
          }
      swap = e;
      e = e_prev;
      e_prev = swap;
    }
  *loss += 0.5 * self->l2 * sq;

out:
  for (guint l = 0; l < L; l++)
    g_free (a[l]);
  return ok;
}

static void
alloc_gradient (LatentMlp  *self,
                double    **gw,
                double    **gb)
{
  for (guint l = 0; l < self->n_layers; l++)
    {
      gw[l] = g_new (double, latent_mlp_weights (self, l));
      gb[l] = g_new (double, self->sizes[l + 1]);
    }
}

static void
free_gradient (LatentMlp  *self,
               double    **gw,
               double    **gb)
{
  for (guint l = 0; l < self->n_layers; l++)
    {
      g_free (gw[l]);
      g_free (gb[l]);
    }
}

gboolean
latent_mlp_reference_step (LatentMlp  *self,
                           guint       first,
                           guint       rows,
                           double     *loss,
                           guint      *right,
                           GError    **error)
{
  double *gw[LATENT_MLP_MAX_LAYERS], *gb[LATENT_MLP_MAX_LAYERS];
  LatentOptimiserStep step;
  gboolean ok;

  alloc_gradient (self, gw, gb);
  if ((ok = batch_gradient (self, first, rows, gw, gb, loss, right, error)))
    {
      latent_optimiser_prepare (&step, self->adam, self->learning_rate, self->momentum, self->adam_t);
      for (guint l = 0; l < self->n_layers; l++)
        {
          latent_optimiser_apply (&step, self->w[l], gw[l], self->vw[l], self->sw[l], latent_mlp_weights (self, l));
          latent_optimiser_apply (&step, self->b[l], gb[l], self->vb[l], self->sb[l], self->sizes[l + 1]);
        }
    }
  free_gradient (self, gw, gb);
  return ok;
}

double
latent_mlp_reference_gradient (LatentMlp *self,
                               guint      first,
                               guint      rows,
                               double    *g)
{
  double *gw[LATENT_MLP_MAX_LAYERS], *gb[LATENT_MLP_MAX_LAYERS];
  double loss = NAN;
  guint right;

  alloc_gradient (self, gw, gb);
  if (batch_gradient (self, first, rows, gw, gb, &loss, &right, NULL))
    for (guint l = 0; l < self->n_layers; l++)
      {
        const gsize n = latent_mlp_weights (self, l);

        memcpy (g, gw[l], n * sizeof (double));
        memcpy (g + n, gb[l], self->sizes[l + 1] * sizeof (double));
        g += n + self->sizes[l + 1];
      }
  free_gradient (self, gw, gb);
  return loss;
}

gboolean
latent_mlp_reference_test (LatentMlp  *self,
                           GError    **error)
{
  const guint block = MIN (TEST_BLOCK, MAX (self->n_test, 1u));
  float *a[LATENT_MLP_MAX_LAYERS] = { NULL };
  g_autofree gint32 *y = g_new (gint32, block);
  g_autofree double *z = g_new (double, (gsize) block * self->c);
  double total = 0;
  gboolean ok = TRUE;

  for (guint l = 0; l < self->n_layers; l++)
    a[l] = g_new (float, (gsize) block * self->sizes[l]);
  for (guint first = 0; ok && first < self->n_test; first += block)
    {
      const guint rows = MIN (block, self->n_test - first);

      if ((ok = gather (self, self->test_source, self->split->test_rows + first, rows, a[0], y, error)))
        {
          forward (self, a, rows, FALSE, 0, z);
          total += softmax_rows (self, z, y, rows, rows, NULL, self->test_predictions + first);
        }
    }
  for (guint l = 0; l < self->n_layers; l++)
    g_free (a[l]);
  self->test_loss = self->n_test ? total / self->n_test : NAN;
  return ok;
}
