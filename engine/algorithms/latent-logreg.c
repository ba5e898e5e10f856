/* latent-logreg.c — multinomial logistic regression: parameters, the split,
 * the standardisation and the epochs, snapshots and results
 *
 * Softmax regression trained by mini-batch gradient descent (momentum or
 * Adam) with an L2 penalty on the weights; one step is one mini-batch, and
 * every epoch ends by predicting the test rows. The math of a step is in
 * latent-logreg-private.h; its two paths are latent-logreg-reference.c and
 * latent-logreg-cl.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-logreg"

#include "latent-logreg.h"
#include "latent-logreg-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-json.h"

#define CPU_REFERENCE N_("CPU reference")
/* Weights at most: 256 MiB of float. */
#define MAX_WEIGHTS ((guint64) 1 << 26)
/* A loss this many times the first one means the steps run away: the
 * first is log C (W = 0), so this is far beyond any model that learns. */
#define DIVERGED_RATIO 100.0

static const char * const optimizer_choices[] = { "momentum", "adam", NULL };
static const char * const optimizer_labels[] = { N_("Momentum"), N_("Adam"), NULL };

/* Defaults reach about 84 % test accuracy on Fashion-MNIST in 10 epochs. */
static const LatentParamSpec logreg_params[] = {
  { "l2", LATENT_PARAM_DOUBLE, N_("L2 penalty"),
    N_("Strength λ of the penalty λ/2 · (sum of the squared weights) added to the mean "
       "cross-entropy; the biases are not penalised. Larger values give smaller, smoother weights"),
    0, 1000, 1e-4, NULL, NULL, FALSE },
  { "batch", LATENT_PARAM_INT, N_("Mini-batch"),
    N_("Training rows per step; all rows: one step per epoch, plain gradient descent"),
    0, 1 << 30, 256, NULL, NULL, FALSE, NULL, NULL, N_("All rows") },
  { "learning-rate", LATENT_PARAM_DOUBLE, N_("Learning rate"),
    N_("Step size of the optimiser (Adam wants about 0.001 to 0.01)"),
    0, 100, 0.01, NULL, NULL, FALSE },
  { "epochs", LATENT_PARAM_INT, N_("Epochs"), N_("Passes over the training rows"),
    1, 1000000, 10, NULL, NULL, FALSE,
    .role = LATENT_PARAM_ROLE_BUDGET },
  { "optimizer", LATENT_PARAM_CHOICE, N_("Optimiser"), N_("Gradient descent with momentum, or Adam"),
    0, 0, 0, "momentum", optimizer_choices, FALSE, optimizer_labels },
  { "momentum", LATENT_PARAM_DOUBLE, N_("Momentum"), N_("Momentum optimiser: the share of the last step kept"),
    0, 0.999, 0.9, NULL, NULL, FALSE, NULL, "optimizer=momentum" },
  { "standardise", LATENT_PARAM_BOOL, N_("Standardise"),
    N_("Shift and scale every column to mean 0 and standard deviation 1 over the training rows "
       "before learning (a constant column is only shifted); the weights shown are in the data's units"),
    0, 1, 1, NULL, NULL, FALSE },
  { "shuffle", LATENT_PARAM_BOOL, N_("Shuffle"),
    N_("Draw the mini-batches at random from the seed, anew every epoch; off: in row order"),
    0, 1, 1, NULL, NULL, FALSE },
  { "test", LATENT_PARAM_DOUBLE, N_("Test share"),
    N_("When the data has no test set: the share of its rows held out, drawn from the seed, "
       "to measure the accuracy on rows the model does not learn from"),
    0, 0.95, 0.2, NULL, NULL, FALSE },
};

static const LatentAlgorithm logreg_algorithm;

static guint
batch_rows (LatentParams *params,
            guint         n_train)
{
  const guint batch = latent_params_get_int (params, "batch");

  /* A batch larger than the data is all of it: Iris's 120 training rows
   * with the default of 256 are one step an epoch, not an error. */
  return batch == 0 ? n_train : MIN (batch, n_train);
}

static gboolean
logreg_check (LatentDataset  *dataset,
              LatentParams   *params,
              GError        **error)
{
  g_autoptr(LatentSplit) split = NULL;
  const guint d = latent_dataset_get_n_cols (dataset);

  /* The split says what is wrong with the labels or the test share. */
  if (!(split = latent_split_new (dataset, latent_params_get_double (params, "test"), 0, error)))
    return FALSE;
  if ((guint64) split->n_classes * d > MAX_WEIGHTS)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("%u classes × %u columns of “%s” are more than %u weights"),
                   split->n_classes, d, latent_dataset_get_name (dataset), (guint) MAX_WEIGHTS);
      return FALSE;
    }
  if (!(latent_params_get_double (params, "learning-rate") > 0))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("learning-rate must be positive"));
      return FALSE;
    }
  return TRUE;
}

static void
logreg_free (gpointer data)
{
  LatentLogreg *self = data;

  g_clear_pointer (&self->lcl, latent_logreg_cl_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_clear_pointer (&self->split, latent_split_free);
  g_free (self->device);
  g_free (self->fallback);
  g_free (self->mean);
  g_free (self->scale);
  g_free (self->order);
  g_free (self->w);
  g_free (self->b);
  g_free (self->vw);
  g_free (self->vb);
  g_free (self->sw);
  g_free (self->sb);
  g_free (self->test_predictions);
  g_clear_pointer (&self->step_loss, g_array_unref);
  g_clear_pointer (&self->epoch_train, g_array_unref);
  g_clear_pointer (&self->epoch_test_loss, g_array_unref);
  g_clear_pointer (&self->epoch_train_accuracy, g_array_unref);
  g_clear_pointer (&self->epoch_test_accuracy, g_array_unref);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentLogreg, logreg_free)

static void
fall_back (LatentLogreg *self,
           const GError *error)
{
  /* The model comes back from the device if it still answers; if not, the
   * run goes on from the last copy read. */
  if (self->lcl)
    latent_logreg_cl_read (self->lcl, TRUE, NULL);
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, self->algorithm->id, error);
  g_clear_pointer (&self->lcl, latent_logreg_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (_(CPU_REFERENCE));
}

/* Mean and standard deviation (1/n, as scikit-learn's StandardScaler) of
 * every column over the training rows, two passes in double. A column
 * whose spread is rounding beside its mean is constant: it keeps scale 1,
 * so it becomes zeros instead of amplified rounding. */
static void
choose_standardisation (LatentLogreg *self)
{
  const guint d = self->d, n = self->n_train;
  const gint32 *rows = self->split->train_rows;
  g_autofree double *sum = g_new0 (double, d);
  g_autofree double *sq = g_new0 (double, d);

  if (!latent_params_get_bool (self->params, "standardise"))
    {
      for (guint a = 0; a < d; a++)
        {
          self->mean[a] = 0;
          self->scale[a] = 1;
        }
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      const float *x = latent_dataset_get_row (self->dataset, rows[i]);

      for (guint a = 0; a < d; a++)
        sum[a] += x[a];
    }
  for (guint a = 0; a < d; a++)
    sum[a] /= n;
  for (guint i = 0; i < n; i++)
    {
      const float *x = latent_dataset_get_row (self->dataset, rows[i]);

      for (guint a = 0; a < d; a++)
        sq[a] += (x[a] - sum[a]) * (x[a] - sum[a]);
    }
  for (guint a = 0; a < d; a++)
    {
      const double sd = sqrt (sq[a] / n);

      self->mean[a] = sum[a];
      self->scale[a] = sd > 1e-6 * fabs (sum[a]) && sd > 0 ? 1 / sd : 1;
    }
}

static GRand *
new_rand (guint64 seed)
{
  const guint32 words[2] = { seed & 0xffffffffu, seed >> 32 };

  return g_rand_new_with_seed_array (words, 2);
}

/* The training rows in a new order for epoch @epoch; the split drew its
 * rows from the seed itself, so the epochs draw from seed + 1 + epoch. */
static void
shuffle_order (LatentLogreg *self,
               guint         epoch)
{
  g_autoptr(GRand) rand = new_rand (self->seed + 1 + epoch);
  gint32 *values = self->order;

  for (guint i = self->n_train; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      gint32 t = values[i - 1];

      values[i - 1] = values[j];
      values[j] = t;
    }
}

/* Predicts the test rows on whichever path runs: test_predictions and
 * test_loss. */
static gboolean
evaluate_test (LatentLogreg  *self,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  if (self->lcl && !latent_logreg_cl_test (self->lcl, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      fall_back (self, local_error);
    }
  if (self->lcl == NULL)
    latent_logreg_reference_test (self);
  return TRUE;
}

static gpointer
logreg_init (LatentDataset  *dataset,
             LatentParams   *params,
             guint64         seed,
             LatentCl       *cl,
             GCancellable   *cancellable,
             GError        **error)
{
  g_autoptr(LatentLogreg) self = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize cd;

  if (!logreg_check (dataset, params, error))
    return NULL;

  self = g_new0 (LatentLogreg, 1);
  self->algorithm = &logreg_algorithm;
  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  if (!(self->split = latent_split_new (dataset, latent_params_get_double (params, "test"), seed, error)))
    return NULL;
  self->n_train = self->split->n_train;
  self->n_test = self->split->n_test;
  self->c = self->split->n_classes;
  self->d = latent_dataset_get_n_cols (dataset);
  self->batch = batch_rows (params, self->n_train);
  self->steps_per_epoch = (self->n_train + self->batch - 1) / self->batch;
  self->adam = g_str_equal (latent_params_get_choice (params, "optimizer"), "adam");
  /* One batch of all rows is the same sum in any order. */
  self->shuffle = latent_params_get_bool (params, "shuffle") && self->steps_per_epoch > 1;
  self->learning_rate = latent_params_get_double (params, "learning-rate");
  self->momentum = latent_params_get_double (params, "momentum");
  self->l2 = latent_params_get_double (params, "l2");
  self->epochs = latent_params_get_int (params, "epochs");

  self->mean = g_new (float, self->d);
  self->scale = g_new (float, self->d);
  choose_standardisation (self);
  self->order = g_memdup2 (self->split->train_rows, self->n_train * sizeof (gint32));
  if (self->shuffle)
    shuffle_order (self, 0);

  /* W = 0: every class equally likely, the loss log C. */
  cd = (gsize) self->c * self->d;
  self->w = g_new0 (float, cd);
  self->b = g_new0 (float, self->c);
  self->vw = g_new0 (float, cd);
  self->vb = g_new0 (float, self->c);
  if (self->adam)
    {
      self->sw = g_new0 (float, cd);
      self->sb = g_new0 (float, self->c);
    }
  self->test_predictions = g_new0 (gint32, self->n_test);
  self->step_loss = g_array_new (FALSE, FALSE, sizeof (float));
  self->epoch_train = g_array_new (FALSE, FALSE, sizeof (double));
  self->epoch_test_loss = g_array_new (FALSE, FALSE, sizeof (double));
  self->epoch_train_accuracy = g_array_new (FALSE, FALSE, sizeof (double));
  self->epoch_test_accuracy = g_array_new (FALSE, FALSE, sizeof (double));
  self->loss = NAN;
  self->test_loss = NAN;

  if (cl)
    {
      self->runtime = g_object_ref (cl);
      self->device = latent_cl_describe (cl);
      self->lcl = latent_logreg_cl_new (self, cl, &local_error);
      if (self->lcl && !latent_logreg_cl_set_order (self->lcl, &local_error))
        g_clear_pointer (&self->lcl, latent_logreg_cl_free);
      if (local_error)
        fall_back (self, local_error);
    }
  else
    self->device = g_strdup (_(CPU_REFERENCE));
  /* The starting model's predictions, for the snapshot of iteration 0. */
  if (!evaluate_test (self, NULL, error))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
end_epoch (LatentLogreg  *self,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  const LatentSplit *split = self->split;
  double accuracy;

  if (!evaluate_test (self, cancellable, error))
    return FALSE;
  accuracy = latent_classify_accuracy (split->test, split->test_rows, self->test_predictions, self->n_test);
  g_array_append_val (self->epoch_train, (double) { self->epoch_loss / self->n_train });
  g_array_append_val (self->epoch_train_accuracy, (double) { (double) self->epoch_right / self->n_train });
  g_array_append_val (self->epoch_test_loss, self->test_loss);
  g_array_append_val (self->epoch_test_accuracy, accuracy);
  self->epoch_loss = 0;
  self->epoch_right = 0;
  self->epoch++;

  if (self->shuffle && self->epoch < self->epochs)
    {
      shuffle_order (self, self->epoch);
      if (self->lcl && !latent_logreg_cl_set_order (self->lcl, &local_error))
        fall_back (self, local_error);
    }
  return TRUE;
}

static gboolean
logreg_step (gpointer       data,
             GCancellable  *cancellable,
             GError       **error)
{
  LatentLogreg *self = data;
  const guint first = (self->iteration % self->steps_per_epoch) * self->batch;
  const guint rows = MIN (self->batch, self->n_train - first);
  g_autoptr(GError) local_error = NULL;
  double loss = NAN;
  guint right = 0;

  g_return_val_if_fail (!self->finished, FALSE);

  self->adam_t++;
  if (self->lcl &&
      !latent_logreg_cl_step (self->lcl, first, rows, &loss, &right, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->adam_t--;
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      fall_back (self, local_error);
    }
  if (self->lcl == NULL)
    latent_logreg_reference_step (self, first, rows, &loss, &right);

  if (self->iteration == 0)
    self->first_loss = loss;
  if (!isfinite (loss) || loss > DIVERGED_RATIO * self->first_loss)
    {
      self->finished = TRUE;
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_NUMERIC,
                   _("The training diverged at step %u (loss %g, from %g at the start): "
                     "learning-rate = %g is too large for this data; try a tenth of it"),
                   self->iteration + 1, loss, self->first_loss, self->learning_rate);
      return FALSE;
    }
  self->loss = loss;
  self->epoch_loss += loss * rows;
  self->epoch_right += right;
  g_array_append_val (self->step_loss, (float) { loss });
  self->iteration++;
  if (self->iteration % self->steps_per_epoch == 0 && !end_epoch (self, cancellable, error))
    return FALSE;
  self->finished = self->epoch >= self->epochs;
  return TRUE;
}

static double
logreg_objective (gpointer data)
{
  return ((LatentLogreg *) data)->loss;
}

static gboolean
logreg_converged (gpointer data)
{
  return ((LatentLogreg *) data)->finished;
}

static double *
dup_doubles (GArray *array)
{
  return g_memdup2 (array->data, sizeof (double) * MAX (array->len, 1u));
}

static LatentSnapshot *
logreg_snapshot (gpointer data)
{
  LatentLogreg *self = data;
  LatentSnapshot *snap = latent_snapshot_new (self->algorithm, self->dataset, self->params);
  const guint c = self->c, d = self->d;
  g_autoptr(GError) local_error = NULL;

  if (self->lcl && !latent_logreg_cl_read (self->lcl, FALSE, &local_error))
    fall_back (self, local_error);
  snap->seed = self->seed;
  snap->iteration = self->iteration;
  /* Training has no convergence test: it stops at its epoch budget. */
  snap->converged = FALSE;
  snap->final = self->finished;
  snap->objective = self->loss;
  snap->n_rows = latent_dataset_get_n_rows (self->dataset);
  snap->n_cols = d;

  /* In data units: w · (x − mean) · scale + b = (w · scale) · x + b − (w · scale) · mean. */
  snap->n_components = c;
  snap->components = g_new (float, (gsize) c * d);
  snap->class_bias = g_new (float, c);
  for (guint k = 0; k < c; k++)
    {
      double shift = 0;

      for (guint a = 0; a < d; a++)
        {
          const float w = self->w[(gsize) k * d + a] * self->scale[a];

          snap->components[(gsize) k * d + a] = w;
          shift += (double) w * self->mean[a];
        }
      snap->class_bias[k] = self->b[k] - shift;
    }
  snap->input_offset = g_memdup2 (self->mean, sizeof (float) * d);
  snap->input_scale = g_memdup2 (self->scale, sizeof (float) * d);

  snap->n_epochs = self->epoch;
  snap->epoch_train_loss = dup_doubles (self->epoch_train);
  snap->epoch_val_loss = dup_doubles (self->epoch_test_loss);
  snap->epoch_train_accuracy = dup_doubles (self->epoch_train_accuracy);
  snap->epoch_test_accuracy = dup_doubles (self->epoch_test_accuracy);
  snap->steps_per_epoch = self->steps_per_epoch;
  snap->n_steps = self->step_loss->len;
  snap->step_loss = g_memdup2 (self->step_loss->data, sizeof (float) * MAX (self->step_loss->len, 1u));
  snap->train_accuracy = self->epoch > 0
                         ? g_array_index (self->epoch_train_accuracy, double, self->epoch - 1) : NAN;
  /* The last epoch's test side (the starting model's before the first). */
  latent_classify_judge (snap, self->split, self->test_predictions);
  snap->reconstruction_error = self->test_loss;
  snap->device = g_strdup (self->device);
  snap->message = g_strdup (self->fallback);
  return snap;
}

/* The model in data units (enough to score rows without the standardising),
 * the standardisation it folds in, and the epochs' curves. */
static void
logreg_write_json (LatentSnapshot *snap,
                   JsonBuilder    *b)
{
  const guint c = snap->n_classes, d = snap->n_cols;

  latent_classify_write_json (snap, b);
  latent_json_add_matrix_member (b, "weights", snap->components, c, d);
  latent_json_add_float_vector_member (b, "bias", snap->class_bias, c);
  latent_json_add_float_vector_member (b, "standardise_mean", snap->input_offset, d);
  latent_json_add_float_vector_member (b, "standardise_scale", snap->input_scale, d);
  latent_json_add_number_member (b, "epochs_done", snap->n_epochs);
  latent_json_add_number_member (b, "steps_per_epoch", snap->steps_per_epoch);
  latent_json_add_vector_member (b, "train_loss", snap->epoch_train_loss, snap->n_epochs);
  latent_json_add_vector_member (b, "test_loss", snap->epoch_val_loss, snap->n_epochs);
  latent_json_add_number_member (b, "final_test_loss", snap->reconstruction_error);
}

static const char * const logreg_figures[] = { "curves", "confusion", "weights", "regions", NULL };

static const LatentAlgorithm logreg_algorithm = {
  .id = "logreg",
  .title = N_("Logistic regression"),
  .short_title = N_("Logistic regression"),
  .objective_name = N_("mini-batch loss"),  /* the last step's; the epoch's is a metric */
  .family = LATENT_FAMILY_CLASSIFIER,
  .flags = LATENT_ALGORITHM_SUPERVISED,
  .figures = logreg_figures,
  .params = logreg_params,
  .n_params = G_N_ELEMENTS (logreg_params),
  .check = logreg_check,
  .init = logreg_init,
  .step = logreg_step,
  .snapshot = logreg_snapshot,
  .objective = logreg_objective,
  .converged = logreg_converged,
  .free = logreg_free,
  .write_json = logreg_write_json,
};

const LatentAlgorithm *
latent_logreg_get_algorithm (void)
{
  return &logreg_algorithm;
}
