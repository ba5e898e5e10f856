/* latent-sweep.c — one model per K, scored by BIC and AIC
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-sweep"

#include "latent-sweep.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* The largest range a sweep accepts: each K is a whole fit. */
#define MAX_POINTS 256

gboolean
latent_sweep_parse_range (LatentParams  *params,
                          const char    *name,
                          const char    *text,
                          guint         *first,
                          guint         *last,
                          GError       **error)
{
  g_autofree char *prefix = g_strconcat (name, "=", NULL);
  const char *range = g_str_has_prefix (text, prefix) ? text + strlen (prefix) : text;
  g_auto(GStrv) parts = g_strsplit (range, "..", 2);
  double min = 1, max = G_MAXUINT;
  guint64 a, b;

  /* The parameter's own bounds: a sweep asks nothing a single run refuses. */
  latent_params_get_range (params, name, &min, &max);
  min = MAX (min, 1);
  if (!g_ascii_string_to_unsigned (parts[0], 10, 0, G_MAXUINT, &a, NULL) ||
      (parts[1] && !g_ascii_string_to_unsigned (parts[1], 10, 0, G_MAXUINT, &b, NULL)))
    {
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                   _("parameter %s: “%s” is not a range such as 1..12"), name, range);
      return FALSE;
    }
  if (parts[1] == NULL)
    b = a;
  if (a < min || b > max)
    {
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                   _("parameter %s: %s is outside [%g, %g]"), name, range, min, max);
      return FALSE;
    }
  if (b < a || b - a >= MAX_POINTS)
    {
      g_set_error (error, LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID,
                   _("parameter %s: %s must go up, by at most %u values"), name, range, MAX_POINTS);
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

  g_return_val_if_fail (algorithm != NULL && algorithm->sweep_param != NULL && first >= 1 && first <= last, NULL);

  self->points = g_array_new (FALSE, FALSE, sizeof (LatentSweepPoint));
  for (guint k = first; k <= last; k++)
    {
      g_autoptr(LatentFit) fit = NULL;
      LatentSweepPoint point = { .k = k };

      if (!latent_params_set_int (copy, algorithm->sweep_param, k, error) ||
          !(fit = latent_algorithm_fit (algorithm, dataset, copy, seed, cl, NULL, NULL, cancellable, error)))
        return NULL;
      point.iterations = fit->snapshot->iteration;
      point.converged = fit->snapshot->converged;
      point.log_likelihood = fit->snapshot->log_likelihood;
      point.bic = fit->snapshot->bic;
      point.aic = fit->snapshot->aic;
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
