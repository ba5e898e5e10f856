/* latent-algorithm.c — what every algorithm shares: its parameters, its
 * check, and the loop that runs it to the end without a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-algorithm"

#include "latent-algorithm.h"

G_DEFINE_QUARK (latent-algorithm-error-quark, latent_algorithm_error)

LatentParams *
latent_algorithm_new_params (const LatentAlgorithm *algorithm)
{
  g_return_val_if_fail (algorithm != NULL, NULL);
  return latent_params_new (algorithm->params, algorithm->n_params);
}

gboolean
latent_algorithm_check (const LatentAlgorithm  *algorithm,
                        LatentDataset          *dataset,
                        LatentParams           *params,
                        GError                **error)
{
  g_return_val_if_fail (algorithm != NULL && dataset != NULL && params != NULL, FALSE);
  return algorithm->check == NULL || algorithm->check (dataset, params, error);
}

gboolean
latent_algorithm_offers_figure (const LatentAlgorithm *algorithm,
                                const char            *name)
{
  g_return_val_if_fail (algorithm != NULL && name != NULL, FALSE);
  return algorithm->figures != NULL && g_strv_contains ((const char * const *) algorithm->figures, name);
}

gboolean
latent_algorithm_run_state (const LatentAlgorithm  *algorithm,
                            gpointer                state,
                            GCancellable           *cancellable,
                            GError                **error)
{
  while (!algorithm->converged (state))
    if (!algorithm->step (state, cancellable, error))
      return FALSE;
  return TRUE;
}

void
latent_fit_free (LatentFit *fit)
{
  if (fit == NULL)
    return;
  g_clear_pointer (&fit->snapshot, latent_snapshot_unref);
  g_clear_pointer (&fit->history, g_array_unref);
  g_free (fit);
}

LatentFit *
latent_algorithm_fit (const LatentAlgorithm  *algorithm,
                      LatentDataset          *dataset,
                      LatentParams           *params,
                      guint64                 seed,
                      LatentCl               *cl,
                      LatentFitFunc           progress,
                      gpointer                user_data,
                      GCancellable           *cancellable,
                      GError                **error)
{
  g_autoptr(LatentFit) fit = NULL;
  gint64 start = g_get_monotonic_time ();
  gpointer state;
  gboolean ok = TRUE;

  g_return_val_if_fail (algorithm != NULL && dataset != NULL && params != NULL, NULL);

  if (!(state = algorithm->init (dataset, params, seed, latent_cl_usable (cl), error)))
    return NULL;
  fit = g_new0 (LatentFit, 1);
  fit->history = g_array_new (FALSE, FALSE, sizeof (LatentIterationRecord));
  fit->init_ms = (g_get_monotonic_time () - start) / 1000.0;
  while (!algorithm->converged (state))
    {
      LatentIterationRecord record;
      gint64 t0 = g_get_monotonic_time ();

      if (!(ok = algorithm->step (state, cancellable, error)))
        break;
      record.iteration = fit->history->len + 1;
      record.objective = algorithm->objective (state);
      record.step_ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (fit->history, record);
      if (progress)
        progress (&record, user_data);
    }
  if (ok)
    fit->snapshot = algorithm->snapshot (state);
  algorithm->free (state);
  if (!ok)
    return NULL;
  fit->total_ms = (g_get_monotonic_time () - start) / 1000.0;
  fit->snapshot->elapsed_ms = fit->total_ms;
  if (fit->history->len > 0)
    fit->snapshot->step_ms = g_array_index (fit->history, LatentIterationRecord, fit->history->len - 1).step_ms;
  return g_steal_pointer (&fit);
}
