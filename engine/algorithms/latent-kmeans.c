/* latent-kmeans.c — k-means: parameters, initialisation and the Lloyd update
 *
 * Both paths share everything here; they differ only in the assignment pass
 * (nearest center, per-cluster sums), which is where the time goes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-kmeans"

#include "latent-kmeans-private.h"
#include "latent-memory.h"

#include <cblas.h>
#include <float.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#include "latent-clusters.h"
#include "latent-csv.h"
#include "latent-json.h"
#include "latent-metrics.h"
#include "latent-mpi.h"

/* Stored untranslated: it goes into result JSON; displays translate it. */
#define LATENT_KMEANS_CPU_REFERENCE N_("CPU reference")

static const char * const init_choices[] = { "kmeans++", "random", NULL };
static const char * const init_labels[] = { N_("k-means++"), N_("Random rows"), NULL };

/* The parameters, read once (latent_params_read). */
typedef struct {
  gint64      k;
  const char *init;
  double      tol;
  gint64      max_iterations;
  gint64      restarts;
} KmeansParams;

static const LatentParamSpec kmeans_params[] = {
  { .name = "k", LATENT_PARAM_INT_AT (KmeansParams, k),
    .label = N_("Clusters"),
    .tooltip = N_("Number of clusters K"),
    .min = 1, .max = 65536, .default_value = 3 },
  { .name = "init", LATENT_PARAM_CHOICE_AT (KmeansParams, init),
    .label = N_("Initialisation"),
    .tooltip = N_("k-means++ spreads the first centers out; random picks K rows; a CSV file gives them"),
    .default_choice = "kmeans++",
    .choices = init_choices,
    .allow_file = TRUE,
    .choice_labels = init_labels },
  { .name = "tol", LATENT_PARAM_DOUBLE_AT (KmeansParams, tol),
    .label = N_("Tolerance"),
    .tooltip = N_("Stop when the centers move less than this, relative to the data’s mean variance"),
    .min = 0, .max = 1, .default_value = 1e-4,
    .role = LATENT_PARAM_ROLE_TOLERANCE },
  { .name = "max-iterations", LATENT_PARAM_INT_AT (KmeansParams, max_iterations),
    .label = N_("Maximum iterations"),
    .tooltip = N_("Stop after this many iterations"),
    .min = 1, .max = 100000, .default_value = 300,
    .role = LATENT_PARAM_ROLE_BUDGET },
  { .name = "restarts", LATENT_PARAM_INT_AT (KmeansParams, restarts),
    .label = N_("Restarts"),
    .tooltip = N_("Run this many times from different starts and keep the best (lowest inertia)"),
    .min = 1, .max = 100, .default_value = 1,
    .applies_when = "init=kmeans++|random" },
};

static void
pass_init (LatentKmeansPass *pass,
           guint             k,
           guint             d)
{
  pass->sums = g_new0 (double, (gsize) k * d);
  pass->counts = g_new0 (guint, k);
  pass->inertia = 0;
}

/* The column means into @mean (d), and the total variance (Σ of the
 * columns' variances). */
static double
column_moments (const float *x,
                guint        n,
                guint        d,
                double      *mean,
                double      *spread)
{
  g_autofree double *m2 = g_new0 (double, d);
  double total = 0, widest = 0;

  /* Two passes, means then squared deviations: a large offset does not
   * cancel the variance away, and there is no division per value. */
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < d; j++)
      mean[j] += x[(gsize) i * d + j];
  for (guint j = 0; j < d; j++)
    mean[j] /= n;
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < d; j++)
      {
        double u = x[(gsize) i * d + j] - mean[j];
        m2[j] += u * u;
        widest = MAX (widest, fabs (u));
      }
  for (guint j = 0; j < d; j++)
    total += m2[j] / n;
  *spread = widest;
  return total;
}

/* The same for a streamed dataset, in one read of its chunks (read
 * ahead; under MPI each rank reads its share, the sums and extremes
 * brought together): sums of each value less the first row's, which lies
 * among the data, so that a large offset does not cancel the variance away
 * (the shifted-data formula); the widest deviation from the columns' least
 * and greatest values. FALSE on a value not finite. */
static gboolean
streamed_moments (LatentDataset *dataset,
                  double        *mean,
                  double        *variance,
                  double        *spread,
                  GError       **error)
{
  const guint n = latent_dataset_get_n_rows (dataset), d = latent_dataset_get_n_cols (dataset);
  g_autoptr(LatentRows) rows = latent_algorithm_new_rows (dataset);
  const float *first = latent_dataset_get_data (dataset);
  g_autofree double *shift = g_new (double, d), *sums = g_new0 (double, 2 * (gsize) d);
  g_autofree double *extremes = g_new (double, 2 * (gsize) d);   /* −least, greatest */
  double *s1 = sums, *s2 = sums + d, *lo = extremes, *hi = extremes + d;
  double total = 0, widest = 0;

  /* Every rank the same shift: the file's first row (finite: the first
   * chunk, which holds it, is checked before its values are used). */
  for (guint j = 0; j < d; j++)
    {
      shift[j] = first[j];
      lo[j] = -G_MAXDOUBLE, hi[j] = -G_MAXDOUBLE;
    }
  for (guint c = 0; c < latent_rows_get_n_chunks (rows); c++)
    {
      LatentChunk chunk;

      if (!latent_rows_get_chunk (rows, c, &chunk, error))
        return FALSE;
      for (guint i = 0; i < chunk.n; i++)
        {
          const float *row = chunk.values + (gsize) i * d;

          for (guint j = 0; j < d; j++)
            {
              const double u = row[j] - shift[j];

              s1[j] += u;
              s2[j] += u * u;
              lo[j] = MAX (lo[j], -row[j]);
              hi[j] = MAX (hi[j], row[j]);
            }
        }
    }
  if (latent_rows_is_shared (rows) &&
      (!latent_mpi_sum (sums, 2 * (gsize) d, error) || !latent_mpi_max (extremes, 2 * (gsize) d, error)))
    return FALSE;
  for (guint j = 0; j < d; j++)
    lo[j] = -lo[j];
  for (guint j = 0; j < d; j++)
    {
      mean[j] = shift[j] + s1[j] / n;
      total += MAX (s2[j] - s1[j] * s1[j] / n, 0) / n;
      widest = MAX (widest, MAX (hi[j] - mean[j], mean[j] - lo[j]));
    }
  *variance = total;
  *spread = widest;
  return TRUE;
}

static gboolean
init_from_file (LatentKmeans  *self,
                const char    *path,
                GError       **error)
{
  LatentCsvOptions options = { .label_column = "none" };
  g_autoptr(LatentDataset) file = latent_csv_load (path, &options, error);
  const float *c;

  if (file == NULL)
    return FALSE;
  if (latent_dataset_get_n_rows (file) != self->k || latent_dataset_get_n_cols (file) != self->d)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s holds %u × %u values, expected k × columns = %u × %u"),
                   path, latent_dataset_get_n_rows (file), latent_dataset_get_n_cols (file),
                   self->k, self->d);
      return FALSE;
    }
  c = latent_dataset_get_data (file);
  for (gsize i = 0; i < (gsize) self->k * self->d; i++)
    self->centers[i] = c[i];
  return TRUE;
}

static void
init_random (LatentKmeans *self,
             GRand        *rand)
{
  g_autofree guint *index = g_new (guint, self->n);

  /* Partial Fisher–Yates: k distinct rows. */
  for (guint i = 0; i < self->n; i++)
    index[i] = i;
  for (guint c = 0; c < self->k; c++)
    {
      guint j = c + g_rand_int_range (rand, 0, self->n - c);
      guint t = index[c];
      index[c] = index[j];
      index[j] = t;
      for (guint f = 0; f < self->d; f++)
        self->centers[(gsize) c * self->d + f] = self->x[(gsize) index[c] * self->d + f];
    }
}

static guint
sample_by_weight (const double *weight,
                  guint         n,
                  double        total,
                  GRand        *rand)
{
  double r = g_rand_double (rand) * total;
  double acc = 0;

  for (guint i = 0; i < n; i++)
    {
      acc += weight[i];
      if (acc > r)
        return i;
    }
  return n - 1;
}

static double
squared_norm (const float *a,
              guint        d)
{
  double s = 0;

  for (guint f = 0; f < d; f++)
    s += (double) a[f] * a[f];
  return s;
}

static double
squared_distance (const float *a,
                  const float *b,
                  guint        d)
{
  double s = 0;

  for (guint f = 0; f < d; f++)
    s += ((double) a[f] - b[f]) * ((double) a[f] - b[f]);
  return s;
}

/* The reference of kmeans_seed (kernels/kmeans.cl): for each of @trials
 * candidate rows, Σ_i min (closest[i], |x_i − x_rows[t]|²); the first
 * candidate with the smallest sum is @best, and its minima replace @closest.
 * Distances come from |x|² + |c|² − 2 x·c, the dot products from one matrix
 * product; where that cancels (a row near the candidate, itself included)
 * they are taken again from differences, so a row is at exactly 0 from
 * itself and never drawn again while other rows are left. */
static void
seed_trials_reference (LatentKmeans *self,
                       const guint  *rows,
                       guint         trials,
                       const double *row_norm,
                       double       *closest,
                       double       *potential,
                       guint        *best)
{
  const guint n = self->n, d = self->d;
  g_autofree float *cand = g_new (float, (gsize) trials * d);
  g_autofree float *dot = g_new (float, (gsize) n * trials);
  g_autofree double *trial_closest = g_new (double, (gsize) trials * n);
  double sums[LATENT_KMEANS_SEED_MAX_TRIALS] = { 0 };

  for (guint t = 0; t < trials; t++)
    memcpy (cand + (gsize) t * d, self->x + (gsize) rows[t] * d, d * sizeof (float));
  cblas_sgemm (CblasRowMajor, CblasNoTrans, CblasTrans, n, trials, d,
               1.0f, self->x, d, cand, d, 0.0f, dot, trials);
  for (guint t = 0; t < trials; t++)
    {
      const float *c = cand + (gsize) t * d;
      const double cn = row_norm[rows[t]];
      double *mine = trial_closest + (gsize) t * n;

      for (guint i = 0; i < n; i++)
        {
          double dd = row_norm[i] + cn - 2.0 * dot[(gsize) i * trials + t];

          if (dd < 1e-3 * (row_norm[i] + cn))
            dd = squared_distance (self->x + (gsize) i * d, c, d);
          mine[i] = MIN (closest[i], dd);
          sums[t] += mine[i];
        }
    }
  *best = latent_kmeans_seed_pick (sums, trials);
  *potential = sums[*best];
  memcpy (closest, trial_closest + (gsize) *best * n, n * sizeof (double));
}

static void fall_back (LatentKmeans *self, const GError *error);

/* One round of trials, on the device where there is one. The reference
 * needs the rows' squared norms, made on its first call. */
static void
seed_trials (LatentKmeans *self,
             const guint  *rows,
             guint         trials,
             double      **row_norm,
             double       *closest,
             double       *potential,
             guint        *best)
{
  g_autoptr(GError) error = NULL;

  if (self->cl != NULL &&
      latent_kmeans_cl_seed (self->cl, self, rows, trials, closest, potential, best, &error))
    return;
  if (self->cl != NULL)
    fall_back (self, error);
  if (*row_norm == NULL)
    {
      *row_norm = g_new (double, self->n);
      for (guint i = 0; i < self->n; i++)
        (*row_norm)[i] = squared_norm (self->x + (gsize) i * self->d, self->d);
    }
  seed_trials_reference (self, rows, trials, *row_norm, closest, potential, best);
}

/* Greedy k-means++ (Arthur & Vassilvitskii, with 2 + ln k local trials as
 * scikit-learn does): each new center is the best of a few candidates drawn
 * with probability proportional to the squared distance to the nearest
 * center so far. The first center is a trial of one against no centers. */
static gboolean
init_kmeanspp (LatentKmeans  *self,
               GRand         *rand,
               GCancellable  *cancellable,
               GError       **error)
{
  const guint n = self->n, d = self->d;
  const guint trials = latent_kmeans_seed_trials (self->k);
  g_autofree double *closest = g_new (double, n);
  g_autofree double *row_norm = NULL;
  double potential = 0;
  guint first = g_rand_int_range (rand, 0, n);
  guint best;

  for (guint i = 0; i < n; i++)
    closest[i] = INFINITY;
  seed_trials (self, &first, 1, &row_norm, closest, &potential, &best);
  for (guint f = 0; f < d; f++)
    self->centers[f] = self->x[(gsize) first * d + f];

  for (guint c = 1; c < self->k; c++)
    {
      guint chosen[LATENT_KMEANS_SEED_MAX_TRIALS];

      /* Thousands of centers take minutes: Stop must not wait for them. */
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      latent_algorithm_init_progress (LATENT_INIT_CENTERS, c, self->k);

      for (guint t = 0; t < trials; t++)
        chosen[t] = potential > 0 ? sample_by_weight (closest, n, potential, rand)
                                  : (guint) g_rand_int_range (rand, 0, n);
      seed_trials (self, chosen, trials, &row_norm, closest, &potential, &best);
      for (guint f = 0; f < d; f++)
        self->centers[(gsize) c * d + f] = self->x[(gsize) chosen[best] * d + f];
    }
  return TRUE;
}

static void
kmeans_free (gpointer data)
{
  LatentKmeans *self = data;

  g_clear_pointer (&self->cl, latent_kmeans_cl_free);
  g_clear_object (&self->chunk_device);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_free (self->centers);
  g_free (self->mean);
  g_free (self->labels);
  g_free (self->dist);
  g_free (self->pass.sums);
  g_free (self->pass.counts);
  g_free (self->device);
  g_free (self->fallback);
  g_free (self->restart_note);
  g_free (self->start_objectives);
  g_clear_object (&self->runtime);
  if (self->message)
    g_string_free (self->message, TRUE);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentKmeans, kmeans_free)

static const LatentAlgorithm kmeans_algorithm;

/* The darktable policy: the run goes on from where it is on the reference
 * path, and says so. */
static void
fall_back (LatentKmeans *self,
           const GError *error)
{
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, "k-means", error);
  g_clear_pointer (&self->cl, latent_kmeans_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (LATENT_KMEANS_CPU_REFERENCE);
}

static gboolean kmeans_accumulate (gpointer data, const LatentChunk *chunk, double *stats,
                                   GCancellable *cancellable, GError **error);

/* A streamed dataset's pass outside the iteration (the first labels, an
 * exact one for relocation): every row, in chunks. Under MPI the first
 * labels are each rank's share, summed and gathered; relocation's exact
 * distances of every row are each rank's to find alone. */
static gboolean
assign_in_chunks (LatentKmeans        *self,
                  LatentKmeansPass    *pass,
                  LatentKmeansPassKind kind,
                  GCancellable        *cancellable,
                  GError             **error)
{
  g_autoptr(LatentRows) rows = kind == LATENT_KMEANS_LABELS ? latent_algorithm_new_rows (self->dataset)
                                                            : latent_rows_new_for_dataset (self->dataset, 0);
  g_autofree double *stats = g_new (double, latent_kmeans_n_stats (self));

  if (!latent_algorithm_pass_over (rows, kmeans_accumulate, self, stats, latent_kmeans_n_stats (self),
                                   cancellable, error))
    return FALSE;
  latent_kmeans_pass_from_stats (self, pass, stats, kind != LATENT_KMEANS_LABELS);
  if (latent_rows_is_shared (rows))
    {
      if (!latent_mpi_share_rows (self->labels, sizeof *self->labels, self->n, error))
        return FALSE;
      /* Only this rank's rows' distances were measured. */
      pass->dist_exact = FALSE;
    }
  return TRUE;
}

static gboolean
assign (LatentKmeans        *self,
        LatentKmeansPass    *pass,
        LatentKmeansPassKind kind,
        GCancellable        *cancellable,
        GError           **error)
{
  g_autoptr(GError) local_error = NULL;

  if (self->streamed)
    return assign_in_chunks (self, pass, kind, cancellable, error);
  if (self->cl == NULL)
    {
      latent_kmeans_reference_assign (self, pass, kind);
      return TRUE;
    }
  if (latent_kmeans_cl_assign (self->cl, self, pass, kind, cancellable, &local_error))
    return TRUE;
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  /* A device failure mid-run: continue from the same centers on the reference. */
  fall_back (self, local_error);
  latent_kmeans_reference_assign (self, pass, kind);
  return TRUE;
}

/* A device failure while the device held the run (the GPU shape moves
 * the centers there): it goes on on the reference from the host's centers,
 * as last pulled, with their own assignment. */
static void
fall_back_to_host (LatentKmeans *self,
                   const GError *error)
{
  fall_back (self, error);
  latent_kmeans_reference_assign (self, &self->pass, LATENT_KMEANS_ACCUMULATE);
  self->inertia = self->pass.inertia;
}

/* The host's centers, labels and sums as the device left them. */
static void
pull (LatentKmeans *self)
{
  g_autoptr(GError) error = NULL;

  if (self->cl != NULL && !latent_kmeans_cl_pull (self->cl, self, &self->pass, &error))
    fall_back_to_host (self, error);
}

/* The run goes on on the host without counting a failure: the device
 * holds the dataset in one piece, and the passes come in chunks. */
static void
leave_device (LatentKmeans *self)
{
  pull (self);
  if (self->cl == NULL)
    return;   /* the pull failed and fell back */
  g_clear_pointer (&self->cl, latent_kmeans_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (LATENT_KMEANS_CPU_REFERENCE);
}

static gboolean
kmeans_check (LatentDataset  *dataset,
              LatentParams   *params,
              GError        **error)
{
  KmeansParams p;

  latent_params_read (params, &p);
  return latent_clusters_check_k (dataset, p.k, _("clusters"), error);
}

static gint64
kmeans_max_int (LatentDataset         *dataset,
                LatentParams          *params,
                const LatentParamSpec *spec)
{
  return g_str_equal (spec->name, "k") ? latent_clusters_max_k (latent_dataset_get_n_rows (dataset)) : G_MAXINT64;
}

/* One start, from @seed; @p is @params, read. With @centers (k × d),
 * from those instead of the init parameter's. */
static LatentKmeans *
kmeans_init_start (LatentDataset       *dataset,
                   LatentParams        *params,
                   const KmeansParams  *p,
                   guint64              seed,
                   const double        *centers,
                   LatentCl            *cl,
                   GCancellable        *cancellable,
                   GError             **error)
{
  g_autoptr(LatentKmeans) self = g_new0 (LatentKmeans, 1);
  g_autoptr(GRand) rand = NULL;
  const char *init = p->init;
  gint64 k = p->k;
  guint32 seed_words[2] = { (guint32) seed, (guint32) (seed >> 32) };
  double spread;

  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  self->x = latent_dataset_get_data (dataset);
  self->n = latent_dataset_get_n_rows (dataset);
  self->d = latent_dataset_get_n_cols (dataset);
  self->streamed = latent_dataset_is_streamed (dataset);
  self->message = g_string_new (NULL);

  if (!kmeans_check (dataset, params, error))
    return NULL;
  self->k = k;
  self->max_iterations = p->max_iterations;
  self->mean = g_new0 (double, self->d);
  if (!self->streamed)
    self->variance = column_moments (self->x, self->n, self->d, self->mean, &spread);
  else if (!streamed_moments (dataset, self->mean, &self->variance, &spread, error))
    return NULL;
  /* Two rows (or a row and a center) differ by at most twice the spread in
   * each column; their squared distance must stay a float. */
  if (!(4.0 * self->d * spread * spread < FLT_MAX / 2))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA,
                   _("“%s” holds values %.3g from their column’s mean: squared distances between rows "
                     "would overflow single precision; scale the data down"),
                   latent_dataset_get_name (dataset), spread);
      return NULL;
    }
  self->tol = p->tol * self->variance / self->d;
  self->centers = g_new0 (double, (gsize) self->k * self->d);
  self->labels = g_new0 (gint32, self->n);
  self->dist = g_new0 (float, self->n);
  pass_init (&self->pass, self->k, self->d);
  if (centers != NULL)
    memcpy (self->centers, centers, (gsize) self->k * self->d * sizeof (double));
  else if (init[0] == '@' && !init_from_file (self, init + 1, error))
    return NULL;

  /* Streamed, the device takes the chunks as they come. */
  if (cl != NULL && self->streamed)
    {
      self->chunk_device = g_object_ref (cl);
      self->device = latent_cl_describe (cl);
    }
  /* The device first: k-means++ runs its trials there. */
  else if (cl != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      self->runtime = g_object_ref (cl);
      self->cl = latent_kmeans_cl_new (self, cl, &local_error);
      if (self->cl == NULL)
        fall_back (self, local_error);
      else
        self->device = latent_cl_describe (cl);
    }
  if (self->device == NULL)
    self->device = g_strdup (LATENT_KMEANS_CPU_REFERENCE);

  rand = g_rand_new_with_seed_array (seed_words, 2);
  if (centers == NULL && g_str_equal (init, "random"))
    init_random (self, rand);
  else if (centers == NULL && init[0] != '@' && !init_kmeanspp (self, rand, cancellable, error))
    return NULL;

  /* Labels for the initial centers, so iteration 0 has something to show,
   * with the sums the first step moves the centers to. */
  if (!assign (self, &self->pass, LATENT_KMEANS_ACCUMULATE, cancellable, error))
    return NULL;
  self->inertia = self->pass.inertia;

  return g_steal_pointer (&self);
}

static double
kmeans_score (LatentSnapshot *snap)
{
  return snap->objective;
}

static gpointer kmeans_init (LatentDataset *dataset, LatentParams *params, guint64 seed, LatentCl *cl,
                             GCancellable *cancellable, GError **error);

/* Rows of a streamed dataset that k-means++ and the restarts start from:
 * on 600,000 rows its start was within 0.005 % of the start on every row
 * (docs/STREAMING.md); few enough to hold (a quarter of the budget, or
 * STREAMED_SAMPLE_BYTES where that is more). */
#define STREAMED_SAMPLE_ROWS 65536
#define STREAMED_SAMPLE_BYTES ((guint64) 256 << 20)

/* A streamed dataset's start: the init parameter's (k-means++, the
 * restarts' choice included) on a seeded sample of its rows
 * (latent_rows_sample); the run then starts from that start's centers. A
 * start from a file needs no sample. */
static gpointer
kmeans_init_streamed (LatentDataset       *dataset,
                      LatentParams        *params,
                      const KmeansParams  *p,
                      guint64              seed,
                      LatentCl            *cl,
                      GCancellable        *cancellable,
                      GError             **error)
{
  const guint64 row_bytes = (guint64) latent_dataset_get_n_cols (dataset) * sizeof (float);
  const guint n = latent_dataset_get_n_rows (dataset);
  guint rows = MIN (MAX (STREAMED_SAMPLE_ROWS, 256 * (guint64) p->k),
                    MAX (latent_memory_budget () / 4, STREAMED_SAMPLE_BYTES) / row_bytes);
  g_autoptr(LatentDataset) sample = NULL;
  g_autoptr(LatentKmeans) start = NULL;
  g_autoptr(LatentKmeans) self = NULL;

  if (p->init[0] == '@')
    return kmeans_init_start (dataset, params, p, seed, NULL, cl, cancellable, error);
  if (!kmeans_check (dataset, params, error) ||
      !(sample = latent_rows_sample (dataset, MIN (MAX (rows, (guint) p->k), n), seed, error)) ||
      !(start = kmeans_init (sample, params, seed, cl, cancellable, error)) ||
      !(self = kmeans_init_start (dataset, params, p, seed, start->centers, cl, cancellable, error)))
    return NULL;
  self->restart_note = g_strdup_printf (_("Started by %s on a sample of %u of the %u rows. "),
                                        g_str_equal (p->init, "random") ? _("random rows") : "k-means++",
                                        latent_dataset_get_n_rows (sample), n);
  if (start->restart_note)
    {
      char *both = g_strconcat (self->restart_note, start->restart_note, NULL);

      g_free (self->restart_note);
      self->restart_note = both;
    }
  return g_steal_pointer (&self);
}

/* Multiple restarts: every start is fitted to the end here, from seeds
 * seed, seed + 1, …, and the run then starts again from the best of them
 * (the first, on a tie) and steps as a run from one start does. So the
 * live view, the history and the final snapshot are all the winning run,
 * iteration by iteration, rather than the tail of a loser; the price is
 * fitting the winner twice, (restarts + 1) / restarts the work of the
 * starts alone. The snapshot keeps the run's own seed: the same seed and
 * restarts give the same result. A start from a file is the same every
 * time, so it runs once (as scikit-learn does with explicit centers). */
static gpointer
kmeans_init (LatentDataset  *dataset,
             LatentParams   *params,
             guint64         seed,
             LatentCl       *cl,
             GCancellable   *cancellable,
             GError        **error)
{
  g_autoptr(LatentKmeans) self = NULL;
  g_autofree double *objectives = NULL;
  g_autofree char *note = NULL;
  KmeansParams p;
  guint best;

  latent_params_read (params, &p);
  if (latent_dataset_is_streamed (dataset))
    return kmeans_init_streamed (dataset, params, &p, seed, cl, cancellable, error);
  if (!latent_clusters_choose_start (&kmeans_algorithm, dataset, params, p.restarts, p.init, seed, cl, cancellable,
                                     kmeans_score,
                     FALSE, &objectives, &best, &note, error))
    return NULL;
  /* After the restarts, the winner's own rounds are not news. */
  if (objectives != NULL)
    latent_algorithm_hold_init_progress (TRUE);
  self = kmeans_init_start (dataset, params, &p, seed + best, NULL, cl, cancellable, error);
  if (objectives != NULL)
    latent_algorithm_hold_init_progress (FALSE);
  if (self == NULL)
    return NULL;
  self->seed = seed;
  self->restart_note = g_steal_pointer (&note);
  self->n_starts = objectives ? p.restarts : 0;
  self->best_start = best;
  self->start_objectives = g_steal_pointer (&objectives);
  return g_steal_pointer (&self);
}


/* Empty clusters take the rows farthest from their centers (as scikit-learn
 * relocates them), so k stays k. */
static gboolean
has_empty_cluster (LatentKmeans *self)
{
  for (guint c = 0; c < self->k; c++)
    if (self->pass.counts[c] == 0)
      return TRUE;
  return FALSE;
}

static void
relocate_empty_clusters (LatentKmeans *self)
{
  LatentKmeansPass *pass = &self->pass;
  guint n_empty = 0;

  for (guint c = 0; c < self->k; c++)
    if (pass->counts[c] == 0)
      n_empty++;

  for (guint c = 0; c < self->k; c++)
    {
      guint far = 0;
      gint32 old;

      if (pass->counts[c] != 0)
        continue;
      for (guint i = 1; i < self->n; i++)
        if (self->dist[i] > self->dist[far])
          far = i;
      old = self->labels[far];
      if (pass->counts[old] <= 1)
        continue;   /* fewer distinct rows than clusters: nothing to move */
      for (guint f = 0; f < self->d; f++)
        {
          double v = self->x[(gsize) far * self->d + f];
          pass->sums[(gsize) old * self->d + f] -= v;
          pass->sums[(gsize) c * self->d + f] = v;
        }
      pass->counts[old]--;
      pass->counts[c] = 1;
      self->labels[far] = c;
      self->dist[far] = 0;
    }
  g_string_append_printf (self->message,
                          g_dngettext (GETTEXT_PACKAGE, "%u empty cluster re-seeded from the farthest point. ",
                                       "%u empty clusters re-seeded from the farthest points. ", n_empty),
                          n_empty);
}

/* Moves CENTER (D values) to SUMS / COUNT and returns how far, squared.
 * Four values a step with four sums, not one chain of double additions
 * each waiting on the last: with latent-kmeans-cl.c's center_row, half
 * the time at k = 100, d = 784 (89 against 187 µs a step here), which on
 * a GPU is a tenth of the step. */
static double
move_center (double       *center,
             const double *sums,
             double        count,
             guint         d)
{
  double m0 = 0, m1 = 0, m2 = 0, m3 = 0;
  guint f = 0;

  for (; f + 4 <= d; f += 4)
    {
      const double a0 = sums[f] / count, a1 = sums[f + 1] / count;
      const double a2 = sums[f + 2] / count, a3 = sums[f + 3] / count;

      m0 += (a0 - center[f]) * (a0 - center[f]);
      m1 += (a1 - center[f + 1]) * (a1 - center[f + 1]);
      m2 += (a2 - center[f + 2]) * (a2 - center[f + 2]);
      m3 += (a3 - center[f + 3]) * (a3 - center[f + 3]);
      center[f] = a0;
      center[f + 1] = a1;
      center[f + 2] = a2;
      center[f + 3] = a3;
    }
  for (; f < d; f++)
    {
      const double a = sums[f] / count;

      m0 += (a - center[f]) * (a - center[f]);
      center[f] = a;
    }
  return (m0 + m1) + (m2 + m3);
}

/* The centers to the means of the last pass's clusters (an empty
 * cluster's center stays); returns how far they moved, squared. */
static double
move_centers (LatentKmeans *self)
{
  double shift = 0;

  for (guint c = 0; c < self->k; c++)
    if (self->pass.counts[c] > 0)
      shift += move_center (self->centers + (gsize) c * self->d, self->pass.sums + (gsize) c * self->d,
                            self->pass.counts[c], self->d);
  return shift;
}

/* Lloyd's iteration, update first: the centers move to the means of the
 * rows as the last pass assigned them, then every row goes to its nearest
 * new center. The state between steps (and so every snapshot) is centers
 * with the labels and inertia of those very centers, which is what the
 * live view draws together: regions, centers and the points' colours. The
 * other order (assign, then update) left the labels of the previous
 * centers beside the new ones. This costs nothing: still one assignment
 * pass per step, and the centers of iteration t are the same as before.
 *
 * Under the pass contract: begin relocates empty clusters and moves the
 * centers, accumulate assigns a chunk, finish takes the summed pass. */

/* An iteration's end, after its pass: SHIFT is how far the centers moved. */
static gboolean
end_iteration (LatentKmeans  *self,
               double         shift,
               GCancellable  *cancellable,
               GError       **error)
{
  self->iteration++;
  g_debug ("iteration %u: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " distances computed",
           self->iteration, self->pass.visited, (guint64) self->n * self->k);
  self->shift = shift;
  self->inertia = self->pass.inertia;
  self->converged = shift <= self->tol;
  self->finished = self->converged || self->iteration >= self->max_iterations;

  /* A bounded pass gives the inertia from per-cluster sums; the one
   * reported at the end is summed from every row. */
  if (self->finished && !self->pass.full)
    {
      if (!assign (self, &self->pass, LATENT_KMEANS_LABELS, cancellable, error))
        return FALSE;
      self->inertia = self->pass.inertia;
    }
  return TRUE;
}

/* The whole iteration on the device, which holds every row: it keeps the
 * pass's sums there (the GPU shape moves the centers there too). */
static gboolean
step_on_device (LatentKmeans  *self,
                GCancellable  *cancellable,
                GError       **error)
{
  gboolean moved = FALSE;
  double shift = 0;

  if (latent_kmeans_cl_can_update (self->cl))
    {
      g_autoptr(GError) local_error = NULL;

      moved = latent_kmeans_cl_update_assign (self->cl, self, &self->pass, &shift, cancellable, &local_error);
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (!moved)
        fall_back_to_host (self, local_error);
    }
  if (!moved)
    {
      shift = move_centers (self);
      if (!assign (self, &self->pass, LATENT_KMEANS_ACCUMULATE, cancellable, error))
        return FALSE;
    }
  return end_iteration (self, shift, cancellable, error);
}

static gsize
kmeans_n_stats (gpointer data)
{
  return latent_kmeans_n_stats (data);
}

static gboolean
kmeans_begin (gpointer       data,
              LatentRows    *rows,
              gboolean      *done,
              GCancellable  *cancellable,
              GError       **error)
{
  LatentKmeans *self = data;
  const gboolean whole = latent_rows_is_whole (rows, self->dataset);

  self->shared = latent_rows_is_shared (rows);
  g_return_val_if_fail (!self->finished, FALSE);

  /* Chunks the device does not hold: the passes run on the host, from
   * the device's centers, labels and sums as they are now. */
  if (self->cl != NULL && !whole)
    leave_device (self);

  g_string_truncate (self->message, 0);
  if (has_empty_cluster (self))
    {
      /* Relocation needs every row's distance, which only an exact pass
       * brings back from the device. */
      if (!self->pass.dist_exact &&
          !assign (self, &self->pass, LATENT_KMEANS_EXACT, cancellable, error))
        return FALSE;
      relocate_empty_clusters (self);
      if (self->cl)
        latent_kmeans_cl_invalidate (self->cl);
    }

  if (self->cl != NULL)
    {
      *done = TRUE;
      return step_on_device (self, cancellable, error);
    }
  self->shift = move_centers (self);
  return TRUE;
}

/* A chunk's pass on the device: a view of the run whose rows are the
 * chunk's, its labels and distances the chunk's part of the run's, with
 * no bounds (each chunk is seen once a pass). Its sums add to @stats. */
static gboolean
accumulate_on_device (LatentKmeans       *self,
                      const LatentChunk  *chunk,
                      double             *stats,
                      GCancellable       *cancellable,
                      GError            **error)
{
  LatentKmeans view = *self;
  LatentKmeansCl *kcl;
  LatentKmeansPass pass = { 0 };
  gboolean ok;

  view.x = chunk->values;
  view.n = chunk->n;
  view.labels = self->labels + chunk->first;
  view.dist = self->dist + chunk->first;
  view.cl = NULL;
  view.no_bounds = TRUE;
  pass_init (&pass, self->k, self->d);
  ok = (kcl = latent_kmeans_cl_new (&view, self->chunk_device, error)) != NULL &&
       latent_kmeans_cl_assign (kcl, &view, &pass, LATENT_KMEANS_EXACT, cancellable, error);
  if (ok)
    {
      double *sums = stats + latent_kmeans_stats_sums (self), *counts = stats + latent_kmeans_stats_counts (self);

      for (gsize i = 0; i < (gsize) self->k * self->d; i++)
        sums[i] += pass.sums[i];
      for (guint c = 0; c < self->k; c++)
        counts[c] += pass.counts[c];
      stats[latent_kmeans_stats_inertia (self)] += pass.inertia;
    }
  g_clear_pointer (&kcl, latent_kmeans_cl_free);
  g_free (pass.sums);
  g_free (pass.counts);
  return ok;
}

static gboolean
kmeans_accumulate (gpointer           data,
                   const LatentChunk *chunk,
                   double            *stats,
                   GCancellable      *cancellable,
                   GError           **error)
{
  LatentKmeans *self = data;
  g_autoptr(GError) local_error = NULL;

  if (self->chunk_device != NULL)
    {
      if (accumulate_on_device (self, chunk, stats, cancellable, &local_error))
        return TRUE;
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      /* The chunk, and the rest of the run, on the reference. */
      g_free (self->fallback);
      self->fallback = latent_cl_fall_back (self->chunk_device, "k-means", local_error);
      g_clear_object (&self->chunk_device);
      g_free (self->device);
      self->device = g_strdup (LATENT_KMEANS_CPU_REFERENCE);
    }
  latent_kmeans_reference_accumulate (self, chunk->first, chunk->n, chunk->values, stats, TRUE);
  return TRUE;
}

static gboolean
kmeans_finish (gpointer       data,
               const double  *stats,
               G_GNUC_UNUSED gboolean *again,
               GCancellable  *cancellable,
               GError       **error)
{
  LatentKmeans *self = data;

  latent_kmeans_pass_from_stats (self, &self->pass, stats, TRUE);
  /* A share's pass measured this rank's rows only (kmeans_row_state). */
  if (self->shared)
    self->pass.dist_exact = FALSE;
  return end_iteration (self, self->shift, cancellable, error);
}

/* Under MPI, every row's label is wanted only once the run ends (the
 * result's), unless its frames are watched: the pass that ends it, as
 * end_iteration () will find, gathers them. The distances never are: an empty cluster's relocation, the one
 * step that reads other ranks' rows, takes an exact pass of its own over
 * every row (kmeans_finish marks the shared pass's distances inexact). */
static guint
kmeans_row_state (gpointer        data,
                  gboolean        watched,
                  LatentRowState *arrays)
{
  LatentKmeans *self = data;

  if (!watched && self->shift > self->tol && self->iteration + 1 < self->max_iterations)
    return 0;
  arrays[0] = (LatentRowState) { self->labels, sizeof *self->labels };
  return 1;
}

static const LatentPassFuncs kmeans_pass = {
  .n_stats = kmeans_n_stats,
  .begin = kmeans_begin,
  .accumulate = kmeans_accumulate,
  .finish = kmeans_finish,
  .row_state = kmeans_row_state,
};

static LatentSnapshot *
kmeans_snapshot (gpointer data)
{
  LatentKmeans *self = data;
  LatentSnapshot *snap;

  pull (self);
  snap = latent_snapshot_new (&kmeans_algorithm, self->dataset, self->params);

  snap->seed = self->seed;
  snap->device = g_strdup (self->device);
  snap->iteration = self->iteration;
  snap->converged = self->converged;
  snap->final = self->finished;
  snap->objective = self->inertia;
  snap->n_rows = self->n;
  snap->clusters.labels = g_memdup2 (self->labels, self->n * sizeof (gint32));
  snap->clusters.k = self->k;
  snap->n_cols = self->d;
  snap->clusters.means = g_new (float, (gsize) self->k * self->d);
  for (gsize i = 0; i < (gsize) self->k * self->d; i++)
    snap->clusters.means[i] = self->centers[i];
  snap->clusters.cluster_sizes = g_new0 (guint, self->k);
  for (guint i = 0; i < self->n; i++)
    snap->clusters.cluster_sizes[self->labels[i]]++;

  if (latent_dataset_has_labels (self->dataset))
    {
      latent_metrics_compute (self->labels, self->k,
                              latent_dataset_get_labels (self->dataset),
                              latent_dataset_get_n_classes (self->dataset),
                              self->n, &snap->metrics);
      snap->has_label_metrics = TRUE;
    }
  if (self->n_starts > 0)
    {
      snap->clusters.n_starts = self->n_starts;
      snap->clusters.best_start = self->best_start;
      snap->clusters.start_objectives = g_memdup2 (self->start_objectives, self->n_starts * sizeof (double));
    }
  if (self->restart_note || self->fallback || self->message->len > 0)
    snap->message = g_strconcat (self->restart_note ? self->restart_note : "",
                                 self->fallback ? self->fallback : "", self->message->str, NULL);
  return snap;
}

static double
kmeans_objective (gpointer data)
{
  LatentKmeans *self = data;
  return self->inertia;
}

static gboolean
kmeans_converged (gpointer data)
{
  LatentKmeans *self = data;
  return self->finished;
}

static void
kmeans_write_json (LatentSnapshot *snap,
                   JsonBuilder    *b)
{
  latent_clusters_write_labels (snap, b);
  latent_json_add_matrix_member (b, "centroids", snap->clusters.means, snap->clusters.k, snap->n_cols);
  latent_clusters_write_sizes (snap, b);
  latent_json_add_number_member (b, "inertia", snap->objective);
  latent_clusters_write_starts (snap, b);
}

static const char * const kmeans_figures[] = { "scatter", "images", "segments", NULL };

static const LatentAlgorithm kmeans_algorithm = {
  .id = "kmeans",
  .title = N_("k-means"),
  .short_title = N_("k-means"),
  .objective_name = N_("inertia"),
  .pace = 4,
  .family = LATENT_FAMILY_CLUSTERS,
  .figures = kmeans_figures,
  .params = kmeans_params,
  .n_params = G_N_ELEMENTS (kmeans_params),
  .check = kmeans_check,
  .max_int = kmeans_max_int,
  .init = kmeans_init,
  .pass = &kmeans_pass,
  .snapshot = kmeans_snapshot,
  .objective = kmeans_objective,
  .converged = kmeans_converged,
  .free = kmeans_free,
  .write_json = kmeans_write_json,
  .tune_job = &latent_kmeans_cl_tune_job,
  .write_csv_header = latent_clusters_write_csv_header,
  .write_csv_row = latent_clusters_write_csv_row,
};

const LatentAlgorithm *
latent_kmeans_get_algorithm (void)
{
  return &kmeans_algorithm;
}
