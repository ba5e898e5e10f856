/* latent-clusters.c — what k-means and the mixtures share: K's bounds,
 * the labels and sizes in a result, one cluster per row in a CSV, and
 * multiple starts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-clusters"

#include "latent-clusters.h"
#include "latent-family.h"
#include "latent-codec.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "latent-json.h"

/* From here on k is bounded by a quarter of the rows. */
#define LARGE_ROWS 1000

gint64
latent_clusters_max_k (guint n_rows)
{
  return n_rows >= LARGE_ROWS ? n_rows / 4 : n_rows;
}

gboolean
latent_clusters_check_k (LatentDataset  *dataset,
                         gint64          k,
                         const char     *what,
                         GError        **error)
{
  guint n = latent_dataset_get_n_rows (dataset);

  if (k < 1 || (guint64) k > n)
    {
      /* Translators: k, what there are k of ("clusters"), the dataset, its rows */
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter k: %lld %s need at least as many rows, but %s has %u"),
                   (long long) k, what, latent_dataset_get_name (dataset), n);
      return FALSE;
    }
  /* Past a cluster for every few rows the result summarises nothing, while
   * the work (n × k distances an iteration, and as many for k-means++)
   * grows with the square of the rows: k = 65,536 on 65,536 rows took
   * minutes for two iterations. Small data may have k up to its rows. */
  if ((guint64) k > (guint64) latent_clusters_max_k (n))
    {
      /* Translators: k, what there are k of ("clusters"), the rows, the dataset, the largest k, the rows again */
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter k: %lld %s for %u rows of %s is a cluster for every few rows; "
                     "at most %u, a quarter of the rows, on data of %u rows or more"),
                   (long long) k, what, n, latent_dataset_get_name (dataset), n / 4, LARGE_ROWS);
      return FALSE;
    }
  return TRUE;
}

void
latent_clusters_write_labels (LatentSnapshot *snap,
                              JsonBuilder    *b)
{
  latent_json_add_int_vector_member (b, "labels", snap->clusters.labels, snap->n_rows);
}

void
latent_clusters_write_sizes (LatentSnapshot *snap,
                             JsonBuilder    *b)
{
  latent_json_add_uint_vector_member (b, "cluster_sizes", snap->clusters.cluster_sizes, snap->clusters.k);
}

void
latent_clusters_write_csv_header (LatentSnapshot *snap,
                                  GString        *out)
{
  g_string_append (out, ",cluster");
}

void
latent_clusters_write_csv_row (LatentSnapshot *snap,
                               guint           row,
                               GString        *out)
{
  g_string_append_printf (out, ",%d", snap->clusters.labels[row]);
}

static gboolean
score_is_better (double   candidate,
                 double   best,
                 gboolean higher_is_better)
{
  if (isnan (candidate))
    return FALSE;
  if (isnan (best))
    return TRUE;
  return higher_is_better ? candidate > best : candidate < best;
}

/* Multiple restarts (the restarts parameter, scikit-learn's n_init). Runs
 * @algorithm to the end from @n_starts starts, start r from seed @seed + r
 * with @params but restarts=1, on @cl where usable; the objective of start
 * r is @score of its final snapshot. Stores the objectives in
 * *@objectives (@n_starts, g_free them) and in *@best the first start
 * whose objective is the best (the lowest, or the highest when
 * @higher_is_better; NaN counts as worst), and returns a note for the
 * snapshot, translated: "Best of 5 starts (inertia 78.85; others
 * 78.94–142.3), from seed 5. ". */
static char *
run_starts (const LatentAlgorithm *algorithm,
            LatentDataset         *dataset,
            LatentParams          *params,
            guint64                seed,
            LatentCl              *cl,
            GCancellable          *cancellable,
            guint                  n_starts,
            LatentStartScore       score,
            gboolean               higher_is_better,
            double               **objectives,
            guint                 *best,
            GError               **error)
{
  g_autoptr(LatentParams) single = latent_params_copy (params);
  g_autofree double *values = g_new (double, n_starts);
  g_autoptr(GString) others = g_string_new (NULL);
  double lowest = INFINITY, highest = -INFINITY;
  guint winner = 0;

  g_return_val_if_fail (n_starts >= 1, NULL);

  if (!latent_params_set_int (single, "restarts", 1, error))
    return NULL;
  for (guint r = 0; r < n_starts; r++)
    {
      g_autoptr(LatentFit) fit = NULL;

      latent_algorithm_init_progress (LATENT_INIT_STARTS, r, n_starts);
      latent_algorithm_hold_init_progress (TRUE);
      fit = latent_algorithm_fit (algorithm, dataset, single, seed + r, cl, NULL, NULL, cancellable, error);
      latent_algorithm_hold_init_progress (FALSE);
      if (fit == NULL)
        return NULL;
      values[r] = score (fit->snapshot);
      if (r > 0 && score_is_better (values[r], values[winner], higher_is_better))
        winner = r;
    }
  for (guint r = 0; r < n_starts; r++)
    if (r != winner && !isnan (values[r]))
      {
        lowest = MIN (lowest, values[r]);
        highest = MAX (highest, values[r]);
      }
  if (lowest > highest)
    g_string_append (others, "NaN");
  else if (lowest == highest)
    g_string_append_printf (others, "%.6g", lowest);
  else
    g_string_append_printf (others, "%.6g–%.6g", lowest, highest);

  *best = winner;
  *objectives = g_steal_pointer (&values);
  /* Translators: the number of starts, the objective's name ("inertia"),
   * the best start's value, the others' values ("78.94–142.3"), and the
   * seed the best start ran from. */
  return g_strdup_printf (_("Best of %u starts (%s %.6g; others %s), from seed %llu. "),
                          n_starts, _(algorithm->objective_name), (*objectives)[winner], others->str,
                          (unsigned long long) (seed + winner));
}

gboolean
latent_clusters_choose_start (const LatentAlgorithm  *algorithm,
                              LatentDataset          *dataset,
                              LatentParams           *params,
                              guint                   restarts,
                              const char             *init,
                              guint64                 seed,
                              LatentCl               *cl,
                              GCancellable           *cancellable,
                              LatentStartScore        score,
                              gboolean                higher_is_better,
                              double                **objectives,
                              guint                  *best,
                              char                  **note,
                              GError                **error)
{
  *objectives = NULL;
  *best = 0;
  *note = NULL;
  if (restarts <= 1)
    return TRUE;
  /* A start from a file is the same every time (as scikit-learn does with
   * explicit centers). */
  if (init[0] == '@')
    {
      *note = g_strdup (_("Every start from a file is the same: ran once. "));
      return TRUE;
    }
  if (!latent_algorithm_check (algorithm, dataset, params, error))
    return FALSE;
  *note = run_starts (algorithm, dataset, params, seed, cl, cancellable, restarts, score, higher_is_better,
                      objectives, best, error);
  return *note != NULL;
}

void
latent_clusters_write_starts (LatentSnapshot *snap,
                              JsonBuilder    *b)
{
  if (snap->clusters.n_starts == 0)
    return;
  json_builder_set_member_name (b, "starts");
  json_builder_add_int_value (b, snap->clusters.n_starts);
  json_builder_set_member_name (b, "start_seeds");
  json_builder_begin_array (b);
  for (guint r = 0; r < snap->clusters.n_starts; r++)
    json_builder_add_int_value (b, (gint64) (snap->seed + r));
  json_builder_end_array (b);
  latent_json_add_vector_member (b, "start_objectives", snap->clusters.start_objectives, snap->clusters.n_starts);
  json_builder_set_member_name (b, "best_start");
  json_builder_add_int_value (b, snap->clusters.best_start);
}

void
latent_clusters_describe_metrics (LatentSnapshot *snap,
                                  GString        *text)
{
  /* Clusters are compared with the classes, where there are classes. */
  if (snap->has_label_metrics)
    g_string_append_printf (text, _("Accuracy %.4f\nAdjusted Rand index %.4f\nNormalised mutual information %.4f"),
                            snap->metrics.accuracy, snap->metrics.ari, snap->metrics.nmi);
  else if (snap->dataset != NULL && !latent_dataset_has_labels (snap->dataset))
    g_string_append (text, _("The dataset has no labels to compare the clusters with."));
}

static void
latent_clusters_describe_header (LatentSnapshot *snap,
                                 GString        *text)
{
  latent_family_describe_objective (snap, text);
}

static void
latent_clusters_clear_part (LatentSnapshot *self)
{
  LatentClustersPart *part = &self->clusters;

  g_free (part->labels);
  g_free (part->means);
  g_free (part->cluster_sizes);
  g_free (part->start_objectives);
}

static gsize
latent_clusters_get_part_size (LatentSnapshot *self)
{
  const LatentClustersPart *part = &self->clusters;
  gsize size = 0;

  /* Each array counted only when present: its length is what the
   * producer allocated for it. */
  if (part->labels) size += (gsize) self->n_rows * sizeof (gint32);
  if (part->means) size += (gsize) part->k * self->n_cols * sizeof (float);
  if (part->cluster_sizes) size += part->k * sizeof (guint);
  if (part->start_objectives) size += part->n_starts * sizeof (double);
  return size;
}

const gint32 *
latent_clusters_get_labels (LatentSnapshot *snapshot)
{
  g_return_val_if_fail (snapshot != NULL, NULL);

  return snapshot->clusters.labels;
}

const float *
latent_clusters_get_means (LatentSnapshot *snapshot,
                           guint          *k)
{
  g_return_val_if_fail (snapshot != NULL, NULL);

  if (k)
    *k = snapshot->clusters.k;
  return snapshot->clusters.means;
}

static void
latent_clusters_transfer_part (LatentSnapshot *self,
                               LatentCodec    *codec)
{
  LatentClustersPart *part = &self->clusters;

  latent_codec_uint (codec, &part->k);
  latent_codec_indices (codec, &part->labels, self->n_rows, 0, part->k, "labels");
  latent_codec_floats (codec, &part->means, (gsize) part->k * self->n_cols, "means");
  latent_codec_uints (codec, &part->cluster_sizes, part->k, "cluster_sizes");
  latent_codec_uint (codec, &part->n_starts);
  latent_codec_uint (codec, &part->best_start);
  latent_codec_doubles (codec, &part->start_objectives, part->n_starts, "start_objectives");
}

/* Listed in engine/meson.build (latent_families). */
extern const LatentFamilyClass latent_clusters_family;
const LatentFamilyClass latent_clusters_family = {
  .family = LATENT_FAMILY_CLUSTERS,
  .describe_metrics = latent_clusters_describe_metrics,
  .describe_header = latent_clusters_describe_header,
  .clear_part = latent_clusters_clear_part,
  .get_part_size = latent_clusters_get_part_size,
  .transfer_part = latent_clusters_transfer_part,
};
