/* latent-algorithm.c — what every algorithm shares: its parameters, its
 * check, and the loop that runs it to the end without a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-algorithm"

#include "latent-algorithm.h"
#include "latent-family.h"
#include "latent-mpi.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <pmmintrin.h>
#endif

G_DEFINE_QUARK (latent-algorithm-error-quark, latent_algorithm_error)

LatentParams *
latent_algorithm_new_params (const LatentAlgorithm *algorithm)
{
  g_return_val_if_fail (algorithm != NULL, NULL);
  return latent_params_new (algorithm->params, algorithm->n_params);
}

LatentFamily
latent_snapshot_get_family (LatentSnapshot *snapshot)
{
  g_return_val_if_fail (snapshot != NULL && snapshot->algorithm != NULL, LATENT_FAMILY_CLUSTERS);
  return snapshot->algorithm->family;
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

static gboolean
takes (const LatentAlgorithm *algorithm,
       LatentDataset         *dataset,
       LatentParams          *probe,
       const char            *name,
       gint64                 value)
{
  return latent_params_set_int (probe, name, value, NULL) &&
         latent_algorithm_check (algorithm, dataset, probe, NULL);
}

gint64
latent_algorithm_max_int (const LatentAlgorithm *algorithm,
                          LatentDataset         *dataset,
                          LatentParams          *params,
                          const char            *name)
{
  return latent_algorithm_max_int_from (algorithm, dataset, params, name, -1);
}

gint64
latent_algorithm_max_int_from (const LatentAlgorithm *algorithm,
                               LatentDataset         *dataset,
                               LatentParams          *params,
                               const char            *name,
                               gint64                 guess)
{
  g_autoptr(LatentParams) probe = NULL;
  double min, max;
  gint64 lo, hi;

  g_return_val_if_fail (algorithm != NULL && LATENT_IS_DATASET (dataset) && params != NULL, 0);

  if (!latent_params_get_range (params, name, &min, &max))
    g_return_val_if_reached (0);
  lo = (gint64) ceil (min);
  hi = (gint64) floor (max);
  /* Without a check every value is taken. */
  if (algorithm->check == NULL)
    return hi;
  if (algorithm->max_int != NULL)
    {
      const LatentParamSpec *spec = NULL;
      gint64 bound;

      for (guint i = 0; i < latent_params_get_n_specs (params) && spec == NULL; i++)
        if (g_str_equal (latent_params_get_spec (params, i)->name, name))
          spec = latent_params_get_spec (params, i);
      g_return_val_if_fail (spec != NULL, hi);
      bound = algorithm->max_int (dataset, params, spec);
      /* Below the least value, refused whatever it is: as the search, no
       * bound to show. */
      return bound < lo ? hi : MIN (bound, hi);
    }
  probe = latent_params_copy (params);
  /* The last bound still holds: taken there, refused one above. */
  if (guess >= lo && guess <= hi && takes (algorithm, dataset, probe, name, guess) &&
      (guess == hi || !takes (algorithm, dataset, probe, name, guess + 1)))
    return guess;
  /* Taken at the top, or refused even at the bottom (not an image, too
   * many columns): the check puts no bound on this one. */
  if (takes (algorithm, dataset, probe, name, hi) || !takes (algorithm, dataset, probe, name, lo))
    return hi;
  /* The checks bound from above (k ≤ rows): find where. */
  while (hi - lo > 1)
    {
      gint64 mid = lo + (hi - lo) / 2;

      if (takes (algorithm, dataset, probe, name, mid))
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

const LatentParamSpec *
latent_algorithm_spec_with_role (const LatentAlgorithm *algorithm,
                                 LatentParamRole        role)
{
  g_return_val_if_fail (algorithm != NULL, NULL);

  for (guint i = 0; i < algorithm->n_params; i++)
    if (algorithm->params[i].role == role)
      return &algorithm->params[i];
  return NULL;
}

const char *
latent_algorithm_param_with_role (const LatentAlgorithm *algorithm,
                                  LatentParamRole        role)
{
  const LatentParamSpec *spec = latent_algorithm_spec_with_role (algorithm, role);

  return spec ? spec->name : NULL;
}

gboolean
latent_algorithm_offers_figure (const LatentAlgorithm *algorithm,
                                const char            *name)
{
  g_return_val_if_fail (algorithm != NULL && name != NULL, FALSE);
  return algorithm->figures != NULL && g_strv_contains ((const char * const *) algorithm->figures, name);
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

guint
latent_algorithm_flush_denormals (void)
{
#ifdef __SSE2__
  guint saved = _mm_getcsr ();

  _mm_setcsr (saved | _MM_FLUSH_ZERO_ON | _MM_DENORMALS_ZERO_ON);
  return saved;
#else
  return 0;
#endif
}

void
latent_algorithm_restore_denormals (guint saved)
{
#ifdef __SSE2__
  _mm_setcsr (saved);
#endif
}

gboolean
latent_algorithm_pass_over (LatentRows            *rows,
                            LatentAccumulateFunc   accumulate,
                            gpointer               state,
                            double                *stats,
                            gsize                  n_stats,
                            GCancellable          *cancellable,
                            GError               **error)
{
  const guint n_chunks = latent_rows_get_n_chunks (rows);

  /* Zeroed here, so that a chunk only ever adds. */
  memset (stats, 0, n_stats * sizeof (double));
  for (guint c = 0; c < n_chunks; c++)
    {
      LatentChunk chunk;

      /* One chunk of every row is one call; check between chunks. */
      if ((c > 0 && g_cancellable_set_error_if_cancelled (cancellable, error)) ||
          !latent_rows_get_chunk (rows, c, &chunk, error) ||
          !accumulate (state, &chunk, stats, cancellable, error))
        return FALSE;
    }
  /* Several processes: the sums of all their shares (see LatentPassFuncs). */
  return !latent_rows_is_shared (rows) || latent_mpi_sum (stats, n_stats, error);
}

LatentRows *
latent_algorithm_new_rows (LatentDataset *dataset)
{
  guint first, count;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);

  if (latent_mpi_size () == 1)
    return latent_rows_new_for_dataset (dataset, 0);
  latent_mpi_share (latent_dataset_get_n_rows (dataset), &first, &count);
  return latent_rows_new_for_share (dataset, first, count, 0);
}

static gboolean rows_watched;

void
latent_algorithm_set_rows_watched (gboolean watched)
{
  rows_watched = watched;
}

/* Each rank's share of what the pass wrote per row, to every rank. */
static gboolean
share_row_state (const LatentPassFuncs  *pass,
                 gpointer                state,
                 LatentRows             *rows,
                 GError                **error)
{
  LatentRowState arrays[LATENT_ROW_STATE_MAX];
  guint n;

  if (pass->row_state == NULL || !latent_rows_is_shared (rows))
    return TRUE;
  n = pass->row_state (state, rows_watched, arrays);
  for (guint i = 0; i < n; i++)
    if (!latent_mpi_share_rows (arrays[i].data, arrays[i].row_bytes, latent_rows_get_n_rows (rows), error))
      return FALSE;
  return TRUE;
}

gboolean
latent_algorithm_step (const LatentAlgorithm  *algorithm,
                       gpointer                state,
                       LatentRows             *rows,
                       GCancellable           *cancellable,
                       GError                **error)
{
  const LatentPassFuncs *pass = algorithm->pass;
  gboolean done = FALSE, again = FALSE;

  if (pass == NULL)
    return algorithm->step (state, cancellable, error);
  g_return_val_if_fail (rows != NULL, FALSE);

  if (!pass->begin (state, rows, &done, cancellable, error))
    return FALSE;
  if (done)
    return TRUE;
  do
    {
      gsize n_stats = pass->n_stats (state);
      g_autofree double *stats = latent_algorithm_alloc (n_stats, sizeof (double), _("a pass’s statistics"), error);

      again = FALSE;
      if (stats == NULL ||
          !latent_algorithm_pass_over (rows, pass->accumulate, state, stats, n_stats, cancellable, error) ||
          !share_row_state (pass, state, rows, error) ||
          !pass->finish (state, stats, &again, cancellable, error))
        return FALSE;
    }
  while (again);
  return TRUE;
}

guint
latent_algorithm_frame_every (LatentSnapshot *start,
                              guint           max_frames)
{
  const LatentParamSpec *spec;
  const LatentEpochs *epochs;
  double planned;

  g_return_val_if_fail (start != NULL, 1);

  spec = start->params ? latent_algorithm_spec_with_role (start->algorithm, LATENT_PARAM_ROLE_BUDGET) : NULL;
  if (spec == NULL)
    return 1;
  planned = (double) latent_params_get_int (start->params, spec->name);
  /* An epoch is many steps for the learners by mini-batch (the
   * autoencoder's thousands a run); their snapshot says how many. */
  epochs = spec->unit == LATENT_PARAM_UNIT_EPOCHS ? latent_family_epochs (start) : NULL;
  if (epochs != NULL && epochs->steps_per_epoch > 0)
    planned *= epochs->steps_per_epoch;
  /* The start and the end are frames of their own. */
  max_frames = MAX (max_frames, 3u);
  return (guint) CLAMP (ceil (planned / (max_frames - 2)), 1.0, (double) G_MAXUINT);
}

/* Gives @snapshot to @frame; from @t0 (before the snapshot was taken) on,
 * the time is the recording's, not the fit's. */
static void
give_frame (LatentFitFrameFunc  frame,
            LatentSnapshot     *snapshot,
            gpointer            user_data,
            LatentFit          *fit,
            gint64              t0,
            gint64             *frame_us)
{
  frame (snapshot, user_data);
  fit->n_frames++;
  *frame_us += g_get_monotonic_time () - t0;
}

/* Whether the iteration just done gives a frame (see fit_full). */
static gboolean
frame_due (const LatentFit *fit,
           guint            iteration,
           gint64           last_frame_end,
           gint64           last_frame_us)
{
  gint64 since = g_get_monotonic_time () - last_frame_end;

  if (fit->frame_every != LATENT_FIT_FRAMES_TIMED)
    return iteration % fit->frame_every == 0;
  return since >= LATENT_FIT_FRAME_INTERVAL_MS * 1000 && since >= 10 * last_frame_us;
}

LatentFit *
latent_algorithm_fit_full (const LatentAlgorithm  *algorithm,
                           LatentDataset          *dataset,
                           LatentParams           *params,
                           guint64                 seed,
                           LatentCl               *cl,
                           LatentFitFunc           progress,
                           LatentFitFrameFunc      frame,
                           guint                   frame_every,
                           gpointer                user_data,
                           GCancellable           *cancellable,
                           GError                **error)
{
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(LatentRows) rows = NULL;
  gint64 start = g_get_monotonic_time ();
  gint64 frame_us = 0, last_frame_end = 0, last_frame_us = 0;
  gpointer state;
  gboolean ok = FALSE;
  guint saved;

  g_return_val_if_fail (algorithm != NULL && dataset != NULL && params != NULL, NULL);

  saved = latent_algorithm_flush_denormals ();
  if (!(state = algorithm->init (dataset, params, seed, latent_cl_usable (cl), cancellable, error)))
    goto out;
  fit = g_new0 (LatentFit, 1);
  fit->history = g_array_new (FALSE, FALSE, sizeof (LatentIterationRecord));
  fit->init_ms = (g_get_monotonic_time () - start) / 1000.0;
  fit->initial_objective = algorithm->objective (state);
  /* Under MPI, this rank's share: the passes are summed over the ranks. */
  rows = latent_algorithm_new_rows (dataset);
  /* The start, unless it is already the end (which comes below). */
  if (frame != NULL && !algorithm->converged (state))
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(LatentSnapshot) first = algorithm->snapshot (state);

      if (frame_every == 0)
        frame_every = latent_algorithm_frame_every (first, LATENT_FIT_MAX_FRAMES);
      first->elapsed_ms = fit->init_ms;
      give_frame (frame, first, user_data, fit, t0, &frame_us);
      last_frame_end = g_get_monotonic_time ();
      last_frame_us = last_frame_end - t0;
    }
  if (frame != NULL)
    fit->frame_every = MAX (frame_every, 1u);
  ok = TRUE;
  while (!algorithm->converged (state))
    {
      LatentIterationRecord record;
      gint64 t0 = g_get_monotonic_time ();

      if (!(ok = latent_algorithm_step (algorithm, state, rows, cancellable, error)))
        break;
      record.iteration = fit->history->len + 1;
      record.objective = algorithm->objective (state);
      record.step_ms = (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (fit->history, record);
      if (progress)
        progress (&record, user_data);
      /* The last iteration's frame is the final snapshot, given once. */
      if (frame != NULL && frame_due (fit, record.iteration, last_frame_end, last_frame_us) &&
          !algorithm->converged (state))
        {
          gint64 t1 = g_get_monotonic_time ();
          g_autoptr(LatentSnapshot) snapshot = algorithm->snapshot (state);

          snapshot->elapsed_ms = (t1 - start - frame_us) / 1000.0;
          snapshot->step_ms = record.step_ms;
          give_frame (frame, snapshot, user_data, fit, t1, &frame_us);
          last_frame_end = g_get_monotonic_time ();
          last_frame_us = last_frame_end - t1;
        }
    }
  if (ok)
    fit->snapshot = algorithm->snapshot (state);
  algorithm->free (state);
  if (!ok)
    goto out;
  fit->total_ms = (g_get_monotonic_time () - start - frame_us) / 1000.0;
  fit->snapshot->elapsed_ms = fit->total_ms;
  if (fit->history->len > 0)
    fit->snapshot->step_ms = g_array_index (fit->history, LatentIterationRecord, fit->history->len - 1).step_ms;
  if (frame != NULL)
    give_frame (frame, fit->snapshot, user_data, fit, g_get_monotonic_time (), &frame_us);

out:
  latent_algorithm_restore_denormals (saved);
  return ok ? g_steal_pointer (&fit) : NULL;
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
                      GError                 **error)
{
  return latent_algorithm_fit_full (algorithm, dataset, params, seed, cl, progress, NULL, 0,
                                    user_data, cancellable, error);
}

/* The first @rows rows of @dataset with their labels, and of its test set. */
static LatentDataset *
head_of (LatentDataset  *dataset,
         guint           rows,
         GError        **error)
{
  const guint n = MIN (rows, latent_dataset_get_n_rows (dataset));
  const guint d = latent_dataset_get_n_cols (dataset);
  g_autoptr(LatentDataset) head = latent_dataset_new (latent_dataset_get_name (dataset), n, d, error);
  LatentDataset *test = latent_dataset_get_test (dataset);
  guint width, height, channels;

  if (head == NULL)
    return NULL;
  memcpy (latent_dataset_get_data (head), latent_dataset_get_data (dataset), (gsize) n * d * sizeof (float));
  if (latent_dataset_get_image_shape (dataset, &width, &height, &channels, NULL))
    latent_dataset_set_image_shape (head, width, height, channels, FALSE);
  if (latent_dataset_has_labels (dataset))
    {
      const guint classes = latent_dataset_get_n_classes (dataset);
      g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
      g_auto(GStrv) class_names = NULL;
      gboolean named = TRUE;

      for (guint c = 0; c < classes && named; c++)
        if (latent_dataset_get_class_name (dataset, c) != NULL)
          g_strv_builder_add (names, latent_dataset_get_class_name (dataset, c));
        else
          named = FALSE;
      class_names = named ? g_strv_builder_end (names) : NULL;
      latent_dataset_set_labels (head, latent_dataset_get_labels (dataset), classes, class_names);
    }
  if (test != NULL)
    {
      g_autoptr(LatentDataset) test_head = head_of (test, rows, error);

      if (test_head == NULL || !latent_dataset_set_test (head, test_head, error))
        return NULL;
    }
  return g_steal_pointer (&head);
}

/* Set on the thread inside latent_algorithm_prepare. */
static GPrivate preparing;
static GPrivate progress_func;
static GPrivate progress_data;
static GPrivate progress_held;

void
latent_algorithm_set_init_progress (LatentInitProgressFunc func,
                                    gpointer               user_data)
{
  g_private_set (&progress_func, func);
  g_private_set (&progress_data, user_data);
}

void
latent_algorithm_init_progress (LatentInitStage stage,
                                guint           done,
                                guint           total)
{
  LatentInitProgressFunc func = g_private_get (&progress_func);

  if (func != NULL && g_private_get (&progress_held) == NULL)
    func (stage, done, total, g_private_get (&progress_data));
}

char *
latent_algorithm_describe_init_progress (LatentInitStage stage,
                                         guint           done,
                                         guint           total)
{
  /* Translators: how far a run's start has come, shown after "initialising". */
  switch (stage)
    {
    case LATENT_INIT_STARTS:
      return g_strdup_printf (_("start %u of %u"), done + 1, total);
    case LATENT_INIT_CENTERS:
      return g_strdup_printf (_("center %u of %u"), done + 1, total);
    case LATENT_INIT_METHODS:
    default:
      return g_strdup_printf (_("method %u of %u"), done + 1, total);
    }
}

char *
latent_algorithm_describe_end (LatentSnapshot *last)
{
  const LatentParamSpec *spec;
  gint64 budget = 0;
  guint epochs;

  g_return_val_if_fail (last != NULL, NULL);

  spec = last->params ? latent_algorithm_spec_with_role (last->algorithm, LATENT_PARAM_ROLE_BUDGET) : NULL;
  if (spec != NULL)
    budget = latent_params_get_int (last->params, spec->name);
  /* Passes, epochs and episodes are work asked for, not a limit on a
   * search: a run that did them all finished (the prototypes' episodes
   * count as converged once all are drawn). */
  switch (spec ? spec->unit : LATENT_PARAM_UNIT_ITERATIONS)
    {
    case LATENT_PARAM_UNIT_PASSES:
      return g_strdup (_("done"));
    case LATENT_PARAM_UNIT_EPOCHS:
      /* Iterations are mini-batches; the epochs are counted apart. */
      epochs = latent_snapshot_get_family (last) == LATENT_FAMILY_AUTOENCODER
               ? last->autoencoder.epochs.n_epochs : last->classifier.epochs.n_epochs;
      epochs = epochs > 0 ? epochs : (guint) MAX (budget, 0);
      if (last->converged && epochs < budget)
        return g_strdup (_("converged"));
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "finished %u epoch", "finished %u epochs",
                                           (gulong) epochs), epochs);
    case LATENT_PARAM_UNIT_EPISODES:
      /* None asked for: the prototypes are all there is. */
      if (last->iteration == 0)
        return g_strdup (_("done"));
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "finished %u episode", "finished %u episodes",
                                           (gulong) last->iteration), last->iteration);
    case LATENT_PARAM_UNIT_ITERATIONS:
    default:
      return g_strdup (last->converged ? _("converged") : _("iteration limit reached"));
    }
}

const char *
latent_algorithm_objective_name (const LatentAlgorithm *algorithm,
                                 LatentParams          *params)
{
  const char *name = NULL;

  g_return_val_if_fail (algorithm != NULL, NULL);

  if (params && algorithm->objective_name_for)
    name = algorithm->objective_name_for (params);
  if (name == NULL)
    name = algorithm->objective_name;
  return name ? _(name) : "";
}

char *
latent_algorithm_dup_objective_brief (const LatentAlgorithm *algorithm,
                                      LatentParams          *params)
{
  const char *name, *paren;

  g_return_val_if_fail (algorithm != NULL, NULL);

  name = latent_algorithm_objective_name (algorithm, params);
  paren = strstr (name, " (");
  return paren != NULL && paren > name ? g_strndup (name, paren - name) : g_strdup (name);
}

void
latent_algorithm_hold_init_progress (gboolean hold)
{
  guint depth = GPOINTER_TO_UINT (g_private_get (&progress_held));

  g_return_if_fail (hold || depth > 0);
  g_private_set (&progress_held, GUINT_TO_POINTER (hold ? depth + 1 : depth - 1));
}

gboolean
latent_algorithm_is_preparing (void)
{
  return g_private_get (&preparing) != NULL;
}

gboolean
latent_algorithm_prepare (const LatentAlgorithm  *algorithm,
                          LatentDataset          *dataset,
                          LatentParams           *params,
                          LatentCl               *cl,
                          GCancellable           *cancellable,
                          GError                **error)
{
  g_autoptr(LatentDataset) head = NULL;
  gboolean single = FALSE;
  gpointer state;

  g_return_val_if_fail (algorithm != NULL && dataset != NULL && params != NULL, FALSE);
  g_return_val_if_fail (LATENT_IS_CL (cl), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  /* A program's build options follow from the device, the parameters and
   * the width of the data, never from the number of rows: initialising on
   * a few hundred rows asks for the very programs a run on all of them
   * will, without writing down each algorithm's options twice. One image
   * is a whole dataset of pixels and is used as it is. */
  if (latent_dataset_get_image_shape (dataset, NULL, NULL, NULL, &single) && single)
    head = g_object_ref (dataset);
  else if (!(head = head_of (dataset, 512, error)))
    return FALSE;
  /* Preparing is compiling: the builds, and on PoCL each kernel's first launch. */
  g_private_set (&preparing, GINT_TO_POINTER (TRUE));
  latent_cl_hold_building (cl, TRUE);
  /* Current, so that the runtime starts no build once it is cancelled:
   * an init asks for several programs between its own checks. */
  if (cancellable != NULL)
    g_cancellable_push_current (cancellable);
  state = algorithm->init (head, params, 0, cl, cancellable, error);
  if (cancellable != NULL)
    g_cancellable_pop_current (cancellable);
  latent_cl_hold_building (cl, FALSE);
  g_private_set (&preparing, NULL);
  if (state == NULL)
    return FALSE;
  algorithm->free (state);
  return TRUE;
}

double
latent_algorithm_memory_budget (void)
{
  long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);

  return pages > 0 && page > 0 ? 0.75 * pages * page : (double) G_MAXSIZE;
}

gint64
latent_algorithm_no_max_int (LatentDataset         *dataset,
                             LatentParams          *params,
                             const LatentParamSpec *spec)
{
  return G_MAXINT64;
}

gboolean
latent_algorithm_check_memory (double       bytes,
                               const char  *what,
                               GError     **error)
{
  double budget = latent_algorithm_memory_budget ();
  g_autofree char *need = NULL, *have = NULL;

  if (bytes <= budget && bytes < (double) G_MAXSIZE)
    return TRUE;
  need = g_format_size (MIN (bytes, (double) G_MAXUINT64));
  have = g_format_size (budget / 0.75);
  /* Translators: what needs it (“parameter k: the responsibilities”), the size, the machine's memory */
  g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
               _("%s would need %s, more than this machine’s %s of memory can give"), what, need, have);
  return FALSE;
}

gpointer
latent_algorithm_alloc (guint64      n,
                        gsize        size,
                        const char  *what,
                        GError     **error)
{
  gsize bytes;
  gpointer memory;

  if (!g_size_checked_mul (&bytes, n, size))
    {
      /* Above any budget: this sets the error. */
      latent_algorithm_check_memory ((double) n * size, what, error);
      return NULL;
    }
  if (!latent_algorithm_check_memory (bytes, what, error))
    return NULL;
  memory = g_try_malloc0 (MAX (bytes, 1));
  if (memory == NULL)
    {
      g_autofree char *need = g_format_size (bytes);

      /* Translators: what needs it (“parameter k: the responsibilities”), the size */
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("%s would need %s, and this machine cannot give it now"), what, need);
    }
  return memory;
}

LatentDataset *
latent_algorithm_encode (LatentSnapshot *snapshot,
                         LatentDataset  *dataset,
                         GError        **error)
{
  LatentDataset *features;

  g_return_val_if_fail (snapshot != NULL && snapshot->algorithm->encode != NULL, NULL);
  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);

  features = snapshot->algorithm->encode (snapshot, dataset, error);
  if (features == NULL)
    return NULL;
  /* Weights that overflow single precision (3e38) give features that are
   * not numbers: refused as loaded data would be, not learned from. */
  {
    g_autofree char *what = g_strdup_printf (_("the features of “%s” under this model"),
                                             latent_dataset_get_name (dataset));

    if (!latent_dataset_check_finite (features, what, error))
      {
        g_object_unref (features);
        return NULL;
      }
  }
  latent_dataset_set_origin (features, dataset);
  return features;
}
