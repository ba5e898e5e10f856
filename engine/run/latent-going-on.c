/* latent-going-on.c — Run on a finished run: going past its own values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-going-on"

#include "latent-going-on.h"

#include <glib/gi18n-lib.h>

gboolean
latent_going_on_can (LatentParams          *params,
                     LatentParams          *going_on,
                     const LatentGoingOnAt *at,
                     guint                 *from)
{
  LatentParams *base = going_on ? going_on : params;
  const char *budget = latent_params_find_role (params, LATENT_PARAM_ROLE_BUDGET);
  const char *tol;
  double lowest, highest;

  g_return_val_if_fail (params != NULL && at != NULL, FALSE);

  if (at->shown == NULL || at->instant ||
      at->state == LATENT_RUN_FAILED || at->state == LATENT_RUN_INITIALISING)
    return FALSE;
  if (from)
    *from = at->shown->iteration;
  /* Scrubbed back: a new run from there; the same seed takes the same path
   * up to it. */
  if (!at->follow && at->shown->iteration < at->newest)
    return TRUE;
  if (at->state != LATENT_RUN_FINISHED || !at->shown->final || budget == NULL)
    return FALSE;
  /* Only what would take it further: converged with a tolerance still to
   * lower, or stopped at a budget still to raise. */
  if (at->shown->converged)
    return (tol = latent_params_find_role (base, LATENT_PARAM_ROLE_TOLERANCE)) != NULL &&
           latent_params_get_double (base, tol) > 0;
  return latent_params_get_range (base, budget, &lowest, &highest) &&
         latent_params_get_int (base, budget) < highest;
}

LatentParams *
latent_going_on_next (LatentParams          *params,
                      LatentParams          *going_on,
                      const LatentGoingOnAt *at)
{
  const char *budget = latent_params_find_role (params, LATENT_PARAM_ROLE_BUDGET);
  LatentParams *next;
  guint from = 0;
  gint64 limit;
  double lowest, highest;

  /* Scrubbed back, the run goes on with the values it has. */
  if (!latent_going_on_can (params, going_on, at, &from) || !at->follow)
    return NULL;
  next = latent_params_copy (going_on ? going_on : params);
  limit = latent_params_get_int (next, budget);
  /* Past the person's own values, for this run only: converged, only a
   * tolerance of 0 lets it take more iterations; at the budget, twice as
   * many to go. */
  if (at->shown->converged)
    latent_params_set_double (next, latent_params_find_role (next, LATENT_PARAM_ROLE_TOLERANCE), 0, NULL);
  /* Doubling stops at the budget's own bound. */
  if ((gint64) from >= limit && latent_params_get_range (next, budget, &lowest, &highest))
    latent_params_set_int (next, budget, (gint64) MIN (2.0 * MAX (1, limit), highest), NULL);
  return next;
}

LatentGoingOnNote
latent_going_on_note (LatentParams *params,
                      LatentParams *going_on,
                      gint64       *limit)
{
  const char *budget = latent_params_find_role (params, LATENT_PARAM_ROLE_BUDGET);
  const char *tol = latent_params_find_role (params, LATENT_PARAM_ROLE_TOLERANCE);

  if (limit)
    *limit = going_on && budget ? latent_params_get_int (going_on, budget) : 0;
  if (going_on == NULL)
    return LATENT_GOING_ON_NOTE_NONE;
  return tol != NULL && latent_params_get_double (going_on, tol) == 0 &&
         latent_params_get_double (params, tol) != 0
         ? LATENT_GOING_ON_NOTE_PAST_CONVERGENCE : LATENT_GOING_ON_NOTE_MORE_ITERATIONS;
}

char *
latent_going_on_describe_note (LatentParams *params,
                               LatentParams *going_on)
{
  gint64 limit = 0;

  switch (latent_going_on_note (params, going_on, &limit))
    {
    case LATENT_GOING_ON_NOTE_PAST_CONVERGENCE:
      return g_strdup_printf (_("Going on past convergence, up to %lld iterations: "
                                "this run ignores the tolerance. Reset goes back to the values above."),
                              (long long) limit);
    case LATENT_GOING_ON_NOTE_MORE_ITERATIONS:
      return g_strdup_printf (_("Going on, up to %lld iterations in this run. "
                                "Reset goes back to the values above."), (long long) limit);
    case LATENT_GOING_ON_NOTE_NONE:
    default:
      return NULL;
    }
}
