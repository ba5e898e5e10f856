/* latent-tune.c — the tuner: each kernel's tunables tried on this device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A job (LatentTuneJob, engine/cl/latent-cl.h) is a program, a workload
 * that exercises its hot kernels, and a small grid of tunables per shape;
 * each program's host code declares its own. Every setting of the grid
 * runs the workload; the fastest whose result agrees with the defaults' is
 * saved (latent_cl_save_tunables) and read back by the hosts through
 * latent_cl_tunable. Grids stay small (each setting is a program build,
 * seconds on a CPU driver).
 */
#define G_LOG_DOMAIN "latent-tune"

#include "latent-tune.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-algorithm.h"
#include "latent-gemm.h"
#include "latent-registry.h"
#include "latent-synthetic.h"

#define NOISE 0.97

/* Each job lives beside its program's host code. In the order `latent-cli
 * tune` runs them: the matrix product's, then each algorithm's that has
 * one (its table's tune_job), as the registry lists them. */
static GPtrArray *
list_jobs (void)
{
  const LatentAlgorithm * const *algorithms = latent_registry_list ();
  GPtrArray *jobs = g_ptr_array_new ();

  g_ptr_array_add (jobs, (gpointer) &latent_gemm_tune_job);
  for (guint i = 0; algorithms[i]; i++)
    if (algorithms[i]->tune_job != NULL)
      g_ptr_array_add (jobs, (gpointer) algorithms[i]->tune_job);
  return jobs;
}

/* ---- workloads ---------------------------------------------------------- */

/* A result to compare settings by: the product's matrix, or an
 * algorithm's final objective. */
typedef struct {
  double  ms;
  float  *values;
  gsize   n_values;
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_clear_pointer (&outcome->values, g_free);
  outcome->n_values = 0;
  outcome->ms = 0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  const double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *values,
        guint   n)
{
  qsort (values, n, sizeof *values, compare_doubles);
  return n == 0 ? 0 : n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

static gboolean
run_product (LatentCl      *cl,
             guint          size,
             Outcome       *outcome,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(LatentGemm) gemm = NULL;
  g_autofree float *host = g_new (float, (gsize) size * size);
  cl_command_queue queue = latent_cl_get_queue (cl);
  const gsize bytes = (gsize) size * size * sizeof (float);
  cl_mem a = NULL, b = NULL, c = NULL;
  double times[5];
  guint64 state = 20261125;
  gboolean ok = FALSE;
  cl_int err;

  for (gsize i = 0; i < (gsize) size * size; i++)
    {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      host[i] = (float) ((state >> 40) / 16777216.0) - 0.5f;
    }
  if (!(gemm = latent_gemm_new (cl, error)) ||
      !latent_cl_create_buffer (cl, &a, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host, "A", error) ||
      !latent_cl_create_buffer (cl, &b, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host, "B", error) ||
      !latent_cl_create_buffer (cl, &c, CL_MEM_READ_WRITE, bytes, NULL, "C", error))
    goto out;

  /* One warm-up product, then the median of the rest. */
  for (guint r = 0; r <= G_N_ELEMENTS (times); r++)
    {
      gint64 start = g_get_monotonic_time ();

      if (!latent_gemm_run (gemm, queue, FALSE, TRUE, size, size, size, 1.0f, a, size, b, size,
                            0.0f, c, size, cancellable, error))
        goto out;
      err = clFinish (queue);
      if (!latent_cl_check (err, "clFinish", "gemm", error))
        goto out;
      if (r > 0)
        times[r - 1] = (g_get_monotonic_time () - start) / 1000.0;
    }
  err = clEnqueueReadBuffer (queue, c, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "gemm", error))
    goto out;
  outcome->ms = median (times, G_N_ELEMENTS (times));
  outcome->values = g_steal_pointer (&host);
  outcome->n_values = (gsize) size * size;
  ok = TRUE;

out:
  if (a != NULL)
    clReleaseMemObject (a);
  if (b != NULL)
    clReleaseMemObject (b);
  if (c != NULL)
    clReleaseMemObject (c);
  return ok;
}

static gboolean
run_algorithm (LatentCl             *cl,
               const LatentTuneJob  *job,
               LatentDataset        *dataset,
               Outcome              *outcome,
               GCancellable         *cancellable,
               GError              **error)
{
  const LatentAlgorithm *algorithm = latent_registry_lookup (job->algorithm, error);
  g_autoptr(LatentParams) params = NULL;
  g_auto(GStrv) assignments = NULL;
  g_autoptr(LatentFit) fit = NULL;
  g_autofree double *times = NULL;
  guint n, failures;

  if (algorithm == NULL)
    return FALSE;
  params = latent_algorithm_new_params (algorithm);
  assignments = g_strsplit (job->params, " ", -1);
  for (guint i = 0; assignments[i] != NULL; i++)
    if (!latent_params_parse (params, assignments[i], error))
      return FALSE;

  /* A failing OpenCL path carries on on the reference path and counts a
   * failure; the tuner must not time that. */
  failures = latent_cl_get_failures (cl);
  fit = latent_algorithm_fit (algorithm, dataset, params, 1, cl, NULL, NULL, cancellable, error);
  if (fit == NULL)
    return FALSE;
  if (latent_cl_get_failures (cl) != failures)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL, "%s",
                   fit->snapshot->message ? fit->snapshot->message : "the OpenCL path failed");
      return FALSE;
    }
  n = fit->history->len;
  if (n < 2)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: only %u iterations to time", job->program, n);
      return FALSE;
    }
  /* The first step pays for building and first touches. */
  times = g_new (double, n - 1);
  for (guint i = 1; i < n; i++)
    times[i - 1] = g_array_index (fit->history, LatentIterationRecord, i).step_ms;
  outcome->ms = median (times, n - 1);
  outcome->values = g_new (float, 1);
  outcome->values[0] = g_array_index (fit->history, LatentIterationRecord, n - 1).objective;
  outcome->n_values = 1;
  return TRUE;
}

static gboolean
run_workload (LatentCl             *cl,
              const LatentTuneJob  *job,
              gboolean              quick,
              LatentDataset        *dataset,
              Outcome              *outcome,
              GCancellable         *cancellable,
              GError              **error)
{
  return job->algorithm ? run_algorithm (cl, job, dataset, outcome, cancellable, error)
                        : run_product (cl, quick ? job->quick_rows : job->rows, outcome, cancellable, error);
}

/* Settings differ in the order they add things up, nothing else. */
static gboolean
agrees (const Outcome *reference,
        const Outcome *outcome)
{
  double scale = 0, worst = 0;

  if (reference->n_values != outcome->n_values)
    return FALSE;
  for (gsize i = 0; i < reference->n_values; i++)
    {
      scale = MAX (scale, fabs (reference->values[i]));
      worst = MAX (worst, fabs ((double) reference->values[i] - outcome->values[i]));
    }
  return isfinite (worst) && worst <= 1e-3 * MAX (scale, 1e-30);
}

/* ---- the grid ----------------------------------------------------------- */

static guint
count_tunables (const LatentTuneTunable *tunables)
{
  guint n = 0;

  while (n < LATENT_TUNE_MAX_TUNABLES && tunables[n].name != NULL)
    n++;
  return n;
}

/* What the tuner keeps, a tuning file must give back unchanged: every
 * grid lies inside latent_cl_tunable_bound's ranges. */
static gboolean
grids_within_file_bounds (void)
{
  g_autoptr(GPtrArray) all = list_jobs ();
  const LatentTuneJob **jobs = (const LatentTuneJob **) all->pdata;

  for (guint i = 0; i < all->len; i++)
    for (guint shape = 0; shape < 2; shape++)
      {
        const LatentTuneTunable *tunables = shape ? jobs[i]->gpu : jobs[i]->cpu;

        for (guint t = 0; t < count_tunables (tunables); t++)
          for (guint v = 0; v < tunables[t].n_values; v++)
            {
              int bounded = tunables[t].values[v];

              if (!latent_cl_tunable_bound (jobs[i]->program, tunables[t].name, &bounded) ||
                  bounded != tunables[t].values[v])
                return FALSE;
            }
      }
  return TRUE;
}

/* Sets the grid's setting number INDEX (mixed radix over the tunables)
 * and describes it. */
static char *
apply_setting (LatentCl                *cl,
               const LatentTuneJob     *job,
               const LatentTuneTunable *tunables,
               guint                    n_tunables,
               guint                    index)
{
  GString *text = g_string_new (NULL);

  for (guint t = 0; t < n_tunables; t++)
    {
      const guint n = tunables[t].n_values;
      const int value = tunables[t].values[index % n];

      index /= n;
      latent_cl_set_tunable (cl, job->program, tunables[t].name, value);
      g_string_append_printf (text, "%s%s=%d", t ? " " : "", tunables[t].name, value);
    }
  return g_string_free (text, FALSE);
}

static gboolean
run_job (LatentCl             *cl,
         const LatentTuneJob  *job,
         gboolean              quick,
         LatentTuneFunc        report,
         gpointer              user_data,
         GCancellable         *cancellable,
         GError              **error)
{
  const LatentTuneTunable *tunables = latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU ? job->gpu : job->cpu;
  const guint n_tunables = count_tunables (tunables);
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *best_setting = NULL;
  Outcome reference = { 0 };
  double best_ms;
  guint settings = 1, best = G_MAXUINT;
  LatentTuneTrial trial = { job->program, "defaults", 0, TRUE, NULL };
  gboolean ok = FALSE;

  if (n_tunables == 0)
    return TRUE;
  if (job->algorithm != NULL &&
      !(dataset = latent_synthetic_blobs (quick ? job->quick_rows : job->rows, job->cols, 10, 7, error)))
    return FALSE;

  /* The defaults: whatever was saved before is forgotten first. */
  latent_cl_clear_tunables (cl, job->program);
  if (!latent_cl_save_tunables (cl, job->program, error))
    return FALSE;
  /* Twice: the first run pays for what any first run pays for (builds,
   * the driver's threads, first touches of memory). */
  for (guint r = 0; r < 2; r++)
    {
      outcome_clear (&reference);
      if (!run_workload (cl, job, quick, dataset, &reference, cancellable, error))
        goto out;
    }
  trial.ms = best_ms = reference.ms;
  report (&trial, user_data);

  for (guint t = 0; t < n_tunables; t++)
    settings *= tunables[t].n_values;
  for (guint s = 0; s < settings; s++)
    {
      g_autofree char *setting = apply_setting (cl, job, tunables, n_tunables, s);
      g_autoptr(GError) local_error = NULL;
      Outcome outcome = { 0 };
      gboolean ran;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      ran = run_workload (cl, job, quick, dataset, &outcome, cancellable, &local_error);
      trial.setting = setting;
      trial.ms = ran ? outcome.ms : 0;
      trial.correct = ran && agrees (&reference, &outcome);
      trial.failure = ran ? NULL : local_error->message;
      report (&trial, user_data);
      /* A setting must win clearly: a tie is noise, and the defaults are
       * what every test runs. */
      if (trial.correct && outcome.ms < MIN (best_ms, NOISE * reference.ms))
        {
          best_ms = outcome.ms;
          best = s;
        }
      outcome_clear (&outcome);
      if (latent_cl_usable (cl) == NULL)
        {
          g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                       _("%s: OpenCL failed %u times while tuning; stopped"), job->program,
                       latent_cl_get_failures (cl));
          goto out;
        }
    }

  latent_cl_clear_tunables (cl, job->program);
  if (best != G_MAXUINT)
    best_setting = apply_setting (cl, job, tunables, n_tunables, best);
  ok = latent_cl_save_tunables (cl, job->program, error);
  trial.setting = best_setting ? best_setting : "defaults";
  trial.ms = best_ms;
  trial.correct = TRUE;
  trial.failure = NULL;
  if (ok)
    report (&trial, user_data);

out:
  outcome_clear (&reference);
  latent_cl_clear_tunables (cl, job->program);
  return ok;
}

gboolean
latent_tune_run (LatentCl        *cl,
                 const char      *only,
                 gboolean         quick,
                 LatentTuneFunc   report,
                 gpointer         user_data,
                 GCancellable    *cancellable,
                 GError         **error)
{
  g_autoptr(GPtrArray) all = list_jobs ();
  const LatentTuneJob **jobs = (const LatentTuneJob **) all->pdata;
  gboolean found = FALSE;
  LatentKernelShape shape;

  g_return_val_if_fail (LATENT_IS_CL (cl), FALSE);
  g_return_val_if_fail (report != NULL, FALSE);
  g_warn_if_fail (grids_within_file_bounds ());
  shape = latent_cl_get_shape (cl);

  for (guint i = 0; i < all->len; i++)
    {
      if (only != NULL && !g_str_equal (only, jobs[i]->program))
        continue;
      found = TRUE;
      /* Asked for by name, a program with nothing to tune in this shape is
       * not "kept": say so (all programs together skip it quietly). */
      if (only != NULL && count_tunables (shape == LATENT_KERNEL_SHAPE_GPU ? jobs[i]->gpu : jobs[i]->cpu) == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       /* Translators: the program, then the kernel shape: "cpu" or "gpu" */
                       _("%s: the %s shape has no tunables for it; there is nothing to tune on this device"),
                       only, latent_kernel_shape_to_string (shape));
          return FALSE;
        }
      if (!run_job (cl, jobs[i], quick, report, user_data, cancellable, error))
        return FALSE;
    }
  if (!found)
    {
      g_autoptr(GString) known = g_string_new (NULL);

      for (guint i = 0; i < all->len; i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "", jobs[i]->program);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("No tunable program “%s”; the tuner knows %s"), only, known->str);
      return FALSE;
    }
  return TRUE;
}
