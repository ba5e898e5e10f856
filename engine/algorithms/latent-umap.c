/* latent-umap.c — UMAP: parameters, the start (principal components, the
 * nearest neighbours, the fuzzy graph), epochs, snapshots and results
 *
 * What is computed is latent-umap-private.h's; the two paths are
 * latent-umap-reference.c and latent-umap-cl.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-umap"

#include "latent-umap.h"
#include "latent-umap-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-embedding-input.h"
#include "latent-json.h"
#include "latent-knn.h"

#define CPU_REFERENCE N_("CPU reference")

static const char * const init_choices[] = { "pca", "random", NULL };
static const char * const init_labels[] = { N_("Principal components"), N_("Random"), NULL };

typedef struct {
  gint64      neighbours;
  double      min_dist;
  double      spread;
  gint64      epochs;
  double      learning_rate;
  double      repulsion;
  gint64      negative;
  gint64      pca;
  const char *init;
} UmapParams;

/* umap-learn's defaults, but for the start (its spectral layout needs an
 * eigensolver of the sparse graph: the principal components instead, as
 * its init="pca") and the epochs (it takes 500 up to 10,000 rows). */
static const LatentParamSpec umap_params[] = {
  { .name = "neighbours", LATENT_PARAM_INT_AT (UmapParams, neighbours),
    .label = N_("Neighbours"),
    .tooltip = N_("How many nearest rows, the row itself included, shape each row's neighbourhood: fewer keep "
                  "local detail, more the global layout"),
    .min = 2, .max = 200, .default_value = 15 },
  { .name = "min-dist", LATENT_PARAM_DOUBLE_AT (UmapParams, min_dist),
    .label = N_("Minimum distance"),
    .tooltip = N_("How close points may pack in the embedding"),
    .min = 0, .max = 10, .default_value = 0.1 },
  { .name = "spread", LATENT_PARAM_DOUBLE_AT (UmapParams, spread),
    .label = N_("Spread"),
    .tooltip = N_("The scale of the embedding, with the minimum distance"),
    .min = 0.01, .max = 10, .default_value = 1 },
  { .name = "epochs", LATENT_PARAM_INT_AT (UmapParams, epochs),
    .label = N_("Epochs"),
    .tooltip = N_("Passes of stochastic gradient descent over the graph's edges"),
    .min = 1, .max = 100000, .default_value = 200,
    .role = LATENT_PARAM_ROLE_BUDGET, .unit = LATENT_PARAM_UNIT_EPOCHS },
  { .name = "learning-rate", LATENT_PARAM_DOUBLE_AT (UmapParams, learning_rate),
    .label = N_("Learning rate"),
    .tooltip = N_("The first epoch's step size; it falls to 0 by the last"),
    .min = 1e-6, .max = 100, .default_value = 1 },
  { .name = "repulsion", LATENT_PARAM_DOUBLE_AT (UmapParams, repulsion),
    .label = N_("Repulsion strength"),
    .tooltip = N_("The weight of the push from random rows against the pull of the edges"),
    .min = 0, .max = 100, .default_value = 1 },
  { .name = "negative-samples", LATENT_PARAM_INT_AT (UmapParams, negative),
    .label = N_("Negative samples"),
    .tooltip = N_("Random rows each edge's head is pushed from, each time the edge is sampled"),
    .min = 0, .max = 100, .default_value = 5 },
  { .name = "pca", LATENT_PARAM_INT_AT (UmapParams, pca),
    .label = N_("Principal components first"),
    .tooltip = N_("The neighbours are found among this many principal components of the rows, when the rows "
                  "have more columns; 0 uses the columns themselves"),
    .min = 0, .max = 1000, .default_value = 50,
    .zero_label = N_("None") },
  { .name = "init", LATENT_PARAM_CHOICE_AT (UmapParams, init),
    .label = N_("Start"),
    .tooltip = N_("Principal components: the first two, scaled to 0–10. Random: uniform in −10 to 10"),
    .default_choice = "pca",
    .choices = init_choices,
    .choice_labels = init_labels },
};

static const LatentAlgorithm umap_algorithm;

static gboolean
umap_check (LatentDataset  *dataset,
            LatentParams   *params,
            GError        **error)
{
  const guint n = latent_dataset_get_n_rows (dataset);
  UmapParams p;

  latent_params_read (params, &p);
  if (p.neighbours > n)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("neighbours %u needs at least %u rows; the data has %u"), (guint) p.neighbours,
                   (guint) p.neighbours, n);
      return FALSE;
    }
  return latent_algorithm_check_memory ((double) n * p.neighbours * 4 * 24
                                        + (double) n * MIN ((gint64) latent_dataset_get_n_cols (dataset), 1000) * 8,
                                        _("UMAP"), error);
}

static gint64
umap_max_int (LatentDataset         *dataset,
              LatentParams          *params,
              const LatentParamSpec *spec)
{
  return g_str_equal (spec->name, "neighbours") ? latent_dataset_get_n_rows (dataset) : G_MAXINT64;
}

static void
umap_free (gpointer data)
{
  LatentUmap *self = data;

  if (self == NULL)
    return;
  g_clear_pointer (&self->ucl, latent_umap_cl_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  latent_umap_graph_clear (&self->graph);
  g_free (self->x);
  g_free (self->y);
  g_free (self->y_next);
  g_free (self->device);
  g_free (self->fallback);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentUmap, umap_free)

/* The darktable policy: on from the embedding last read, on the reference. */
static void
fall_back (LatentUmap   *self,
           const GError *error)
{
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, self->algorithm->id, error);
  g_clear_pointer (&self->ucl, latent_umap_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (_(CPU_REFERENCE));
}

static gboolean
survive (LatentUmap  *self,
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
graph (LatentUmap    *self,
       GCancellable  *cancellable,
       GError       **error)
{
  const guint n = self->n, m = self->k - 1;
  g_autofree gint32 *index = latent_algorithm_alloc ((guint64) n * m, sizeof (gint32), _("the neighbours"), error);
  g_autofree float *dist2 = latent_algorithm_alloc ((guint64) n * m, sizeof (float), _("the neighbours"), error);
  g_autoptr(GError) local_error = NULL;

  if (!index || !dist2)
    return FALSE;
  if (self->runtime && !latent_knn_cl (self->runtime, self->x, n, self->d, m, index, dist2, cancellable, &local_error)
      && !survive (self, &local_error, error))
    return FALSE;
  if (self->runtime == NULL && !latent_knn_reference (self->x, n, self->d, m, index, dist2, cancellable, error))
    return FALSE;
  return latent_umap_graph (index, dist2, n, self->k, self->epochs, self->negative_rate, &self->graph, error);
}

static gboolean
start_embedding (LatentUmap    *self,
                 const char    *init,
                 GCancellable  *cancellable,
                 GError       **error)
{
  const guint n = self->n;
  g_autofree float *pcs = NULL;

  self->y = g_new (double, 2 * (gsize) n);
  self->y_next = g_new (double, 2 * (gsize) n);
  if (g_str_equal (init, "random") || self->d < 2)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) (self->seed ^ (self->seed >> 32)));

      for (gsize i = 0; i < 2 * (gsize) n; i++)
        self->y[i] = g_rand_double_range (rand, -10, 10);
      return TRUE;
    }
  if (!(pcs = latent_embedding_first_two (self->dataset, self->x, self->d, self->reduced, self->seed, self->runtime,
                                          cancellable, error)))
    return FALSE;
  /* umap-learn scales every start to 0–10 in each column. */
  for (guint c = 0; c < 2; c++)
    {
      double lo = INFINITY, hi = -INFINITY;

      for (guint i = 0; i < n; i++)
        {
          lo = MIN (lo, pcs[2 * (gsize) i + c]);
          hi = MAX (hi, pcs[2 * (gsize) i + c]);
        }
      for (guint i = 0; i < n; i++)
        self->y[2 * (gsize) i + c] = hi > lo ? 10 * (pcs[2 * (gsize) i + c] - lo) / (hi - lo) : 0;
    }
  return TRUE;
}

static gpointer
umap_init (LatentDataset  *dataset,
           LatentParams   *params,
           guint64         seed,
           LatentCl       *cl,
           GCancellable   *cancellable,
           GError        **error)
{
  g_autoptr(LatentUmap) self = g_new0 (LatentUmap, 1);
  g_autoptr(GError) local_error = NULL;
  UmapParams p;

  if (!umap_check (dataset, params, error))
    return NULL;
  latent_params_read (params, &p);
  self->algorithm = &umap_algorithm;
  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  self->hash_seed = (guint32) (seed ^ (seed >> 32));
  self->n = latent_dataset_get_n_rows (dataset);
  self->k = p.neighbours;
  self->epochs = p.epochs;
  self->learning_rate = p.learning_rate;
  self->repulsion = p.repulsion;
  self->negative_rate = MAX (p.negative, 1);
  self->cross_entropy = NAN;
  self->trustworthiness = NAN;
  latent_umap_fit_ab (p.spread, p.min_dist, &self->a, &self->b);
  if (p.negative == 0)
    self->repulsion = 0;
  self->runtime = cl ? g_object_ref (cl) : NULL;
  self->device = cl ? latent_cl_describe (cl) : g_strdup (_(CPU_REFERENCE));
  if (!(self->x = latent_embedding_input (dataset, p.pca, seed, self->runtime, &self->d, &self->reduced, cancellable,
                                          error)) ||
      !graph (self, cancellable, error) ||
      !start_embedding (self, p.init, cancellable, error))
    return NULL;
  if (self->runtime && !(self->ucl = latent_umap_cl_new (self, self->runtime, &local_error)) &&
      !survive (self, &local_error, error))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
umap_step (gpointer       data,
           GCancellable  *cancellable,
           GError       **error)
{
  LatentUmap *self = data;
  g_autoptr(GError) local_error = NULL;

  if (self->ucl && !latent_umap_cl_epoch (self->ucl, self, cancellable, &local_error))
    {
      if (!survive (self, &local_error, error))
        return FALSE;
    }
  else if (self->ucl == NULL)
    latent_umap_reference_epoch (self);
  self->epoch++;
  if (self->epoch >= self->epochs)
    {
      if (self->ucl && !latent_umap_cl_read (self->ucl, self, &local_error) && !survive (self, &local_error, error))
        return FALSE;
      self->trustworthiness = latent_embedding_trustworthiness (self->x, self->n, self->d, self->y,
                                                                &self->trust_rows);
    }
  return TRUE;
}

static double
umap_objective (gpointer data)
{
  return ((LatentUmap *) data)->cross_entropy;
}

static gboolean
umap_converged (gpointer data)
{
  LatentUmap *self = data;

  return self->epoch >= self->epochs;
}

static LatentSnapshot *
umap_snapshot (gpointer data)
{
  LatentUmap *self = data;
  LatentSnapshot *snap = latent_snapshot_new (&umap_algorithm, self->dataset, self->params);
  LatentEmbeddingPart *part = &snap->embedding;
  g_autoptr(GError) local_error = NULL;
  const guint n = self->n;

  if (self->ucl && !latent_umap_cl_read (self->ucl, self, &local_error))
    fall_back (self, local_error);
  snap->seed = self->seed;
  snap->device = g_strdup (self->device);
  snap->iteration = self->epoch;
  snap->converged = umap_converged (self);
  snap->final = snap->converged;
  snap->objective = self->cross_entropy;
  snap->n_rows = n;
  snap->n_cols = latent_dataset_get_n_cols (self->dataset);
  latent_embedding_fill_part (snap, self->y, self->trustworthiness, self->trust_rows, self->d);
  part->cross_entropy = self->cross_entropy;
  if (self->fallback)
    snap->message = g_strdup (self->fallback);
  return snap;
}

static void
umap_write_json (LatentSnapshot *snap,
                 JsonBuilder    *b)
{
  const LatentEmbeddingPart *part = &snap->embedding;

  latent_json_add_number_member (b, "cross_entropy", part->cross_entropy);
  latent_embedding_write_json (snap, b);
}

static void
umap_write_csv_header (LatentSnapshot *snap,
                       GString        *out)
{
  g_string_append (out, ",umap1,umap2");
}

static const char * const umap_figures[] = { "scatter", NULL };

static const LatentAlgorithm umap_algorithm = {
  .id = "umap",
  .title = N_("UMAP"),
  .short_title = N_("UMAP"),
  .objective_name = N_("cross-entropy of the graph's edges"),
  .pace = 0,
  .pace_unit = N_("epochs/s"),
  .family = LATENT_FAMILY_EMBEDDING,
  .flags = LATENT_ALGORITHM_ENCODER,
  .figures = umap_figures,
  .params = umap_params,
  .n_params = G_N_ELEMENTS (umap_params),
  .check = umap_check,
  .max_int = umap_max_int,
  .init = umap_init,
  .step = umap_step,
  .snapshot = umap_snapshot,
  .objective = umap_objective,
  .converged = umap_converged,
  .free = umap_free,
  .write_json = umap_write_json,
  .write_csv_header = umap_write_csv_header,
  .write_csv_row = latent_embedding_write_csv_row,
  .encode = latent_embedding_encode,
};

const LatentAlgorithm *
latent_umap_get_algorithm (void)
{
  return &umap_algorithm;
}
