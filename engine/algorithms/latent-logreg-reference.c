/* latent-logreg-reference.c — logistic regression's step in plain C
 *
 * The test oracle and the fall-back: the formulas of
 * latent-logreg-private.h written out, scores and gradients accumulated in
 * double, the update in float exactly as the device does it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-logreg"

#include "latent-logreg-private.h"
#include "latent-mpi.h"

#include <math.h>
#include <string.h>

gboolean
latent_logreg_gather (LatentLogreg  *self,
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

/* Softmax of every row's scores and its cross-entropy: the summed loss of
 * the @rows rows; @e (when not NULL) gets (P − onehot) / @batch, the rows
 * of the whole batch these are some of, @pred the class of the highest
 * score (the lower class on a tie). */
static double
softmax_rows (LatentLogreg *self,
              const float  *x,
              const gint32 *y,
              guint         rows,
              guint         batch,
              double       *e,
              gint32       *pred)
{
  const guint c = self->c, d = self->d;
  g_autofree double *z = g_new (double, c);
  double loss = 0;

  for (guint r = 0; r < rows; r++)
    {
      const float *xr = x + (gsize) r * d;
      double top, sum = 0;
      guint best = 0;

      for (guint k = 0; k < c; k++)
        {
          const float *wk = self->w + (gsize) k * d;
          double s = self->b[k];

          for (guint a = 0; a < d; a++)
            s += (double) wk[a] * xr[a];
          z[k] = s;
          if (s > z[best])
            best = k;
        }
      top = z[best];
      for (guint k = 0; k < c; k++)
        sum += exp (z[k] - top);
      loss += log (sum) + top - z[y[r]];
      pred[r] = best;
      for (guint k = 0; e && k < c; k++)
        e[(gsize) r * c + k] = (exp (z[k] - top) / sum - (k == (guint) y[r])) / batch;
    }
  return loss;
}

static double
penalty (LatentLogreg *self)
{
  const gsize cd = (gsize) self->c * self->d;
  double sq = 0;

  for (gsize i = 0; i < cd; i++)
    sq += (double) self->w[i] * self->w[i];
  return 0.5 * self->l2 * sq;
}

/* The batch's loss and gradient, and how many rows it predicted right.
 * One MPI rank of several computes its share of the batch's rows, and the
 * sums of every share make the batch's: every rank takes the same step. */
#define BATCH_BLOCK_ROWS 8192

static gboolean
batch_gradient (LatentLogreg  *self,
                guint          first,
                guint          batch,
                double        *gw,
                double        *gb,
                double        *loss,
                guint         *right,
                GError       **error)
{
  const guint c = self->c, d = self->d;
  guint from = 0, rows = batch, block;
  g_autofree float *x = NULL;
  g_autofree gint32 *y = NULL, *pred = NULL;
  g_autofree double *e = NULL;
  double counts[2] = { 0, 0 };   /* summed loss, rows right */

  if (self->shared)
    latent_mpi_share (batch, &from, &rows);
  /* L-BFGS's batch is every training row: a block at a time, so that
   * its rows are never all copied at once (a streamed file's are more
   * than memory). The sums go row by row as in one piece. */
  block = MIN (MAX (rows, 1), BATCH_BLOCK_ROWS);
  x = g_new (float, (gsize) block * d);
  y = g_new (gint32, block);
  pred = g_new (gint32, block);
  e = g_new (double, (gsize) block * c);

  /* ∂W = Eᵀ X + λ W, ∂b = Σ_rows E */
  memset (gw, 0, sizeof (double) * c * d);
  memset (gb, 0, sizeof (double) * c);
  for (guint start = 0; start < rows; start += block)
    {
      const guint n = MIN (block, rows - start);

      if (!latent_logreg_gather (self, self->rows, self->order + first + from + start, n, x, y, error))
        return FALSE;
      counts[0] += softmax_rows (self, x, y, n, batch, e, pred);
      for (guint r = 0; r < n; r++)
        counts[1] += pred[r] == y[r];
      for (guint r = 0; r < n; r++)
        for (guint k = 0; k < c; k++)
          {
            const double ek = e[(gsize) r * c + k];
            const float *xr = x + (gsize) r * d;
            double *gk = gw + (gsize) k * d;

            gb[k] += ek;
            for (guint a = 0; a < d; a++)
              gk[a] += ek * xr[a];
          }
    }
  if (self->shared &&
      !(latent_mpi_sum (gw, (gsize) c * d, error) && latent_mpi_sum (gb, c, error) &&
        latent_mpi_sum (counts, G_N_ELEMENTS (counts), error)))
    return FALSE;
  *loss = counts[0] / batch + penalty (self);
  *right = (guint) counts[1];
  for (gsize i = 0; i < (gsize) c * d; i++)
    gw[i] += self->l2 * self->w[i];
  return TRUE;
}

double
latent_logreg_reference_gradient (LatentLogreg *self,
                                  guint         first,
                                  guint         rows,
                                  double       *gw,
                                  double       *gb)
{
  double loss;
  guint right;

  return batch_gradient (self, first, rows, gw, gb, &loss, &right, NULL) ? loss : NAN;
}

gboolean
latent_logreg_reference_step (LatentLogreg  *self,
                              guint          first,
                              guint          rows,
                              double        *loss,
                              guint         *right,
                              GError       **error)
{
  g_autofree double *gw = g_new (double, (gsize) self->c * self->d);
  g_autofree double *gb = g_new (double, self->c);

  LatentOptimiserStep step;

  if (!batch_gradient (self, first, rows, gw, gb, loss, right, error))
    return FALSE;
  latent_optimiser_prepare (&step, self->adam, self->learning_rate, self->momentum, self->adam_t);
  latent_optimiser_apply (&step, self->w, gw, self->vw, self->sw, (gsize) self->c * self->d);
  latent_optimiser_apply (&step, self->b, gb, self->vb, self->sb, self->c);
  return TRUE;
}

gboolean
latent_logreg_reference_test (LatentLogreg  *self,
                              GError       **error)
{
  const LatentSplit *split = self->split;
  /* In blocks, so the standardised copy stays small. */
  const guint block = 1024, d = self->d;
  g_autofree float *x = g_new (float, (gsize) MIN (block, self->n_test) * d);
  g_autofree gint32 *y = g_new (gint32, MIN (block, self->n_test));
  double total = 0;

  for (guint first = 0; first < self->n_test; first += block)
    {
      const guint rows = MIN (block, self->n_test - first);

      if (!latent_logreg_gather (self, self->test_source, split->test_rows + first, rows, x, y, error))
        return FALSE;
      total += softmax_rows (self, x, y, rows, rows, NULL, self->test_predictions + first);
    }
  self->test_loss = self->n_test ? total / self->n_test : NAN;
  return TRUE;
}

gboolean
latent_logreg_reference_evaluate (LatentLogreg  *self,
                                  double        *g,
                                  double        *loss,
                                  guint         *right,
                                  GError       **error)
{
  const gsize cd = (gsize) self->c * self->d;

  /* One batch of all rows, in order: the bias gradient follows the weights'. */
  return batch_gradient (self, 0, self->n_train, g, g + cd, loss, right, error);
}
