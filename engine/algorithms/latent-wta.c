/* latent-wta.c — the winner-take-all autoencoder: parameters, the split and
 * the epochs, snapshots and results
 *
 * Makhzani and Frey's fully connected WTA autoencoder (lifetime sparsity)
 * and the k-sparse autoencoder, trained by mini-batches; one step is one
 * mini-batch. The math of a step is in latent-wta-private.h; its two paths
 * are latent-wta-reference.c and latent-wta-cl.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-wta"

#include "latent-wta.h"
#include "latent-wta-private.h"

#include <cblas.h>
#include <float.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-json.h"

#define CPU_REFERENCE N_("CPU reference")
/* Validation rows kept with their reconstructions for the view. */
#define N_EXAMPLES 16
/* Weights per matrix at most: 256 MiB of float. */
#define MAX_WEIGHTS ((guint64) 1 << 26)
/* Initial weights: N(0, INIT_SIGMA²), small beside [0, 1] inputs. */
#define INIT_SIGMA 0.01
/* A loss this many times the first one means the steps run away. */
#define DIVERGED_RATIO 100.0

static const char * const sparsity_choices[] = { "lifetime", "k-sparse", "none", NULL };
static const char * const sparsity_labels[] = { N_("Lifetime (per unit)"), N_("k-sparse (per row)"),
                                                N_("None (ReLU)"), NULL };
static const char * const optimizer_choices[] = { "momentum", "adam", NULL };
static const char * const optimizer_labels[] = { N_("Momentum"), N_("Adam"), NULL };
static const char * const init_choices[] = { "random", NULL };
static const char * const init_labels[] = { N_("Random"), NULL };

/* Defaults give garment-part filters on Fashion-MNIST within 5 epochs; a
 * learning rate of 0.1 with momentum 0.9 leaves most units dead there. */
/* The parameters, read once (latent_params_read). */
typedef struct {
  gint64      hidden;
  const char *sparsity;
  double      rate;
  gint64      k;
  gboolean    tied;
  gint64      batch;
  gint64      epochs;
  double      learning_rate;
  double      momentum;
  const char *optimizer;
  double      validation;
  gboolean    shuffle;
  const char *init;
} WtaParams;

static const LatentParamSpec wta_params[] = {
  { .name = "hidden", LATENT_PARAM_INT_AT (WtaParams, hidden),
    .label = N_("Hidden units"),
    .tooltip = N_("Units in the hidden layer"),
    .min = 1, .max = 65536, .default_value = 1024 },
  { .name = "sparsity", LATENT_PARAM_CHOICE_AT (WtaParams, sparsity),
    .label = N_("Sparsity"),
    .tooltip = N_("Lifetime: each unit keeps its largest activations across the mini-batch. "
                  "k-sparse: each row keeps its k largest. None: a plain ReLU autoencoder"),
    .default_choice = "lifetime",
    .choices = sparsity_choices,
    .choice_labels = sparsity_labels },
  { .name = "rate", LATENT_PARAM_DOUBLE_AT (WtaParams, rate),
    .label = N_("Winner rate"),
    .tooltip = N_("Lifetime sparsity: the share of a mini-batch each unit keeps"),
    .min = 0, .max = 1, .default_value = 0.05,
    .applies_when = "sparsity=lifetime" },
  { .name = "k", LATENT_PARAM_INT_AT (WtaParams, k),
    .label = N_("Winners per row"),
    .tooltip = N_("k-sparse: the activations each row keeps"),
    .min = 1, .max = 65536, .default_value = 25,
    .applies_when = "sparsity=k-sparse" },
  { .name = "tied", LATENT_PARAM_BOOL_AT (WtaParams, tied),
    .label = N_("Tied weights"),
    .tooltip = N_("The decoder uses the encoder's weights, transposed"),
    .default_value = TRUE },
  { .name = "batch", LATENT_PARAM_INT_AT (WtaParams, batch),
    .label = N_("Mini-batch"),
    .tooltip = N_("Rows per step"),
    .min = 1, .max = 65536, .default_value = 100 },
  { .name = "epochs", LATENT_PARAM_INT_AT (WtaParams, epochs),
    .label = N_("Epochs"),
    .tooltip = N_("Passes over the training rows"),
    .min = 1, .max = 100000, .default_value = 5,
    .role = LATENT_PARAM_ROLE_BUDGET, .unit = LATENT_PARAM_UNIT_EPOCHS },
  { .name = "learning-rate", LATENT_PARAM_DOUBLE_AT (WtaParams, learning_rate),
    .label = N_("Learning rate"),
    .tooltip = N_("Step size of the optimiser (Adam wants about 0.001)"),
    .min = 0, .max = 10, .default_value = 0.01 },
  { .name = "momentum", LATENT_PARAM_DOUBLE_AT (WtaParams, momentum),
    .label = N_("Momentum"),
    .tooltip = N_("Momentum optimiser: the share of the last step kept"),
    .min = 0, .max = 0.999, .default_value = 0.9,
    .applies_when = "optimizer=momentum" },
  { .name = "optimizer", LATENT_PARAM_CHOICE_AT (WtaParams, optimizer),
    .label = N_("Optimiser"),
    .tooltip = N_("Gradient descent with momentum, or Adam"),
    .default_choice = "momentum",
    .choices = optimizer_choices,
    .choice_labels = optimizer_labels },
  { .name = "validation", LATENT_PARAM_DOUBLE_AT (WtaParams, validation),
    .label = N_("Validation share"),
    .tooltip = N_("Rows held out to measure the loss on data the model does not train on"),
    .min = 0, .max = 0.9, .default_value = 0.1 },
  { .name = "shuffle", LATENT_PARAM_BOOL_AT (WtaParams, shuffle),
    .label = N_("Shuffle"),
    .tooltip = N_("Draw the split and the mini-batches at random from the seed; off: in row order"),
    .default_value = TRUE },
  { .name = "init", LATENT_PARAM_CHOICE_AT (WtaParams, init),
    .label = N_("Initial weights"),
    .tooltip = N_("Random from the seed, or the result of an earlier run of the same shape (a JSON file)"),
    .default_choice = "random",
    .choices = init_choices,
    .allow_file = TRUE,
    .choice_labels = init_labels },
};

static const LatentAlgorithm wta_algorithm;

static guint
validation_rows (LatentDataset   *dataset,
                 const WtaParams *p)
{
  return (guint) floor (p->validation * latent_dataset_get_n_rows (dataset));
}

static gboolean
wta_check (LatentDataset  *dataset,
           LatentParams   *params,
           GError        **error)
{
  const guint n = latent_dataset_get_n_rows (dataset), d = latent_dataset_get_n_cols (dataset);
  const char *name = latent_dataset_get_name (dataset);
  WtaParams p;
  guint n_train, h, batch;
  const char *sparsity;
  double rate;

  latent_params_read (params, &p);
  n_train = n - validation_rows (dataset, &p);
  h = p.hidden;
  /* A batch larger than the data is all of it, as for logistic regression. */
  batch = MIN ((guint) p.batch, n_train);
  sparsity = p.sparsity;
  rate = p.rate;

  if ((guint64) h * d > MAX_WEIGHTS)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("hidden = %u: %u units × %u columns of “%s” are more than %u weights"),
                   h, h, d, name, (guint) MAX_WEIGHTS);
      return FALSE;
    }
  if (g_str_equal (sparsity, "lifetime") && !(rate > 0))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("rate = %g: lifetime sparsity needs a positive share of winners"), rate);
      return FALSE;
    }
  if (g_str_equal (sparsity, "lifetime") && round (rate * batch) < 1)
    {
      /* The smallest rate that keeps one winner, in two digits rounded up. */
      const double scale = pow (10, floor (log10 (0.5 / batch)) - 1);
      const double least_rate = ceil (0.5 / batch / scale) * scale;

      if (batch < (guint) p.batch)
        /* Translators: rate, the training rows, the data's name, the least rate. */
        g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                     _("rate = %g keeps no winner of a mini-batch of all %u training rows of “%s”: "
                       "raise rate to %g or more"),
                     rate, batch, name, least_rate);
      else
        /* Translators: rate, batch, the least rate, the least batch. */
        g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                     _("rate = %g keeps no winner of a mini-batch of %u rows: "
                       "raise rate to %g or batch to %u"),
                     rate, batch, least_rate, (guint) ceil (0.5 / rate));
      return FALSE;
    }
  if (g_str_equal (sparsity, "k-sparse") && (guint) p.k > h)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("k = %u is more than the %u hidden units"), (guint) p.k, h);
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

static gint64
wta_max_int (LatentDataset         *dataset,
             LatentParams          *params,
             const LatentParamSpec *spec)
{
  const guint d = latent_dataset_get_n_cols (dataset);
  WtaParams p;

  latent_params_read (params, &p);
  /* As wta_check: the weights up to MAX_WEIGHTS, k up to the hidden units;
   * the lifetime rule bounds the batch from below only. */
  if (g_str_equal (spec->name, "hidden") && d > 0)
    return (gint64) (MAX_WEIGHTS / d);
  if (g_str_equal (spec->name, "k") && g_str_equal (p.sparsity, "k-sparse"))
    return p.hidden;
  return G_MAXINT64;
}

static void
free_params (LatentWtaParams *p)
{
  g_free (p->w);
  g_free (p->wd);
  g_free (p->b);
  g_free (p->c);
}

static void
alloc_params (LatentWta       *self,
              LatentWtaParams *p)
{
  const gsize hd = (gsize) self->h * self->d;

  p->w = g_new0 (float, hd);
  p->wd = self->tied ? NULL : g_new0 (float, hd);
  p->b = g_new0 (float, self->h);
  p->c = g_new0 (float, self->d);
}

/* Paced in epochs: as many a second on 1,000 rows as on 60,000. */
static guint
wta_pace_steps (gpointer data)
{
  return ((LatentWta *) data)->steps_per_epoch;
}

static void
wta_free (gpointer data)
{
  LatentWta *self = data;

  g_clear_pointer (&self->wcl, latent_wta_cl_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->rows, latent_rows_unref);
  g_clear_pointer (&self->params, latent_params_unref);
  g_free (self->device);
  g_free (self->fallback);
  g_free (self->offset);
  g_free (self->scale);
  g_free (self->order);
  free_params (&self->p);
  free_params (&self->v);
  free_params (&self->s);
  g_free (self->wins);
  g_free (self->last_wins);
  g_clear_pointer (&self->step_loss, g_array_unref);
  g_clear_pointer (&self->epoch_train, g_array_unref);
  g_clear_pointer (&self->epoch_val, g_array_unref);
  g_clear_pointer (&self->epoch_dead, g_array_unref);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentWta, wta_free)

static void
fall_back (LatentWta    *self,
           const GError *error)
{
  /* The parameters come back from the device if it still answers; if
   * not, the run goes on from the last copy read. */
  if (self->wcl)
    latent_wta_cl_read (self->wcl, TRUE, NULL);
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, self->algorithm->id, error);
  g_clear_pointer (&self->wcl, latent_wta_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (_(CPU_REFERENCE));
}

/* Image rows to [0, 1] by the largest value; other data per column to
 * [0, 1] by its range, so ReLU units and a linear decoder see one scale.
 * A range below the smallest normal float is constant (its inverse would
 * overflow); one beyond the largest float is refused, as k-means does, so
 * the learning rate is not blamed for data that overflow from the start. */
static gboolean
choose_scaling (LatentWta  *self,
                GError    **error)
{
  const guint d = self->d, n_chunks = latent_rows_get_n_chunks (self->rows);
  g_autofree float *lo = g_new (float, d);
  g_autofree float *hi = g_new (float, d);
  gboolean single = FALSE, image;
  float top = 0;

  image = latent_dataset_get_image_shape (self->dataset, NULL, NULL, NULL, &single) && !single;
  /* One pass over the source's chunks, in row order: the same comparisons
   * as over the whole array. */
  for (guint c = 0; c < n_chunks; c++)
    {
      LatentChunk chunk;

      if (!latent_rows_get_chunk (self->rows, c, &chunk, error))
        return FALSE;
      if (image)
        {
          for (gsize i = 0; i < (gsize) chunk.n * d; i++)
            top = MAX (top, fabsf (chunk.values[i]));
          continue;
        }
      for (guint a = 0; a < d; a++)
        {
          guint r = 0;

          if (c == 0)
            {
              lo[a] = hi[a] = chunk.values[a];
              r = 1;
            }
          for (; r < chunk.n; r++)
            {
              lo[a] = MIN (lo[a], chunk.values[(gsize) r * d + a]);
              hi[a] = MAX (hi[a], chunk.values[(gsize) r * d + a]);
            }
        }
    }
  if (image)
    {
      for (guint a = 0; a < d; a++)
        {
          self->offset[a] = 0;
          self->scale[a] = top >= FLT_MIN ? 1 / top : 1;
        }
      return TRUE;
    }
  for (guint a = 0; a < d; a++)
    {
      const double range = (double) hi[a] - lo[a];

      if (!(range <= FLT_MAX / 2))
        {
          g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA,
                       _("“%s”: column %u spans %.3g, beyond single precision; scale the data down"),
                       latent_dataset_get_name (self->dataset), a + 1, range);
          return FALSE;
        }
      self->offset[a] = lo[a];
      self->scale[a] = range >= FLT_MIN ? 1 / range : 1;
    }
  return TRUE;
}

static GRand *
new_rand (guint64 seed)
{
  const guint32 words[2] = { seed & 0xffffffffu, seed >> 32 };

  return g_rand_new_with_seed_array (words, 2);
}

static void
shuffle (GRand *rand,
         guint *values,
         guint  count)
{
  for (guint i = count; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i), t = values[i - 1];

      values[i - 1] = values[j];
      values[j] = t;
    }
}

static double
gaussian (GRand *rand)
{
  double u = 1 - g_rand_double (rand), v = g_rand_double (rand);

  return sqrt (-2 * log (u)) * cos (2 * G_PI * v);
}

static gboolean
read_member (JsonObject  *root,
             const char  *member,
             float       *out,
             guint        count,
             const char  *path,
             GError     **error)
{
  g_autofree double *values = g_new (double, count);

  if (!json_object_has_member (root, member) ||
      !latent_json_read_numbers (json_object_get_member (root, member), values, count))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s: “%s” must hold %u finite numbers"), path, member, count);
      return FALSE;
    }
  for (guint i = 0; i < count; i++)
    {
      /* The weights are floats: a larger double would turn into infinity
       * (undefined behaviour in C) and the first step into NaN. */
      if (fabs (values[i]) > G_MAXFLOAT)
        {
          g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                       _("parameter init: %s: “%s” holds %g, too large for single precision"), path, member,
                       values[i]);
          return FALSE;
        }
      out[i] = values[i];
    }
  return TRUE;
}

/* The weights of an earlier run's --json result. */
static gboolean
init_from_file (LatentWta   *self,
                const char  *path,
                GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  const guint h = self->h, d = self->d;
  JsonObject *root;

  if (!(parser = latent_json_load_file (path, LATENT_MODEL_MAX_BYTES, _("an autoencoder's result"), &local_error)))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s"), local_error->message);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s: expected the result of a wta run"), path);
      return FALSE;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  return read_member (root, "weights", self->p.w, h * d, path, error) &&
         read_member (root, "hidden_bias", self->p.b, h, path, error) &&
         read_member (root, "decoder_bias", self->p.c, d, path, error) &&
         (self->tied || read_member (root, "decoder_weights", self->p.wd, h * d, path, error));
}

static void
init_random (LatentWta *self,
             GRand     *rand)
{
  const gsize hd = (gsize) self->h * self->d;

  for (gsize i = 0; i < hd; i++)
    self->p.w[i] = INIT_SIGMA * gaussian (rand);
  for (gsize i = 0; !self->tied && i < hd; i++)
    self->p.wd[i] = INIT_SIGMA * gaussian (rand);
}

static gpointer
wta_init (LatentDataset  *dataset,
          LatentParams   *params,
          guint64         seed,
          LatentCl       *cl,
          GCancellable   *cancellable,
          GError        **error)
{
  g_autoptr(LatentWta) self = NULL;
  g_autoptr(GRand) rand = new_rand (seed);
  g_autoptr(GError) local_error = NULL;
  WtaParams p;

  if (!wta_check (dataset, params, error))
    return NULL;
  latent_params_read (params, &p);

  self = g_new0 (LatentWta, 1);
  self->algorithm = &wta_algorithm;
  self->dataset = g_object_ref (dataset);
  self->rows = latent_rows_new_for_dataset (dataset, 0);
  self->params = latent_params_ref (params);
  self->seed = seed;
  self->n = latent_dataset_get_n_rows (dataset);
  self->d = latent_dataset_get_n_cols (dataset);
  self->h = p.hidden;
  self->batch = MIN ((guint) p.batch, self->n - validation_rows (dataset, &p));
  self->sparsity = g_str_equal (p.sparsity, "lifetime") ? LATENT_WTA_LIFETIME
                   : g_str_equal (p.sparsity, "k-sparse") ? LATENT_WTA_K_SPARSE : LATENT_WTA_NONE;
  self->winners = self->sparsity == LATENT_WTA_LIFETIME ? (guint) round (p.rate * self->batch)
                  : self->sparsity == LATENT_WTA_K_SPARSE ? (guint) p.k : self->h;
  self->tied = p.tied;
  self->adam = g_str_equal (p.optimizer, "adam");
  self->shuffle = p.shuffle;
  self->learning_rate = p.learning_rate;
  self->momentum = p.momentum;
  self->epochs = p.epochs;
  self->n_val = validation_rows (dataset, &p);
  self->n_train = self->n - self->n_val;
  self->steps_per_epoch = self->n_train / self->batch;

  self->offset = g_new (float, self->d);
  self->scale = g_new (float, self->d);
  if (!choose_scaling (self, error))
    return NULL;
  self->order = g_new (guint, self->n);
  for (guint i = 0; i < self->n; i++)
    self->order[i] = i;
  /* The split is drawn once; the training part is drawn again every epoch. */
  if (self->shuffle)
    shuffle (rand, self->order, self->n);

  alloc_params (self, &self->p);
  alloc_params (self, &self->v);
  if (self->adam)
    alloc_params (self, &self->s);
  if (p.init[0] == '@')
    {
      if (!init_from_file (self, p.init + 1, error))
        return NULL;
    }
  else
    init_random (self, rand);
  if (self->shuffle)
    shuffle (rand, self->order, self->n_train);

  self->wins = g_new0 (guint, self->h);
  self->step_loss = g_array_new (FALSE, FALSE, sizeof (float));
  self->epoch_train = g_array_new (FALSE, FALSE, sizeof (double));
  self->epoch_val = g_array_new (FALSE, FALSE, sizeof (double));
  self->epoch_dead = g_array_new (FALSE, FALSE, sizeof (double));
  self->loss = NAN;
  self->val_loss = NAN;

  /* The device keeps its own copy of every row, which only a source of
   * one chunk of them all gives; in chunks, the run stays on the host. */
  if (cl && latent_rows_is_whole (self->rows, dataset))
    {
      self->runtime = g_object_ref (cl);
      self->device = latent_cl_describe (cl);
      self->wcl = latent_wta_cl_new (self, cl, &local_error);
      if (self->wcl && !latent_wta_cl_set_order (self->wcl, self->order, self->n, &local_error))
        g_clear_pointer (&self->wcl, latent_wta_cl_free);
      if (local_error)
        fall_back (self, local_error);
    }
  else
    self->device = g_strdup (_(CPU_REFERENCE));
  return g_steal_pointer (&self);
}

/* Loss of the rows @order[0..count) in mini-batches, as training sees them. */
static gboolean
batched_loss (LatentWta     *self,
              guint          first,
              guint          count,
              double        *loss,
              GCancellable  *cancellable,
              GError       **error)
{
  double total = 0;

  for (guint done = 0; done < count; done += self->batch)
    {
      const guint rows = MIN (self->batch, count - done);
      g_autoptr(GError) local_error = NULL;
      double part;

      if (self->wcl &&
          !latent_wta_cl_forward (self->wcl, first + done, rows, &part, NULL, cancellable, &local_error))
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          fall_back (self, local_error);
        }
      if (self->wcl == NULL &&
          !latent_wta_reference_forward (self, self->order + first + done, rows, &part, NULL, error))
        return FALSE;
      total += part * rows;
    }
  *loss = count ? total / count : NAN;
  return TRUE;
}

static gboolean
end_epoch (LatentWta     *self,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  guint dead = 0;
  double val = NAN;

  if (self->wcl && !latent_wta_cl_read (self->wcl, FALSE, &local_error))
    fall_back (self, local_error);
  for (guint j = 0; j < self->h; j++)
    dead += self->wins[j] == 0;
  if (self->n_val > 0 && !batched_loss (self, self->n_train, self->n_val, &val, cancellable, error))
    return FALSE;
  g_array_append_val (self->epoch_train, (double) { self->epoch_loss / self->steps_per_epoch });
  g_array_append_val (self->epoch_val, val);
  g_array_append_val (self->epoch_dead, (double) { (double) dead / self->h });
  self->val_loss = val;
  g_free (self->last_wins);
  self->last_wins = g_steal_pointer (&self->wins);
  self->wins = g_new0 (guint, self->h);
  self->epoch_loss = 0;
  self->epoch++;

  if (self->wcl && !latent_wta_cl_reset_wins (self->wcl, &local_error))
    fall_back (self, local_error);
  if (self->shuffle && self->epoch < self->epochs)
    {
      g_autoptr(GRand) rand = new_rand (self->seed + self->epoch);

      shuffle (rand, self->order, self->n_train);
      if (self->wcl && !latent_wta_cl_set_order (self->wcl, self->order, self->n_train, &local_error))
        fall_back (self, local_error);
    }
  return TRUE;
}

static gboolean
wta_step (gpointer       data,
          GCancellable  *cancellable,
          GError       **error)
{
  LatentWta *self = data;
  const guint first = (self->iteration % self->steps_per_epoch) * self->batch;
  g_autoptr(GError) local_error = NULL;
  double loss = NAN;

  g_return_val_if_fail (!self->finished, FALSE);

  self->adam_t++;
  if (self->wcl && !latent_wta_cl_step (self->wcl, first, self->batch, &loss, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->adam_t--;
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      fall_back (self, local_error);
    }
  if (self->wcl == NULL && !latent_wta_reference_step (self, self->order + first, self->batch, &loss, error))
    {
      self->adam_t--;
      return FALSE;
    }

  if (self->iteration == 0)
    self->first_loss = loss;
  /* The first loss comes from the starting weights, before any step. */
  if (self->iteration == 0 && !isfinite (loss))
    {
      self->finished = TRUE;
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA,
                   _("The loss is %g before the first step: the starting weights or the data "
                     "overflow single precision"), loss);
      return FALSE;
    }
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
  self->epoch_loss += loss;
  g_array_append_val (self->step_loss, (float) { loss });
  self->iteration++;
  if (self->iteration % self->steps_per_epoch == 0 && !end_epoch (self, cancellable, error))
    return FALSE;
  self->finished = self->epoch >= self->epochs;
  return TRUE;
}

static double
wta_objective (gpointer data)
{
  return ((LatentWta *) data)->loss;
}

static gboolean
wta_converged (gpointer data)
{
  return ((LatentWta *) data)->finished;
}

/* The first rows of the validation part (the training part without one)
 * and their reconstructions, in data units. */
static void
fill_examples (LatentWta      *self,
               LatentSnapshot *snap)
{
  LatentExamples *examples = &snap->autoencoder.examples;
  const guint d = self->d, first = self->n_val > 0 ? self->n_train : 0;
  const guint rows = MIN (self->batch, self->n_val > 0 ? self->n_val : self->n_train);
  const guint shown = MIN (N_EXAMPLES, rows);
  g_autofree float *xhat = g_new (float, (gsize) rows * d);
  g_autoptr(GError) local_error = NULL;
  double loss;

  if (self->wcl &&
      !latent_wta_cl_forward (self->wcl, first, rows, &loss, xhat, NULL, &local_error))
    fall_back (self, local_error);
  /* A snapshot cannot fail: rows the source does not give leave it
   * without examples. */
  if (self->wcl == NULL && !latent_wta_reference_forward (self, self->order + first, rows, &loss, xhat, &local_error))
    {
      g_warning ("%s", local_error->message);
      return;
    }
  examples->n_examples = shown;
  examples->rows = g_new (gint32, shown);
  examples->reconstructions = g_new (float, (gsize) shown * d);
  for (guint r = 0; r < shown; r++)
    {
      examples->rows[r] = self->order[first + r];
      for (guint a = 0; a < d; a++)
        examples->reconstructions[(gsize) r * d + a] = xhat[(gsize) r * d + a] / self->scale[a] + self->offset[a];
    }
}

static double *
dup_doubles (GArray *array)
{
  return g_memdup2 (array->data, sizeof (double) * MAX (array->len, 1u));
}

static LatentSnapshot *
wta_snapshot (gpointer data)
{
  LatentWta *self = data;
  LatentSnapshot *snap = latent_snapshot_new (self->algorithm, self->dataset, self->params);
  const gsize hd = (gsize) self->h * self->d;
  const guint *wins = self->last_wins ? self->last_wins : self->wins;
  g_autoptr(GError) local_error = NULL;

  if (self->wcl && !latent_wta_cl_read (self->wcl, FALSE, &local_error))
    fall_back (self, local_error);
  snap->seed = self->seed;
  snap->iteration = self->iteration;
  /* Training has no convergence test: it stops at its epoch budget. */
  snap->converged = FALSE;
  snap->final = self->finished;
  snap->objective = self->loss;
  snap->n_rows = self->n;
  snap->n_cols = self->d;
  snap->autoencoder.n_units = self->h;
  snap->autoencoder.encoder_weights = g_memdup2 (self->p.w, sizeof (float) * hd);
  snap->autoencoder.hidden_bias = g_memdup2 (self->p.b, sizeof (float) * self->h);
  snap->autoencoder.decoder_weights = self->tied ? NULL : g_memdup2 (self->p.wd, sizeof (float) * hd);
  snap->autoencoder.decoder_bias = g_memdup2 (self->p.c, sizeof (float) * self->d);
  snap->autoencoder.input_offset = g_memdup2 (self->offset, sizeof (float) * self->d);
  snap->autoencoder.input_scale = g_memdup2 (self->scale, sizeof (float) * self->d);
  snap->autoencoder.unit_wins = g_memdup2 (wins, sizeof (guint) * self->h);
  for (guint j = 0; self->last_wins && j < self->h; j++)
    snap->autoencoder.n_dead += self->last_wins[j] == 0;
  snap->autoencoder.epochs.n_epochs = self->epoch;
  snap->autoencoder.epochs.train_loss = dup_doubles (self->epoch_train);
  snap->autoencoder.epochs.held_out_loss = dup_doubles (self->epoch_val);
  snap->autoencoder.epoch_dead_fraction = dup_doubles (self->epoch_dead);
  snap->autoencoder.epochs.steps_per_epoch = self->steps_per_epoch;
  snap->autoencoder.epochs.n_steps = self->step_loss->len;
  snap->autoencoder.epochs.step_loss = g_memdup2 (self->step_loss->data, sizeof (float) * MAX (self->step_loss->len, 1u));
  snap->autoencoder.validation_loss = self->val_loss;
  fill_examples (self, snap);
  snap->device = g_strdup (self->device);
  snap->message = g_strdup (self->fallback);
  return snap;
}

/* Enough to encode rows and to start another run from (init=@FILE). */
static void
wta_write_json (LatentSnapshot *snap,
                JsonBuilder    *b)
{
  const LatentAutoencoderPart *part = &snap->autoencoder;
  const guint h = part->n_units, d = snap->n_cols;

  latent_json_add_number_member (b, "hidden", h);
  latent_json_add_matrix_member (b, "weights", part->encoder_weights, h, d);
  latent_json_add_float_vector_member (b, "hidden_bias", part->hidden_bias, h);
  if (part->decoder_weights)
    latent_json_add_matrix_member (b, "decoder_weights", part->decoder_weights, h, d);
  latent_json_add_float_vector_member (b, "decoder_bias", part->decoder_bias, d);
  latent_json_add_float_vector_member (b, "input_offset", part->input_offset, d);
  latent_json_add_float_vector_member (b, "input_scale", part->input_scale, d);
  latent_json_add_number_member (b, "epochs_done", part->epochs.n_epochs);
  latent_json_add_vector_member (b, "train_loss", part->epochs.train_loss, part->epochs.n_epochs);
  latent_json_add_vector_member (b, "validation_loss", part->epochs.held_out_loss, part->epochs.n_epochs);
  latent_json_add_vector_member (b, "dead_fraction", part->epoch_dead_fraction, part->epochs.n_epochs);
  latent_json_add_number_member (b, "dead_units", part->n_dead);
  latent_json_add_uint_vector_member (b, "unit_wins", part->unit_wins, h);
  latent_json_add_number_member (b, "validation_error", part->validation_loss);
}

LatentDataset *
latent_wta_encode (LatentSnapshot  *snapshot,
                   LatentDataset   *dataset,
                   GError         **error)
{
  const guint n = latent_dataset_get_n_rows (dataset), d = latent_dataset_get_n_cols (dataset);
  const guint h = snapshot->autoencoder.n_units;
  /* Rows in blocks, so the scaled copy stays small. */
  const guint block = 1024;
  g_autoptr(LatentDataset) out = NULL;
  g_autofree char *name = NULL;
  g_autofree float *x = NULL;
  float *code;

  g_return_val_if_fail (snapshot->algorithm == &wta_algorithm && snapshot->autoencoder.encoder_weights != NULL, NULL);

  if (d != snapshot->n_cols)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("The model encodes rows of %u columns; “%s” has %u"), snapshot->n_cols,
                   latent_dataset_get_name (dataset), d);
      return NULL;
    }
  name = g_strdup_printf ("%s → wta %u", latent_dataset_get_name (dataset), h);
  if (!(out = latent_dataset_new (name, n, h, error)))
    return NULL;
  code = latent_dataset_get_data (out);
  x = g_new (float, (gsize) MIN (block, n) * d);
  for (guint first = 0; first < n; first += block)
    {
      const guint rows = MIN (block, n - first);
      const float *src = latent_dataset_get_row (dataset, first);

      for (gsize i = 0; i < (gsize) rows * d; i++)
        x[i] = (src[i] - snapshot->autoencoder.input_offset[i % d]) * snapshot->autoencoder.input_scale[i % d];
      cblas_sgemm (CblasRowMajor, CblasNoTrans, CblasTrans, rows, h, d, 1.0f, x, d,
                   snapshot->autoencoder.encoder_weights, d, 0.0f, code + (gsize) first * h, h);
    }
  for (gsize r = 0; r < n; r++)
    for (guint j = 0; j < h; j++)
      code[r * h + j] = MAX (0.0f, code[r * h + j] + snapshot->autoencoder.hidden_bias[j]);
  latent_dataset_copy_labels (out, dataset);
  return g_steal_pointer (&out);
}

/* The encoder of a result written by wta_write_json. */
static gboolean
wta_read_model (LatentSnapshot  *snap,
                JsonObject      *result,
                const char      *path,
                GError         **error)
{
  const guint d = latent_json_array_length (result, "input_offset");
  const guint h = latent_json_array_length (result, "weights");

  if (d == 0 || h == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: a wta result holds “weights” and “input_offset”"), path);
      return FALSE;
    }
  if (h > 65536 || (guint64) h * d > LATENT_MODEL_MAX_WEIGHTS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: %u units of %u weights, more than an autoencoder trains (65,536 units, %llu weights)"),
                   path, h, d, (unsigned long long) LATENT_MODEL_MAX_WEIGHTS);
      return FALSE;
    }
  snap->n_cols = d;
  snap->autoencoder.n_units = h;
  return (snap->autoencoder.encoder_weights = latent_json_read_floats (result, "weights", (gsize) h * d, path, error)) &&
         (snap->autoencoder.hidden_bias = latent_json_read_floats (result, "hidden_bias", h, path, error)) &&
         (snap->autoencoder.input_offset = latent_json_read_floats (result, "input_offset", d, path, error)) &&
         (snap->autoencoder.input_scale = latent_json_read_floats (result, "input_scale", d, path, error));
}

static const char * const wta_figures[] = { "weights", "winners", "reconstructions", "curves", NULL };

/* Arithmetic both paths share: latent-wta-reference.c and latent-wta-cl.c. */

guint
latent_wta_batch_winners (LatentWta *self,
                          guint      rows)
{
  switch (self->sparsity)
    {
    case LATENT_WTA_LIFETIME:
      /* A short last batch keeps the same share. */
      return rows == self->batch ? self->winners
                                 : CLAMP ((guint) round ((double) self->winners * rows / self->batch), 1, rows);
    case LATENT_WTA_K_SPARSE:
      return self->winners;
    case LATENT_WTA_NONE:
    default:
      return self->h;
    }
}

void
latent_wta_adam_factors (LatentWta *self,
                         float     *lr,
                         float     *eps)
{
  const double c1 = 1 - pow (LATENT_WTA_BETA1, self->adam_t);
  const double c2 = 1 - pow (LATENT_WTA_BETA2, self->adam_t);

  /* lr · m̂ / (√v̂ + ε) = lr √c2 / c1 · m / (√v + ε √c2) */
  *lr = self->learning_rate * sqrt (c2) / c1;
  *eps = LATENT_WTA_EPSILON * sqrt (c2);
}

static const LatentAlgorithm wta_algorithm = {
  .id = "wta",
  .title = N_("Winner-take-all autoencoder"),
  .short_title = N_("WTA"),
  .objective_name = N_("mini-batch loss (½‖x̂ − x‖² per row)"),  /* the epoch's is a metric */
  .pace = 2,
  .pace_unit = N_("epochs/s"),
  .family = LATENT_FAMILY_AUTOENCODER,
  .flags = LATENT_ALGORITHM_ENCODER,
  .figures = wta_figures,
  /* Translators: a hidden unit of an autoencoder, short; %u counts from 1. */
  .component_name = N_("Unit %u"),
  .params = wta_params,
  .n_params = G_N_ELEMENTS (wta_params),
  .check = wta_check,
  .max_int = wta_max_int,
  .init = wta_init,
  .step = wta_step,
  .snapshot = wta_snapshot,
  .objective = wta_objective,
  .converged = wta_converged,
  .free = wta_free,
  .pace_steps = wta_pace_steps,
  .write_json = wta_write_json,
  .tune_job = &latent_wta_cl_tune_job,
  .encode = latent_wta_encode,
  .read_model = wta_read_model,
};

const LatentAlgorithm *
latent_wta_get_algorithm (void)
{
  return &wta_algorithm;
}
