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
  g_clear_pointer (&self->params, latent_params_unref);
  g_free (self);
}

/* A value as the window's panel shows it: a choice by its label. */
static char *
describe_value (LatentParams          *params,
                const LatentParamSpec *spec)
{
  switch (spec->type)
    {
    case LATENT_PARAM_INT:
      return g_strdup_printf ("%" G_GINT64_FORMAT, latent_params_get_int (params, spec->name));
    case LATENT_PARAM_DOUBLE:
      return g_strdup_printf ("%g", latent_params_get_double (params, spec->name));
    case LATENT_PARAM_CHOICE:
      {
        const char *value = latent_params_get_choice (params, spec->name);

        for (guint i = 0; spec->choices && spec->choice_labels && spec->choices[i]; i++)
          if (g_strcmp0 (spec->choices[i], value) == 0 && spec->choice_labels[i])
            return g_strdup (_(spec->choice_labels[i]));
        return g_strdup (value ? value : "");
      }
    case LATENT_PARAM_BOOL:
    default:
      return NULL;
    }
}

char *
latent_sweep_describe_fits (const LatentSweep *self)
{
  GString *text;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->params == NULL)
    return NULL;
  text = g_string_new (NULL);
  /* Every value that shapes a fit (switches such as saving the
   * responsibilities do not), in the panel's order and words. */
  for (guint i = 0; i < latent_params_get_n_specs (self->params); i++)
    {
      const LatentParamSpec *spec = latent_params_get_spec (self->params, i);
      g_autofree char *value = NULL;

      if (g_strcmp0 (spec->name, self->swept) == 0 || !latent_params_applies (self->params, spec)
          || !(value = describe_value (self->params, spec)))
        continue;
      g_string_append_printf (text, "%s%s %s", text->len ? " · " : "", _(spec->label), value);
    }
  g_string_append_printf (text, _("%sseed %llu"), text->len ? " · " : "", (unsigned long long) self->seed);
  return g_string_free (text, FALSE);
}

char *
latent_sweep_describe_edge (const LatentSweep *self)
{
  const LatentSweepPoint *points, *best;
  guint n, first, last;

  g_return_val_if_fail (self != NULL, NULL);

  n = self->points->len;
  if (n < 2 || self->best_bic >= n)
    return NULL;
  points = (const LatentSweepPoint *) self->points->data;
  best = &points[self->best_bic];
  first = points[0].k;
  last = points[n - 1].k;
  /* The criterion may still fall past the end: the range decides, not the data. */
  if (self->best_bic == n - 1 && (self->max_k == 0 || last < self->max_k))
    {
      guint wider = self->max_k > 0 ? MIN (2 * last, self->max_k) : 2 * last;

      return g_strdup_printf (_("K = %u is the largest tried: try K up to %u"), best->k, wider);
    }
  if (self->best_bic == 0 && first > 1)
    return g_strdup_printf (_("K = %u is the smallest tried: try K from 1"), best->k);
  return NULL;
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
  const char *swept = latent_algorithm_param_with_role (algorithm, LATENT_PARAM_ROLE_SWEEP);

  g_return_val_if_fail (swept != NULL && first >= 1 && first <= last, NULL);

  self->points = g_array_new (FALSE, FALSE, sizeof (LatentSweepPoint));
  self->params = latent_params_copy (params);
  self->swept = swept;
  self->seed = seed;
  self->max_k = (guint) CLAMP (latent_algorithm_max_int (algorithm, dataset, params, swept),
                               0, G_MAXUINT);
  for (guint k = first; k <= last; k++)
    {
      g_autoptr(LatentFit) fit = NULL;
      LatentSweepPoint point = { .k = k };

      if (!latent_params_set_int (copy, swept, k, error) ||
          !(fit = latent_algorithm_fit (algorithm, dataset, copy, seed, cl, NULL, NULL, cancellable, error)))
        return NULL;
      /* "Automatic" says nothing of what the fits used: name it. */
      if (k == first && algorithm->resolve_params != NULL)
        algorithm->resolve_params (fit->snapshot, self->params);
      point.iterations = fit->snapshot->iteration;
      point.converged = fit->snapshot->converged;
      point.log_likelihood = fit->snapshot->mixture.log_likelihood;
      point.bic = fit->snapshot->mixture.bic;
      point.aic = fit->snapshot->mixture.aic;
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
