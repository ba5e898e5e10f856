/* latent-sweep.c — one model per K, scored by BIC and AIC
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-sweep"

#include "latent-sweep.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* The largest range a sweep accepts: each K is a whole fit. */
#define MAX_POINTS 256

gboolean
latent_sweep_parse_range (const char  *text,
                          guint       *first,
                          guint       *last,
                          GError     **error)
{
  const char *range = g_str_has_prefix (text, "k=") ? text + 2 : text;
  g_auto(GStrv) parts = g_strsplit (range, "..", 2);
  guint64 a, b;

  if (!g_ascii_string_to_unsigned (parts[0], 10, 1, G_MAXUINT, &a, NULL) ||
      (parts[1] && !g_ascii_string_to_unsigned (parts[1], 10, 1, G_MAXUINT, &b, NULL)))
    {
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                   _("parameter k: “%s” is not a range such as 1..12"), range);
      return FALSE;
    }
  if (parts[1] == NULL)
    b = a;
  if (b < a || b - a >= MAX_POINTS)
    {
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                   _("parameter k: %s must go up, by at most %u values"), range, MAX_POINTS);
      return FALSE;
    }
  *first = a;
  *last = b;
  return TRUE;
}

void
latent_sweep_free (LatentSweep *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->points);
  g_free (self);
}

LatentSweep *
latent_sweep_run (const LatentAlgorithm  *algorithm,
                  LatentDataset          *dataset,
                  LatentParams           *params,
                  guint64                 seed,
                  LatentCl               *cl,
                  guint                   first,
                  guint                   last,
                  void                  (*progress) (const LatentSweepPoint *point,
                                                     gpointer                user_data),
                  gpointer                user_data,
                  GCancellable           *cancellable,
                  GError                **error)
{
  g_autoptr(LatentSweep) self = g_new0 (LatentSweep, 1);
  g_autoptr(LatentParams) copy = latent_params_copy (params);

  g_return_val_if_fail (algorithm != NULL && first >= 1 && first <= last, NULL);

  self->points = g_array_new (FALSE, FALSE, sizeof (LatentSweepPoint));
  for (guint k = first; k <= last; k++)
    {
      g_autofree char *k_text = g_strdup_printf ("%u", k);
      g_autoptr(LatentSnapshot) snap = NULL;
      LatentSweepPoint point = { .k = k };
      gpointer state;

      if (!latent_params_set (copy, "k", k_text, error) ||
          !(state = algorithm->init (dataset, copy, seed, cl, error)))
        return NULL;
      while (!algorithm->converged (state))
        if (!algorithm->step (state, cancellable, error))
          {
            algorithm->free (state);
            return NULL;
          }
      snap = algorithm->snapshot (state);
      algorithm->free (state);

      point.iterations = snap->iteration;
      point.converged = snap->converged;
      point.log_likelihood = snap->log_likelihood;
      point.bic = snap->bic;
      point.aic = snap->aic;
      g_array_append_val (self->points, point);
      if (progress)
        progress (&point, user_data);
    }

  for (guint i = 1; i < self->points->len; i++)
    {
      LatentSweepPoint *p = &g_array_index (self->points, LatentSweepPoint, i);

      if (p->bic < g_array_index (self->points, LatentSweepPoint, self->best_bic).bic)
        self->best_bic = i;
      if (p->aic < g_array_index (self->points, LatentSweepPoint, self->best_aic).aic)
        self->best_aic = i;
    }
  return g_steal_pointer (&self);
}
