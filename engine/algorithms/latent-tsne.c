/* latent-tsne.c — t-SNE: parameters, the start (principal components, the
 * nearest neighbours, the affinities), steps, snapshots and results
 *
 * What is computed is latent-tsne-private.h's; the two paths are
 * latent-tsne-reference.c and latent-tsne-cl.c, the FFT repulsion both use
 * for more than a few thousand points latent-tsne-fft.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-tsne"

#include "latent-tsne.h"
#include "latent-tsne-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-embedding-input.h"
#include "latent-json.h"
#include "latent-knn.h"

#define CPU_REFERENCE N_("CPU reference")
/* Up to this many points the repulsion is summed over every pair: on two
 * CPU cores (OpenCL) 2,000 points take about as long either way. */
#define EXACT_MAX_ROWS 2000

static const char * const init_choices[] = { "pca", "random", NULL };
static const char * const init_labels[] = { N_("Principal components"), N_("Random"), NULL };
static const char * const repulsion_choices[] = { "auto", "exact", "fft", NULL };
static const char * const repulsion_labels[] = { N_("Automatic"), N_("Exact"), N_("FFT-interpolated"), NULL };

typedef struct {
  double      perplexity;
  gint64      iterations;
  double      exaggeration;
  gint64      exaggeration_iterations;
  double      learning_rate;
  gint64      pca;
  const char *init;
  const char *repulsion;
} TsneParams;

/* openTSNE's defaults (docs/EMBEDDINGS-RESEARCH.md), and 50 principal
 * components first, as FIt-SNE's and openTSNE's examples do: on 784
 * pixels the neighbours are then found ten times as fast. */
static const LatentParamSpec tsne_params[] = {
  { .name = "perplexity", LATENT_PARAM_DOUBLE_AT (TsneParams, perplexity),
    .label = N_("Perplexity"),
    .tooltip = N_("About how many neighbours each row keeps close: each row's 3 × perplexity nearest "
                  "rows are weighed"),
    .min = 2, .max = 100, .default_value = 30 },
  { .name = "iterations", LATENT_PARAM_INT_AT (TsneParams, iterations),
    .label = N_("Iterations"),
    .tooltip = N_("Steps of gradient descent in all, the exaggerated ones included"),
    .min = 1, .max = 100000, .default_value = 750,
    .role = LATENT_PARAM_ROLE_BUDGET, .unit = LATENT_PARAM_UNIT_ITERATIONS },
  { .name = "exaggeration", LATENT_PARAM_DOUBLE_AT (TsneParams, exaggeration),
    .label = N_("Early exaggeration"),
    .tooltip = N_("How much the attraction is multiplied at first, so clusters form before they spread"),
    .min = 1, .max = 100, .default_value = 12 },
  { .name = "exaggeration-iterations", LATENT_PARAM_INT_AT (TsneParams, exaggeration_iterations),
    .label = N_("Exaggerated iterations"),
    .tooltip = N_("How many of the first iterations are exaggerated"),
    .min = 0, .max = 100000, .default_value = 250 },
  { .name = "learning-rate", LATENT_PARAM_DOUBLE_AT (TsneParams, learning_rate),
    .label = N_("Learning rate"),
    .tooltip = N_("The step size; 0 chooses the number of rows over the exaggeration (openTSNE's)"),
    .min = 0, .max = 1e8, .default_value = 0,
    .zero_label = N_("Automatic") },
  { .name = "pca", LATENT_PARAM_INT_AT (TsneParams, pca),
    .label = N_("Principal components first"),
    .tooltip = N_("The neighbours are found among this many principal components of the rows, when the rows "
                  "have more columns; 0 uses the columns themselves"),
    .min = 0, .max = 1000, .default_value = 50,
    .zero_label = N_("None") },
  { .name = "init", LATENT_PARAM_CHOICE_AT (TsneParams, init),
    .label = N_("Start"),
    .tooltip = N_("Principal components: the first two, scaled small, so the global layout is kept. "
                  "Random: tiny random positions"),
    .default_choice = "pca",
    .choices = init_choices,
    .choice_labels = init_labels },
  { .name = "repulsion", LATENT_PARAM_CHOICE_AT (TsneParams, repulsion),
    .label = N_("Repulsion"),
    .tooltip = N_("Exact: over every pair of points. FFT-interpolated: on a grid, in time linear in the "
                  "points. Automatic: exact up to 2,000 points"),
    .default_choice = "auto",
    .choices = repulsion_choices,
    .choice_labels = repulsion_labels },
};

static const LatentAlgorithm tsne_algorithm;

static guint
neighbours_for (double perplexity,
                guint  n)
{
  return MIN ((guint) (3 * perplexity), n - 1);
}

static gboolean
tsne_check (LatentDataset  *dataset,
            LatentParams   *params,
            GError        **error)
{
  const guint n = latent_dataset_get_n_rows (dataset);
  TsneParams p;

  latent_params_read (params, &p);
  if (n < 4 || p.perplexity >= n - 1)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("perplexity %g needs more than %g rows; the data has %u"), p.perplexity,
                   MAX (p.perplexity + 1, 3.0), n);
      return FALSE;
    }
  /* The neighbours' lists twice over, P, and the rows' product blocks. */
  return latent_algorithm_check_memory ((double) n * neighbours_for (p.perplexity, n) * 4 * 12
                                        + (double) n * MIN ((gint64) latent_dataset_get_n_cols (dataset), 1000) * 8,
                                        _("t-SNE"), error);
}

static void
tsne_free (gpointer data)
{
  LatentTsne *self = data;

  if (self == NULL)
    return;
  g_clear_pointer (&self->tcl, latent_tsne_cl_free);
  g_clear_pointer (&self->fft, latent_tsne_fft_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  latent_tsne_affinities_clear (&self->aff);
  g_free (self->x);
  g_free (self->y);
  g_free (self->gains);
  g_free (self->update);
  g_free (self->rep);
  g_free (self->device);
  g_free (self->fallback);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentTsne, tsne_free)

double
latent_tsne_exaggeration_at (LatentTsne *self,
                             guint       iteration)
{
  return iteration < self->exaggeration_iterations ? self->exaggeration : 1.0;
}

double
latent_tsne_learning_rate_at (LatentTsne *self,
                              guint       iteration)
{
  return self->learning_rate > 0 ? self->learning_rate : self->n / latent_tsne_exaggeration_at (self, iteration);
}

/* The darktable policy: the run goes on from the last embedding read on
 * the reference path; the optimiser's gains and momentum start afresh. */
static void
fall_back (LatentTsne   *self,
           const GError *error)
{
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, self->algorithm->id, error);
  g_clear_pointer (&self->tcl, latent_tsne_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (_(CPU_REFERENCE));
  for (gsize i = 0; self->gains != NULL && i < 2 * (gsize) self->n; i++)
    {
      self->gains[i] = 1;
      self->update[i] = 0;
    }
}

/* FALSE for a cancel (in @error); any other failure moves to the reference. */
static gboolean
survive (LatentTsne  *self,
         GError     **local_error,
         GError     **error)
{
  if (g_error_matches (*local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (local_error));
      return FALSE;
    }
  fall_back (self, *local_error);
  g_clear_error (local_error);
  return TRUE;
}

static gboolean
start_embedding (LatentTsne    *self,
                 const char    *init,
                 LatentCl      *cl,
                 GCancellable  *cancellable,
                 GError       **error)
{
  const guint n = self->n, cols = latent_dataset_get_n_cols (self->dataset);
  g_autofree float *pcs = NULL;
  double mean = 0, var = 0, scale;

  self->y = g_new (double, 2 * (gsize) n);
  if (g_str_equal (init, "random") || cols < 2)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) (self->seed ^ (self->seed >> 32)));

      for (gsize i = 0; i < 2 * (gsize) n; i++)
        {
          /* Box–Muller: N(0, 1e-4²), openTSNE's random start. */
          double u = 1 - g_rand_double (rand), v = g_rand_double (rand);
          self->y[i] = 1e-4 * sqrt (-2 * log (u)) * cos (2 * G_PI * v);
        }
      return TRUE;
    }
  if (!(pcs = latent_embedding_first_two (self->dataset, self->x, self->d, self->reduced, self->seed, cl,
                                          cancellable, error)))
    return FALSE;
  /* openTSNE's: both columns over the first's standard deviation, × 1e-4. */
  for (guint i = 0; i < n; i++)
    mean += pcs[2 * (gsize) i];
  mean /= n;
  for (guint i = 0; i < n; i++)
    var += (pcs[2 * (gsize) i] - mean) * (pcs[2 * (gsize) i] - mean);
  scale = var > 0 ? 1e-4 / sqrt (var / n) : 1;
  for (gsize i = 0; i < 2 * (gsize) n; i++)
    self->y[i] = pcs[i] * scale;
  return TRUE;
}

/* Each row's neighbours and their Gaussian, on the device or the reference. */
static gboolean
neighbours (LatentTsne    *self,
            gint32        *index,
            float         *dist2,
            float         *p_cond,
            GCancellable  *cancellable,
            GError       **error)
{
  const guint n = self->n, k = self->k;

  if (self->runtime)
    return latent_knn_cl (self->runtime, self->x, n, self->d, k, index, dist2, cancellable, error) &&
           latent_tsne_cl_calibrate (self->runtime, dist2, n, k, self->perplexity, p_cond, cancellable, error);
  if (!latent_knn_reference (self->x, n, self->d, k, index, dist2, cancellable, error))
    return FALSE;
  latent_tsne_reference_calibrate (dist2, n, k, self->perplexity, p_cond);
  return TRUE;
}

static gboolean
affinities (LatentTsne    *self,
            GCancellable  *cancellable,
            GError       **error)
{
  const guint n = self->n, k = self->k;
  g_autofree gint32 *index = latent_algorithm_alloc ((guint64) n * k, sizeof (gint32), _("the neighbours"), error);
  g_autofree float *dist2 = latent_algorithm_alloc ((guint64) n * k, sizeof (float), _("the neighbours"), error);
  g_autofree float *p_cond = latent_algorithm_alloc ((guint64) n * k, sizeof (float), _("the affinities"), error);
  g_autoptr(GError) local_error = NULL;
  gint64 start = g_get_monotonic_time ();

  if (!index || !dist2 || !p_cond)
    return FALSE;
  if (!neighbours (self, index, dist2, p_cond, cancellable, &local_error))
    {
      /* On the device's failure, again on the reference path. */
      if (self->runtime == NULL || !survive (self, &local_error, error) ||
          !neighbours (self, index, dist2, p_cond, cancellable, error))
        {
          if (local_error)
            g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }
  g_debug ("%u neighbours of %u rows and their Gaussians: %.0f ms", k, n, (g_get_monotonic_time () - start) / 1e3);
  return latent_tsne_symmetrise (index, p_cond, n, k, &self->aff, error);
}

static gpointer
tsne_init (LatentDataset  *dataset,
           LatentParams   *params,
           guint64         seed,
           LatentCl       *cl,
           GCancellable   *cancellable,
           GError        **error)
{
  g_autoptr(LatentTsne) self = g_new0 (LatentTsne, 1);
  g_autoptr(GError) local_error = NULL;
  gint64 start;
  TsneParams p;

  if (!tsne_check (dataset, params, error))
    return NULL;
  latent_params_read (params, &p);
  self->algorithm = &tsne_algorithm;
  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  self->n = latent_dataset_get_n_rows (dataset);
  self->perplexity = p.perplexity;
  self->k = neighbours_for (p.perplexity, self->n);
  self->iterations = p.iterations;
  self->exaggeration = p.exaggeration;
  self->exaggeration_iterations = p.exaggeration_iterations;
  self->learning_rate = p.learning_rate;
  self->use_fft = g_str_equal (p.repulsion, "fft") || (g_str_equal (p.repulsion, "auto") && self->n > EXACT_MAX_ROWS);
  self->kl = NAN;
  self->z = NAN;
  self->trustworthiness = NAN;
  self->runtime = cl ? g_object_ref (cl) : NULL;
  self->device = cl ? latent_cl_describe (cl) : g_strdup (_(CPU_REFERENCE));

  start = g_get_monotonic_time ();
  if (!(self->x = latent_embedding_input (dataset, p.pca, seed, self->runtime, &self->d, &self->reduced, cancellable,
                                          error)))
    return NULL;
  g_debug ("%u columns%s: %.0f ms", self->d, self->reduced ? ", principal components" : "", (g_get_monotonic_time () - start) / 1e3);
  if (!affinities (self, cancellable, error))
    return NULL;
  if (!start_embedding (self, p.init, self->runtime, cancellable, error))
    return NULL;
  self->gains = g_new (double, 2 * (gsize) self->n);
  self->update = g_new0 (double, 2 * (gsize) self->n);
  self->rep = g_new0 (double, 2 * (gsize) self->n);
  for (gsize i = 0; i < 2 * (gsize) self->n; i++)
    self->gains[i] = 1;
  if (self->use_fft)
    self->fft = latent_tsne_fft_new ();
  if (self->runtime && !(self->tcl = latent_tsne_cl_new (self, self->runtime, &local_error)) &&
      !survive (self, &local_error, error))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
tsne_step (gpointer       data,
           GCancellable  *cancellable,
           GError       **error)
{
  LatentTsne *self = data;
  g_autoptr(GError) local_error = NULL;

  if (self->tcl && !latent_tsne_cl_step (self->tcl, self, cancellable, &local_error))
    {
      if (!survive (self, &local_error, error))
        return FALSE;
    }
  else if (self->tcl == NULL && !latent_tsne_reference_step (self, error))
    return FALSE;
  self->iteration++;
  if (self->iteration >= self->iterations)
    {
      if (self->tcl && !latent_tsne_cl_read (self->tcl, self, &local_error) && !survive (self, &local_error, error))
        return FALSE;
      self->trustworthiness = latent_embedding_trustworthiness (self->x, self->n, self->d, self->y,
                                                                &self->trust_rows);
    }
  return TRUE;
}

static double
tsne_objective (gpointer data)
{
  return ((LatentTsne *) data)->kl;
}

static gboolean
tsne_converged (gpointer data)
{
  LatentTsne *self = data;

  return self->iteration >= self->iterations;
}

static LatentSnapshot *
tsne_snapshot (gpointer data)
{
  LatentTsne *self = data;
  LatentSnapshot *snap = latent_snapshot_new (&tsne_algorithm, self->dataset, self->params);
  LatentEmbeddingPart *part = &snap->embedding;
  g_autoptr(GError) local_error = NULL;
  const guint n = self->n;

  if (self->tcl && !latent_tsne_cl_read (self->tcl, self, &local_error))
    fall_back (self, local_error);
  snap->seed = self->seed;
  snap->device = g_strdup (self->device);
  snap->iteration = self->iteration;
  snap->converged = tsne_converged (self);
  snap->final = snap->converged;
  snap->objective = self->kl;
  snap->n_rows = n;
  snap->n_cols = latent_dataset_get_n_cols (self->dataset);
  latent_embedding_fill_part (snap, self->y, self->trustworthiness, self->trust_rows, self->d);
  part->kl_divergence = self->kl;
  part->exaggeration = latent_tsne_exaggeration_at (self, self->iteration);
  if (self->fallback)
    snap->message = g_strdup (self->fallback);
  return snap;
}

static void
tsne_write_json (LatentSnapshot *snap,
                 JsonBuilder    *b)
{
  const LatentEmbeddingPart *part = &snap->embedding;

  latent_json_add_number_member (b, "kl_divergence", part->kl_divergence);
  latent_embedding_write_json (snap, b);
}

static void
tsne_write_csv_header (LatentSnapshot *snap,
                       GString        *out)
{
  g_string_append (out, ",tsne1,tsne2");
}

static const char * const tsne_figures[] = { "scatter", NULL };

static const LatentAlgorithm tsne_algorithm = {
  .id = "tsne",
  .title = N_("t-SNE"),
  .short_title = N_("t-SNE"),
  .objective_name = N_("KL divergence"),
  .pace = 0,
  .family = LATENT_FAMILY_EMBEDDING,
  .flags = LATENT_ALGORITHM_ENCODER,
  .figures = tsne_figures,
  .params = tsne_params,
  .n_params = G_N_ELEMENTS (tsne_params),
  .check = tsne_check,
  .max_int = latent_algorithm_no_max_int,
  .init = tsne_init,
  .step = tsne_step,
  .snapshot = tsne_snapshot,
  .objective = tsne_objective,
  .converged = tsne_converged,
  .free = tsne_free,
  .write_json = tsne_write_json,
  .write_csv_header = tsne_write_csv_header,
  .write_csv_row = latent_embedding_write_csv_row,
  .encode = latent_embedding_encode,
};

const LatentAlgorithm *
latent_tsne_get_algorithm (void)
{
  return &tsne_algorithm;
}
