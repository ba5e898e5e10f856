/* latent-classify.c — the train/test split and the judging of classifiers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-classify"

#include "latent-classify.h"

#include <float.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>

#include "latent-algorithm.h"

static int
compare_rows (const void *a,
              const void *b)
{
  gint32 x = *(const gint32 *) a, y = *(const gint32 *) b;

  return (x > y) - (x < y);
}

static gint32 *
all_rows (guint n)
{
  gint32 *rows = g_new (gint32, n);

  for (guint i = 0; i < n; i++)
    rows[i] = i;
  return rows;
}

void
latent_split_free (LatentSplit *split)
{
  if (split == NULL)
    return;
  g_clear_object (&split->train);
  g_clear_object (&split->test);
  g_free (split->train_rows);
  g_free (split->test_rows);
  g_free (split);
}

/* Two classes at least among the training rows, or nothing to learn. */
static gboolean
check_classes (const LatentSplit  *split,
               GError            **error)
{
  const gint32 *labels = latent_dataset_get_labels (split->train);
  gint32 first = labels[split->train_rows[0]];
  const char *name;

  for (guint i = 1; i < split->n_train; i++)
    if (labels[split->train_rows[i]] != first)
      return TRUE;
  name = latent_dataset_get_class_name (split->train, first);
  g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
               _("All %u training rows of “%s” are of one class (%s): a classifier needs two classes at least"),
               split->n_train, latent_dataset_get_name (split->train),
               name ? name : "0");
  return FALSE;
}

LatentSplit *
latent_split_new (LatentDataset  *dataset,
                  double          test_fraction,
                  guint64         seed,
                  GError        **error)
{
  g_autoptr(LatentSplit) split = g_new0 (LatentSplit, 1);
  LatentDataset *test = latent_dataset_get_test (dataset);
  guint n = latent_dataset_get_n_rows (dataset);

  if (!latent_dataset_has_labels (dataset))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("“%s” has no labels: a classifier learns from labelled rows"),
                   latent_dataset_get_name (dataset));
      return NULL;
    }
  if (test && !latent_dataset_has_labels (test))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("The test data “%s” has no labels to judge the predictions by"),
                   latent_dataset_get_name (test));
      return NULL;
    }
  split->train = g_object_ref (dataset);
  split->n_classes = latent_dataset_get_n_classes (dataset);
  if (test)
    {
      split->test = g_object_ref (test);
      split->n_train = n;
      split->train_rows = all_rows (n);
      split->n_test = latent_dataset_get_n_rows (test);
      split->test_rows = all_rows (split->n_test);
    }
  else
    {
      const guint32 words[2] = { seed & 0xffffffffu, seed >> 32 };
      g_autoptr(GRand) rand = g_rand_new_with_seed_array (words, 2);
      g_autofree gint32 *order = all_rows (n);
      guint n_test = (guint) lround (test_fraction * n);

      if (n_test == 0 || n_test >= n)
        {
          g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                       _("test = %g of %u rows leaves %s no rows; choose test data, or a share between %.2g and %.2g"),
                       test_fraction, n, n_test == 0 ? _("the test") : _("the training"),
                       n > 1 ? 0.5 / n + 1e-9 : 1.0, n > 1 ? 1 - 0.5 / n - 1e-9 : 0.0);
          return NULL;
        }
      for (guint i = n; i > 1; i--)
        {
          guint j = g_rand_int_range (rand, 0, i);
          gint32 t = order[i - 1];

          order[i - 1] = order[j];
          order[j] = t;
        }
      split->test = g_object_ref (dataset);
      split->n_test = n_test;
      split->test_rows = g_memdup2 (order, n_test * sizeof (gint32));
      split->n_train = n - n_test;
      split->train_rows = g_memdup2 (order + n_test, split->n_train * sizeof (gint32));
      qsort (split->test_rows, split->n_test, sizeof (gint32), compare_rows);
      qsort (split->train_rows, split->n_train, sizeof (gint32), compare_rows);
    }
  if (!check_classes (split, error))
    return NULL;
  return g_steal_pointer (&split);
}

double
latent_classify_accuracy (LatentDataset *dataset,
                          const gint32  *rows,
                          const gint32  *predictions,
                          guint          n)
{
  const gint32 *labels = latent_dataset_get_labels (dataset);
  guint right = 0;

  for (guint i = 0; i < n; i++)
    right += labels[rows[i]] == predictions[i];
  return n ? (double) right / n : NAN;
}

void
latent_classify_judge (LatentSnapshot    *snap,
                       const LatentSplit *split,
                       const gint32      *predictions)
{
  const gint32 *labels = latent_dataset_get_labels (split->test);
  guint c = split->n_classes;

  snap->classifier.n_classes = c;
  g_set_object (&snap->classifier.test_dataset, split->test);
  snap->classifier.n_test = split->n_test;
  g_free (snap->classifier.test_rows);
  snap->classifier.test_rows = g_memdup2 (split->test_rows, split->n_test * sizeof (gint32));
  g_free (snap->classifier.test_predictions);
  snap->classifier.test_predictions = g_memdup2 (predictions, split->n_test * sizeof (gint32));
  g_free (snap->classifier.confusion);
  snap->classifier.confusion = g_new0 (guint, (gsize) c * c);
  for (guint i = 0; i < split->n_test; i++)
    snap->classifier.confusion[(gsize) labels[split->test_rows[i]] * c + predictions[i]]++;
  snap->classifier.test_accuracy = latent_classify_accuracy (split->test, split->test_rows, predictions, split->n_test);
}

typedef enum {
  PASS_SUM,       /* Σ x into sum */
  PASS_SQUARES,   /* Σ (x − mean)² into sq, mean in sum */
  PASS_SPREAD,    /* the largest |x'| into spread */
} StandardisePass;

/* One pass over the training rows where the source holds them, chunk by
 * chunk, uncopied: they are ascending, so this is the split's order, the
 * order the sums always ran in. */
static gboolean
standardise_pass (const LatentSplit  *split,
                  LatentRows         *source,
                  StandardisePass     pass,
                  const float        *mean,
                  const float        *scale,
                  double             *sum,
                  double             *sq,
                  double             *spread,
                  GError            **error)
{
  const guint d = latent_dataset_get_n_cols (split->train), n = split->n_train;
  const guint n_chunks = latent_rows_get_n_chunks (source);
  const gint32 *rows = split->train_rows;
  guint i = 0;

  for (guint c = 0; c < n_chunks && i < n; c++)
    {
      LatentChunk chunk;

      if (!latent_rows_get_chunk (source, c, &chunk, error))
        return FALSE;
      for (; i < n && (guint) rows[i] < chunk.first + chunk.n; i++)
        {
          const float *x = chunk.values + (gsize) (rows[i] - chunk.first) * d;

          switch (pass)
            {
            case PASS_SUM:
              for (guint a = 0; a < d; a++)
                sum[a] += x[a];
              break;
            case PASS_SQUARES:
              for (guint a = 0; a < d; a++)
                sq[a] += (x[a] - sum[a]) * (x[a] - sum[a]);
              break;
            case PASS_SPREAD:
              for (guint a = 0; a < d; a++)
                *spread = MAX (*spread, fabs (((double) x[a] - mean[a]) * scale[a]));
              break;
            }
        }
    }
  return TRUE;
}

gboolean
latent_split_standardise (const LatentSplit  *split,
                          LatentRows         *source,
                          gboolean            standardise,
                          float              *mean,
                          float              *scale,
                          GError            **error)
{
  const guint d = latent_dataset_get_n_cols (split->train), n = split->n_train;
  g_autofree double *sum = g_new0 (double, d);
  g_autofree double *sq = g_new0 (double, d);
  double spread = 0;

  if (!standardise)
    {
      for (guint a = 0; a < d; a++)
        {
          mean[a] = 0;
          scale[a] = 1;
        }
      goto check;
    }
  if (!standardise_pass (split, source, PASS_SUM, mean, scale, sum, sq, &spread, error))
    return FALSE;
  for (guint a = 0; a < d; a++)
    sum[a] /= n;
  if (!standardise_pass (split, source, PASS_SQUARES, mean, scale, sum, sq, &spread, error))
    return FALSE;
  for (guint a = 0; a < d; a++)
    {
      const double sd = sqrt (sq[a] / n);

      mean[a] = sum[a];
      scale[a] = sd > 1e-6 * fabs (sum[a]) && sd >= FLT_MIN ? 1 / sd : 1;
    }

check:
  if (!standardise_pass (split, source, PASS_SPREAD, mean, scale, sum, sq, &spread, error))
    return FALSE;
  if (!(d * spread * spread < FLT_MAX / 2))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA,
                   _("“%s” holds values of size %.3g: their products with the weights "
                     "would overflow single precision; standardise the data or scale it down"),
                   latent_dataset_get_name (split->train), spread);
      return FALSE;
    }
  return TRUE;
}

void
latent_classify_shuffle (gint32  *values,
                         guint    n,
                         guint64  seed)
{
  const guint32 words[2] = { seed & 0xffffffffu, seed >> 32 };
  g_autoptr(GRand) rand = g_rand_new_with_seed_array (words, 2);

  for (guint i = n; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      gint32 t = values[i - 1];

      values[i - 1] = values[j];
      values[j] = t;
    }
}

void
latent_optimiser_prepare (LatentOptimiserStep *step,
                          gboolean             adam,
                          double               learning_rate,
                          double               momentum,
                          guint64              t)
{
  const double c1 = 1 - pow (0.9, t), c2 = 1 - pow (0.999, t);

  step->adam = adam;
  step->mu = momentum;
  step->lr = adam ? learning_rate * sqrt (c2) / c1 : learning_rate;
  step->eps = adam ? 1e-8 * sqrt (c2) : 0;
}

void
latent_optimiser_apply (const LatentOptimiserStep *step,
                        float                     *param,
                        const double              *grad,
                        float                     *v,
                        float                     *s,
                        gsize                      n)
{
  const float lr = step->lr, mu = step->mu, eps = step->eps;

  if (step->adam)
    for (gsize i = 0; i < n; i++)
      {
        const float g = grad[i];

        v[i] = 0.9f * v[i] + (1 - 0.9f) * g;
        s[i] = 0.999f * s[i] + (1 - 0.999f) * g * g;
        param[i] -= lr * v[i] / (sqrtf (s[i]) + eps);
      }
  else
    for (gsize i = 0; i < n; i++)
      {
        v[i] = mu * v[i] - lr * (float) grad[i];
        param[i] += v[i];
      }
}

/* A loss this many times the first one means the steps run away: the
 * first is about log C, far beyond any model that learns. */
#define DIVERGED_RATIO 100.0

void
latent_training_log_init (LatentTrainingLog *log)
{
  *log = (LatentTrainingLog) { 0 };
  log->step_loss = g_array_new (FALSE, FALSE, sizeof (float));
  log->train_loss = g_array_new (FALSE, FALSE, sizeof (double));
  log->test_loss = g_array_new (FALSE, FALSE, sizeof (double));
  log->train_accuracy = g_array_new (FALSE, FALSE, sizeof (double));
  log->test_accuracy = g_array_new (FALSE, FALSE, sizeof (double));
  log->first_loss = log->loss = NAN;
  log->best_loss = INFINITY;
}

void
latent_training_log_clear (LatentTrainingLog *log)
{
  g_clear_pointer (&log->step_loss, g_array_unref);
  g_clear_pointer (&log->train_loss, g_array_unref);
  g_clear_pointer (&log->test_loss, g_array_unref);
  g_clear_pointer (&log->train_accuracy, g_array_unref);
  g_clear_pointer (&log->test_accuracy, g_array_unref);
}

gboolean
latent_training_log_step (LatentTrainingLog  *log,
                          guint               step,
                          double              loss,
                          guint               rows,
                          guint               right,
                          double              learning_rate,
                          GError            **error)
{
  if (step == 0)
    log->first_loss = loss;
  /* The first loss comes from the starting weights, before any step. */
  if (step == 0 && !isfinite (loss))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA,
                   _("The loss is %g before the first step: the starting weights or the data "
                     "overflow single precision"), loss);
      return FALSE;
    }
  if (!isfinite (loss) || loss > DIVERGED_RATIO * log->first_loss)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC,
                   _("The training diverged at step %u (loss %g, from %g at the start): "
                     "learning-rate = %g is too large for this data; try a tenth of it"),
                   step + 1, loss, log->first_loss, learning_rate);
      return FALSE;
    }
  log->loss = loss;
  log->epoch_loss += loss * rows;
  log->epoch_right += right;
  g_array_append_val (log->step_loss, (float) { loss });
  return TRUE;
}

gboolean
latent_training_log_end_epoch (LatentTrainingLog  *log,
                               guint               n_train,
                               double              test_loss,
                               double              test_accuracy,
                               double              tol,
                               LatentStopRule      rule,
                               guint               patience)
{
  const double mean = log->epoch_loss / n_train;
  gboolean converged = FALSE;

  if (tol > 0)
    {
      const double margin = rule == LATENT_STOP_RELATIVE ? tol * fabs (log->best_loss) : tol;

      if (!isfinite (log->best_loss) || log->best_loss - mean > margin)
        {
          log->best_loss = mean;
          log->stale_epochs = 0;
        }
      else
        log->stale_epochs++;
      if (rule == LATENT_STOP_ABSOLUTE)
        log->best_loss = MIN (log->best_loss, mean);
      converged = log->stale_epochs >= patience;
    }
  g_array_append_val (log->train_loss, mean);
  g_array_append_val (log->train_accuracy, (double) { (double) log->epoch_right / n_train });
  g_array_append_val (log->test_loss, test_loss);
  g_array_append_val (log->test_accuracy, test_accuracy);
  log->epoch_loss = 0;
  log->epoch_right = 0;
  log->epoch++;
  return converged;
}

static double *
dup_doubles (GArray *array)
{
  return g_memdup2 (array->data, sizeof (double) * MAX (array->len, 1u));
}

void
latent_training_log_fill (const LatentTrainingLog *log,
                          guint                    steps_per_epoch,
                          LatentSnapshot          *snapshot)
{
  LatentClassifierPart *part = &snapshot->classifier;

  part->epochs.n_epochs = log->epoch;
  part->epochs.train_loss = dup_doubles (log->train_loss);
  part->epochs.held_out_loss = dup_doubles (log->test_loss);
  part->epoch_train_accuracy = dup_doubles (log->train_accuracy);
  part->epoch_test_accuracy = dup_doubles (log->test_accuracy);
  part->epochs.steps_per_epoch = steps_per_epoch;
  part->epochs.n_steps = log->step_loss->len;
  part->epochs.step_loss = g_memdup2 (log->step_loss->data, sizeof (float) * MAX (log->step_loss->len, 1u));
  part->train_accuracy = log->epoch > 0 ? g_array_index (log->train_accuracy, double, log->epoch - 1) : NAN;
}

gboolean
latent_classify_upload_rows (LatentCl    *cl,
                             LatentRows  *source,
                             cl_mem      *data,
                             cl_mem      *labels,
                             GError     **error)
{
  const LatentClDeviceInfo *info = latent_cl_get_info (cl);
  const guint n = latent_rows_get_n_rows (source), d = latent_rows_get_n_cols (source);
  const guint64 bytes = (guint64) n * d * sizeof (float);
  LatentChunk all;

  g_return_val_if_fail (latent_rows_get_n_chunks (source) == 1, FALSE);

  if (bytes > info->max_alloc)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("%u rows × %u columns need a larger buffer than %s allows"), n, d, info->name);
      return FALSE;
    }
  return latent_rows_get_chunk (source, 0, &all, error) &&
         latent_cl_create_buffer (cl, data, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes,
                                  (gpointer) all.values, "rows", error) &&
         latent_cl_create_buffer (cl, labels, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof (gint32),
                                  (gpointer) all.labels, "classes", error);
}
