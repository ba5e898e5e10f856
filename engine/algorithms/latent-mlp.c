/* latent-mlp.c — the multilayer perceptron: parameters, the layers, the
 * epochs, pretraining from an autoencoder, snapshots and results
 *
 * One to four hidden layers of ReLU or tanh units under a softmax, trained
 * by mini-batch gradient descent (Adam by default, or momentum) on the
 * cross-entropy with an L2 penalty and dropout. One step is one
 * mini-batch; every epoch ends by predicting the test rows, and the run
 * stops when the epoch's training loss has not fallen tol below its best
 * for ten epochs, or at its epoch budget. The defaults are scikit-learn's
 * MLPClassifier's (100 ReLU units, Adam at 0.001, batches of 200, 200
 * epochs, tol 1e-4 for 10 epochs, Glorot's uniform start). The math of a
 * step is in latent-mlp-private.h; its two paths are
 * latent-mlp-reference.c and latent-mlp-cl.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-mlp"

#include "latent-mlp.h"
#include "latent-mlp-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-classifiers.h"
#include "latent-json.h"
#include "latent-result.h"

#define CPU_REFERENCE N_("CPU reference")
/* Weights at most, all layers: 256 MiB of float. */
#define MAX_WEIGHTS ((guint64) 1 << 26)
#define MAX_WIDTH 65536
/* Epochs in a row that may fail to lower the best epoch loss by tol
 * (scikit-learn's n_iter_no_change). */
#define PATIENCE 10

static const char * const optimizer_choices[] = { "adam", "momentum", NULL };
static const char * const optimizer_labels[] = { N_("Adam"), N_("Momentum"), NULL };
static const char * const activation_choices[] = { "relu", "tanh", NULL };
static const char * const activation_labels[] = { N_("ReLU"), N_("tanh"), NULL };
static const char * const init_choices[] = { "random", NULL };
static const char * const init_labels[] = { N_("Random (Glorot)"), NULL };

typedef struct {
  gint64      hidden[LATENT_MLP_MAX_HIDDEN];
  const char *activation;
  const char *optimizer;
  double      learning_rate;
  double      momentum;
  gint64      batch;
  double      l2;
  double      dropout;
  double      tol;
  gint64      epochs;
  const char *init;
  gboolean    standardise;
  gboolean    shuffle;
  double      test;
} MlpParams;

#define HIDDEN_TOOLTIP N_("Units in this hidden layer; “None” ends the network before it")

static const LatentParamSpec mlp_params[] = {
  { .name = "hidden-1", LATENT_PARAM_INT_AT (MlpParams, hidden[0]),
    .label = N_("Hidden layer 1"),
    .tooltip = N_("Units in the first hidden layer (an autoencoder result given as Start sets it)"),
    .min = 1, .max = MAX_WIDTH, .default_value = 100 },
  { .name = "hidden-2", LATENT_PARAM_INT_AT (MlpParams, hidden[1]),
    .label = N_("Hidden layer 2"), .tooltip = HIDDEN_TOOLTIP,
    .min = 0, .max = MAX_WIDTH, .default_value = 0, .zero_label = N_("None") },
  { .name = "hidden-3", LATENT_PARAM_INT_AT (MlpParams, hidden[2]),
    .label = N_("Hidden layer 3"), .tooltip = HIDDEN_TOOLTIP,
    .min = 0, .max = MAX_WIDTH, .default_value = 0, .zero_label = N_("None") },
  { .name = "hidden-4", LATENT_PARAM_INT_AT (MlpParams, hidden[3]),
    .label = N_("Hidden layer 4"), .tooltip = HIDDEN_TOOLTIP,
    .min = 0, .max = MAX_WIDTH, .default_value = 0, .zero_label = N_("None") },
  { .name = "activation", LATENT_PARAM_CHOICE_AT (MlpParams, activation),
    .label = N_("Activation"),
    .tooltip = N_("What every hidden unit applies to its weighted sum: ReLU, max (0, s), or tanh"),
    .default_choice = "relu",
    .choices = activation_choices,
    .choice_labels = activation_labels },
  { .name = "optimizer", LATENT_PARAM_CHOICE_AT (MlpParams, optimizer),
    .label = N_("Optimiser"),
    .tooltip = N_("Mini-batch gradient descent with Adam or with momentum"),
    .default_choice = "adam",
    .choices = optimizer_choices,
    .choice_labels = optimizer_labels },
  { .name = "learning-rate", LATENT_PARAM_DOUBLE_AT (MlpParams, learning_rate),
    .label = N_("Learning rate"),
    .tooltip = N_("Step size of the optimiser (Adam wants about 0.001, momentum about 0.01)"),
    .min = 0, .max = 100, .default_value = 0.001 },
  { .name = "momentum", LATENT_PARAM_DOUBLE_AT (MlpParams, momentum),
    .label = N_("Momentum"),
    .tooltip = N_("Momentum optimiser: the share of the last step kept"),
    .min = 0, .max = 0.999, .default_value = 0.9,
    .applies_when = "optimizer=momentum" },
  { .name = "batch", LATENT_PARAM_INT_AT (MlpParams, batch),
    .label = N_("Mini-batch"),
    .tooltip = N_("Training rows per step; all rows: one step per epoch"),
    .min = 0, .max = 1 << 30, .default_value = 200,
    .zero_label = N_("All rows") },
  { .name = "l2", LATENT_PARAM_DOUBLE_AT (MlpParams, l2),
    .label = N_("L2 penalty"),
    .tooltip = N_("Strength λ of the penalty λ/2 · (sum of the squared weights) added to the mean "
                  "cross-entropy; the biases are not penalised"),
    .min = 0, .max = 1000, .default_value = 1e-4 },
  { .name = "dropout", LATENT_PARAM_DOUBLE_AT (MlpParams, dropout),
    .label = N_("Dropout"),
    .tooltip = N_("The share of hidden units silenced at random in every training step (never when "
                  "predicting); the others are scaled up to make up for them"),
    .min = 0, .max = 0.9, .default_value = 0 },
  { .name = "tol", LATENT_PARAM_DOUBLE_AT (MlpParams, tol),
    .label = N_("Tolerance"),
    .tooltip = N_("Stop when ten epochs in a row lower the training loss by less than this below "
                  "the best so far; 0 trains every epoch"),
    .min = 0, .max = 1, .default_value = 1e-4,
    .role = LATENT_PARAM_ROLE_TOLERANCE },
  { .name = "epochs", LATENT_PARAM_INT_AT (MlpParams, epochs),
    .label = N_("Epochs"),
    .tooltip = N_("Passes over the training rows at most"),
    .min = 1, .max = 1000000, .default_value = 200,
    .role = LATENT_PARAM_ROLE_BUDGET, .unit = LATENT_PARAM_UNIT_EPOCHS },
  { .name = "init", LATENT_PARAM_CHOICE_AT (MlpParams, init),
    .label = N_("Start"),
    .tooltip = N_("Random weights (Glorot's uniform), or @FILE: the first layer from a wta result "
                  "(its units and biases), then trained with the rest"),
    .default_choice = "random",
    .choices = init_choices,
    .allow_file = TRUE,
    .choice_labels = init_labels },
  { .name = "standardise", LATENT_PARAM_BOOL_AT (MlpParams, standardise),
    .label = N_("Standardise"),
    .tooltip = N_("Shift and scale every column to mean 0 and standard deviation 1 over the training rows "
                  "before learning (a constant column is only shifted)"),
    .default_value = TRUE },
  { .name = "shuffle", LATENT_PARAM_BOOL_AT (MlpParams, shuffle),
    .label = N_("Shuffle"),
    .tooltip = N_("Draw the mini-batches at random from the seed, anew every epoch; off: in row order"),
    .default_value = TRUE },
  { .name = "test", LATENT_PARAM_DOUBLE_AT (MlpParams, test),
    .label = N_("Test share"),
    .tooltip = N_("When the data has no test set: the share of its rows held out, drawn from the seed, "
                  "to measure the accuracy on rows the model does not learn from"),
    .min = 0, .max = 0.95, .default_value = 0.2,
    .role = LATENT_PARAM_ROLE_HELD_OUT },
};

static const LatentAlgorithm mlp_algorithm;

/* The autoencoder result of init=@FILE, checked against the data. */
static LatentSnapshot *
read_start (const char     *path,
            LatentDataset  *dataset,
            GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(LatentSnapshot) start = latent_result_read_model (path, &local_error);

  if (start == NULL)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s"), local_error->message);
      return NULL;
    }
  if (!g_str_equal (start->algorithm->id, "wta") || start->autoencoder.encoder_weights == NULL)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s is a %s result; a network starts from a wta result"), path,
                   start->algorithm->id);
      return NULL;
    }
  if (start->n_cols != latent_dataset_get_n_cols (dataset))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s encodes rows of %u columns; “%s” has %u"), path, start->n_cols,
                   latent_dataset_get_name (dataset), latent_dataset_get_n_cols (dataset));
      return NULL;
    }
  return g_steal_pointer (&start);
}

/* The layers' sizes: the data's columns, the hidden layers given (a
 * “None” ends them), the classes. The first hidden layer is the
 * autoencoder's when it starts the network. */
static guint
layer_sizes (const MlpParams *p,
             guint            d,
             guint            first_hidden,
             guint            c,
             guint           *sizes)
{
  guint n = 0;

  sizes[n++] = d;
  for (guint h = 0; h < LATENT_MLP_MAX_HIDDEN && p->hidden[h] > 0; h++)
    sizes[n++] = h == 0 && first_hidden ? first_hidden : p->hidden[h];
  sizes[n] = c;
  return n;
}

static gboolean
mlp_check (LatentDataset  *dataset,
           LatentParams   *params,
           GError        **error)
{
  g_autoptr(LatentSplit) split = NULL;
  g_autoptr(LatentSnapshot) start = NULL;
  guint sizes[LATENT_MLP_MAX_LAYERS + 1], n_layers;
  guint64 weights = 0;
  MlpParams p;

  latent_params_read (params, &p);
  if (!(split = latent_split_new (dataset, p.test, 0, error)))
    return FALSE;
  if (p.init[0] == '@' && !(start = read_start (p.init + 1, dataset, error)))
    return FALSE;
  n_layers = layer_sizes (&p, latent_dataset_get_n_cols (dataset), start ? start->autoencoder.n_units : 0,
                          latent_dataset_get_n_classes (dataset), sizes);
  for (guint l = 0; l < n_layers; l++)
    weights += (guint64) sizes[l] * sizes[l + 1];
  if (weights > MAX_WEIGHTS)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("The layers hold %llu weights in all, more than %u: choose fewer hidden units"),
                   (unsigned long long) weights, (guint) MAX_WEIGHTS);
      return FALSE;
    }
  if (!(p.learning_rate > 0))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("learning-rate must be positive"));
      return FALSE;
    }
  return TRUE;
}

/* The check's bound on a hidden layer's width: the layers' weights stay
 * within MAX_WEIGHTS, the sum of a fixed part and the width times its two
 * neighbours' sizes. A layer cut off by a "None" before it, or the first
 * when an autoencoder gives it, takes any width. */
static gint64
mlp_max_int (LatentDataset         *dataset,
             LatentParams          *params,
             const LatentParamSpec *spec)
{
  g_autoptr(LatentSnapshot) start = NULL;
  guint sizes[LATENT_MLP_MAX_LAYERS + 1], n_layers, at = 0;
  guint64 fixed = 0, around;
  gint h = -1;
  MlpParams p;

  latent_params_read (params, &p);
  for (guint i = 0; i < LATENT_MLP_MAX_HIDDEN; i++)
    if (spec->offset == G_STRUCT_OFFSET (MlpParams, hidden) + i * sizeof (gint64))
      h = i;
  if (h < 0)
    return G_MAXINT64;
  for (gint i = 0; i < h; i++)
    if (p.hidden[i] == 0)
      return G_MAXINT64;
  if (p.init[0] == '@' && !(start = read_start (p.init + 1, dataset, NULL)))
    return G_MAXINT64;   /* refused whatever the width */
  if (h == 0 && start)
    return G_MAXINT64;
  p.hidden[h] = 1;
  n_layers = layer_sizes (&p, latent_dataset_get_n_cols (dataset), start ? start->autoencoder.n_units : 0,
                          latent_dataset_get_n_classes (dataset), sizes);
  at = h + 1;
  for (guint l = 0; l < n_layers; l++)
    if (l + 1 != at && l != at)
      fixed += (guint64) sizes[l] * sizes[l + 1];
  around = (guint64) sizes[at - 1] + sizes[at + 1];
  return fixed > MAX_WEIGHTS ? 0 : (gint64) ((MAX_WEIGHTS - fixed) / around);
}

/* Paced in epochs: as many a second on 1,000 rows as on 60,000. */
static guint
mlp_pace_steps (gpointer data)
{
  return ((LatentMlp *) data)->steps_per_epoch;
}

static void
mlp_free (gpointer data)
{
  LatentMlp *self = data;

  g_clear_pointer (&self->mcl, latent_mlp_cl_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_clear_pointer (&self->rows, latent_rows_unref);
  g_clear_pointer (&self->test_source, latent_rows_unref);
  g_clear_pointer (&self->split, latent_split_free);
  g_free (self->device);
  g_free (self->fallback);
  g_free (self->init_from);
  g_free (self->mean);
  g_free (self->scale);
  g_free (self->order);
  for (guint l = 0; l < LATENT_MLP_MAX_LAYERS; l++)
    {
      g_free (self->w[l]);
      g_free (self->b[l]);
      g_free (self->vw[l]);
      g_free (self->vb[l]);
      g_free (self->sw[l]);
      g_free (self->sb[l]);
    }
  latent_training_log_clear (&self->log);
  g_free (self->test_predictions);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentMlp, mlp_free)

static void
fall_back (LatentMlp    *self,
           const GError *error)
{
  if (self->mcl)
    latent_mlp_cl_read (self->mcl, TRUE, NULL);
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, self->algorithm->id, error);
  g_clear_pointer (&self->mcl, latent_mlp_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (_(CPU_REFERENCE));
}

/* Glorot's uniform start, as scikit-learn's: weights and biases drawn
 * from ±√(6 / (in + out)). */
static void
init_random (LatentMlp *self,
             guint      first)
{
  const guint32 words[2] = { self->seed & 0xffffffffu, self->seed >> 32 };
  g_autoptr(GRand) rand = g_rand_new_with_seed_array (words, 2);

  for (guint l = first; l < self->n_layers; l++)
    {
      const double bound = sqrt (6.0 / (self->sizes[l] + self->sizes[l + 1]));

      for (gsize i = 0; i < latent_mlp_weights (self, l); i++)
        self->w[l][i] = g_rand_double_range (rand, -bound, bound);
      for (guint k = 0; k < self->sizes[l + 1]; k++)
        self->b[l][k] = g_rand_double_range (rand, -bound, bound);
    }
}

/* The first layer from the autoencoder's encoder E (on its own scaling,
 * x_a = (x − offset) · sc) moved onto this run's standardisation
 * x' = (x − mean) · scale: W₀ = E · sc / scale, b₀ = h + E · sc · (mean − offset),
 * so each unit sums the same of every row as it did in the autoencoder. */
static void
init_from_autoencoder (LatentMlp      *self,
                       LatentSnapshot *start)
{
  const LatentAutoencoderPart *ae = &start->autoencoder;
  const guint d = self->d;

  for (guint k = 0; k < self->sizes[1]; k++)
    {
      double shift = ae->hidden_bias[k];

      for (guint a = 0; a < d; a++)
        {
          const double e = (double) ae->encoder_weights[(gsize) k * d + a] * ae->input_scale[a];

          self->w[0][(gsize) k * d + a] = e / self->scale[a];
          shift += e * ((double) self->mean[a] - ae->input_offset[a]);
        }
      self->b[0][k] = shift;
    }
}

static gboolean
evaluate_test (LatentMlp     *self,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  if (self->mcl && !latent_mlp_cl_test (self->mcl, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      fall_back (self, local_error);
    }
  return self->mcl != NULL || latent_mlp_reference_test (self, error);
}

static gpointer
mlp_init (LatentDataset  *dataset,
          LatentParams   *params,
          guint64         seed,
          LatentCl       *cl,
          GCancellable   *cancellable,
          GError        **error)
{
  g_autoptr(LatentMlp) self = NULL;
  g_autoptr(LatentSnapshot) start = NULL;
  g_autoptr(GError) local_error = NULL;
  MlpParams p;

  if (!mlp_check (dataset, params, error))
    return NULL;
  latent_params_read (params, &p);

  self = g_new0 (LatentMlp, 1);
  self->algorithm = &mlp_algorithm;
  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  if (!(self->split = latent_split_new (dataset, p.test, seed, error)))
    return NULL;
  if (p.init[0] == '@' && !(start = read_start (p.init + 1, dataset, error)))
    return NULL;
  self->rows = latent_rows_new_for_dataset (self->split->train, 0);
  self->test_source = self->split->test == self->split->train ? latent_rows_ref (self->rows)
                      : latent_rows_new_for_dataset (self->split->test, 0);
  self->n_train = self->split->n_train;
  self->n_test = self->split->n_test;
  self->c = self->split->n_classes;
  self->d = latent_dataset_get_n_cols (dataset);
  self->batch = p.batch == 0 ? self->n_train : MIN ((guint) p.batch, self->n_train);
  self->steps_per_epoch = (self->n_train + self->batch - 1) / self->batch;
  self->adam = g_str_equal (p.optimizer, "adam");
  self->tanh = g_str_equal (p.activation, "tanh");
  self->shuffle = p.shuffle && self->steps_per_epoch > 1;
  self->learning_rate = p.learning_rate;
  self->momentum = p.momentum;
  self->l2 = p.l2;
  self->dropout = p.dropout;
  self->epochs = p.epochs;
  self->tol = p.tol;
  self->n_layers = layer_sizes (&p, self->d, start ? start->autoencoder.n_units : 0, self->c, self->sizes);

  self->mean = g_new (float, self->d);
  self->scale = g_new (float, self->d);
  if (!latent_split_standardise (self->split, self->rows, p.standardise, self->mean, self->scale, error))
    return NULL;
  self->order = g_memdup2 (self->split->train_rows, self->n_train * sizeof (gint32));
  if (self->shuffle)
    latent_classify_shuffle (self->order, self->n_train, self->seed + 1);

  for (guint l = 0; l < self->n_layers; l++)
    {
      const gsize n = latent_mlp_weights (self, l), out = self->sizes[l + 1];

      self->w[l] = g_new (float, n);
      self->b[l] = g_new (float, out);
      self->vw[l] = g_new0 (float, n);
      self->vb[l] = g_new0 (float, out);
      if (self->adam)
        {
          self->sw[l] = g_new0 (float, n);
          self->sb[l] = g_new0 (float, out);
        }
    }
  init_random (self, start ? 1 : 0);
  if (start)
    {
      init_from_autoencoder (self, start);
      self->init_from = g_path_get_basename (p.init + 1);
    }

  latent_training_log_init (&self->log);
  self->test_predictions = g_new0 (gint32, self->n_test);
  self->test_loss = NAN;

  /* The device keeps its own copy of every row, which only sources of one
   * chunk of them all give; in chunks, the run stays on the host. */
  if (cl && latent_rows_is_whole (self->rows, self->split->train) &&
      latent_rows_is_whole (self->test_source, self->split->test))
    {
      self->runtime = g_object_ref (cl);
      self->device = latent_cl_describe (cl);
      self->mcl = latent_mlp_cl_new (self, cl, &local_error);
      if (self->mcl && !latent_mlp_cl_set_order (self->mcl, &local_error))
        g_clear_pointer (&self->mcl, latent_mlp_cl_free);
      if (local_error)
        fall_back (self, local_error);
    }
  else
    self->device = g_strdup (_(CPU_REFERENCE));
  if (!evaluate_test (self, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
end_epoch (LatentMlp     *self,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  const LatentSplit *split = self->split;

  if (!evaluate_test (self, cancellable, error))
    return FALSE;
  if (latent_training_log_end_epoch (&self->log, self->n_train, self->test_loss,
                                     latent_classify_accuracy (split->test, split->test_rows, self->test_predictions,
                                                               self->n_test),
                                     self->tol, LATENT_STOP_ABSOLUTE, PATIENCE))
    self->converged = TRUE;
  if (self->shuffle && self->log.epoch < self->epochs && !self->converged)
    {
      latent_classify_shuffle (self->order, self->n_train, self->seed + 1 + self->log.epoch);
      if (self->mcl && !latent_mlp_cl_set_order (self->mcl, &local_error))
        fall_back (self, local_error);
    }
  return TRUE;
}

static gboolean
mlp_step (gpointer       data,
          GCancellable  *cancellable,
          GError       **error)
{
  LatentMlp *self = data;
  const guint first = (self->iteration % self->steps_per_epoch) * self->batch;
  const guint rows = MIN (self->batch, self->n_train - first);
  g_autoptr(GError) local_error = NULL;
  double loss = NAN;
  guint right = 0;

  g_return_val_if_fail (!self->finished, FALSE);

  self->adam_t++;
  if (self->mcl && !latent_mlp_cl_step (self->mcl, first, rows, &loss, &right, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->adam_t--;
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      fall_back (self, local_error);
    }
  if (self->mcl == NULL && !latent_mlp_reference_step (self, first, rows, &loss, &right, error))
    {
      self->adam_t--;
      return FALSE;
    }

  if (!latent_training_log_step (&self->log, self->iteration, loss, rows, right, self->learning_rate, error))
    {
      self->finished = TRUE;
      return FALSE;
    }
  self->iteration++;
  if (self->iteration % self->steps_per_epoch == 0 && !end_epoch (self, cancellable, error))
    return FALSE;
  self->finished = self->converged || self->log.epoch >= self->epochs;
  return TRUE;
}

static double
mlp_objective (gpointer data)
{
  return ((LatentMlp *) data)->log.loss;
}

static gboolean
mlp_converged (gpointer data)
{
  return ((LatentMlp *) data)->finished;
}

/* The network in data units: the standardisation folded into the first
 * layer, W₀ · (x − mean) · scale + b₀ = (W₀ · scale) x + b₀ − (W₀ · scale) · mean. */
static float *
network_in_data_units (LatentMlp *self)
{
  const guint d = self->d;
  gsize total = 0;
  float *net, *at;

  for (guint l = 0; l < self->n_layers; l++)
    total += latent_mlp_weights (self, l) + self->sizes[l + 1];
  at = net = g_new (float, total);
  for (guint l = 0; l < self->n_layers; l++)
    {
      const gsize n = latent_mlp_weights (self, l);
      const guint out = self->sizes[l + 1];

      memcpy (at, self->w[l], n * sizeof (float));
      memcpy (at + n, self->b[l], out * sizeof (float));
      if (l == 0)
        for (guint k = 0; k < out; k++)
          {
            double shift = 0;

            for (guint a = 0; a < d; a++)
              {
                at[(gsize) k * d + a] *= self->scale[a];
                shift += (double) at[(gsize) k * d + a] * self->mean[a];
              }
            at[n + k] -= shift;
          }
      at += n + out;
    }
  return net;
}

static LatentSnapshot *
mlp_snapshot (gpointer data)
{
  LatentMlp *self = data;
  LatentSnapshot *snap = latent_snapshot_new (self->algorithm, self->dataset, self->params);
  LatentClassifierPart *part = &snap->classifier;
  g_autoptr(GError) local_error = NULL;

  if (self->mcl && !latent_mlp_cl_read (self->mcl, FALSE, &local_error))
    fall_back (self, local_error);
  snap->seed = self->seed;
  snap->iteration = self->iteration;
  snap->converged = self->converged;
  snap->final = self->finished;
  snap->objective = self->log.loss;
  snap->n_rows = latent_dataset_get_n_rows (self->dataset);
  snap->n_cols = self->d;

  part->n_classes = self->c;
  part->n_layers = self->n_layers;
  part->layer_sizes = g_memdup2 (self->sizes, sizeof (guint) * (self->n_layers + 1));
  part->network = network_in_data_units (self);
  part->tanh_units = self->tanh;
  part->input_offset = g_memdup2 (self->mean, sizeof (float) * self->d);
  part->input_scale = g_memdup2 (self->scale, sizeof (float) * self->d);

  latent_training_log_fill (&self->log, self->steps_per_epoch, snap);
  latent_classify_judge (snap, self->split, self->test_predictions);
  part->test_loss = self->test_loss;
  snap->device = g_strdup (self->device);
  snap->message = self->fallback ? g_strdup (self->fallback)
                  : self->init_from ? g_strdup_printf (_("First layer from %s"), self->init_from) : NULL;
  return snap;
}

/* The layers in data units (enough to score rows), the standardisation
 * they fold in, and the epochs' curves. */
static void
mlp_write_json (LatentSnapshot *snap,
                JsonBuilder    *b)
{
  const LatentClassifierPart *part = &snap->classifier;
  const float *at = part->network;

  latent_classifiers_write_json (snap, b);
  json_builder_set_member_name (b, "activation");
  json_builder_add_string_value (b, part->tanh_units ? "tanh" : "relu");
  latent_json_add_uint_vector_member (b, "layer_sizes", part->layer_sizes, part->n_layers + 1);
  json_builder_set_member_name (b, "layers");
  json_builder_begin_array (b);
  for (guint l = 0; l < part->n_layers; l++)
    {
      const guint in = part->layer_sizes[l], out = part->layer_sizes[l + 1];

      json_builder_begin_object (b);
      latent_json_add_matrix_member (b, "weights", at, out, in);
      latent_json_add_float_vector_member (b, "bias", at + (gsize) out * in, out);
      json_builder_end_object (b);
      at += (gsize) out * in + out;
    }
  json_builder_end_array (b);
  latent_json_add_float_vector_member (b, "standardise_mean", part->input_offset, snap->n_cols);
  latent_json_add_float_vector_member (b, "standardise_scale", part->input_scale, snap->n_cols);
  latent_json_add_number_member (b, "epochs_done", part->epochs.n_epochs);
  latent_json_add_number_member (b, "steps_per_epoch", part->epochs.steps_per_epoch);
  latent_json_add_vector_member (b, "train_loss", part->epochs.train_loss, part->epochs.n_epochs);
  latent_json_add_vector_member (b, "test_loss", part->epochs.held_out_loss, part->epochs.n_epochs);
  latent_json_add_number_member (b, "final_test_loss", part->test_loss);
}

static const char * const mlp_figures[] = { "regions", "units", "curves", "confusion", NULL };

static const LatentAlgorithm mlp_algorithm = {
  .id = "mlp",
  .title = N_("Neural network (MLP)"),
  .short_title = N_("Neural network"),
  .objective_name = N_("mini-batch loss"),
  .pace = 10,
  .pace_unit = N_("epochs/s"),
  .family = LATENT_FAMILY_CLASSIFIER,
  .flags = LATENT_ALGORITHM_SUPERVISED,
  .figures = mlp_figures,
  .params = mlp_params,
  .n_params = G_N_ELEMENTS (mlp_params),
  .check = mlp_check,
  .max_int = mlp_max_int,
  .init = mlp_init,
  .step = mlp_step,
  .snapshot = mlp_snapshot,
  .objective = mlp_objective,
  .converged = mlp_converged,
  .free = mlp_free,
  .pace_steps = mlp_pace_steps,
  .write_json = mlp_write_json,
};

const LatentAlgorithm *
latent_mlp_get_algorithm (void)
{
  return &mlp_algorithm;
}

LatentParams *
latent_mlp_new_params_from (const char *wta_result)
{
  LatentParams *params = latent_algorithm_new_params (&mlp_algorithm);
  g_autofree char *init = g_strconcat ("@", wta_result, NULL);

  /* Any path is a valid value: what it holds is checked when the run starts. */
  latent_params_set (params, "init", init, NULL);
  return params;
}
