/* latent-gmm.c — Gaussian mixtures by EM: parameters, initialisation and the
 * M-step on the host
 *
 * Both paths share everything here; they differ in the two passes over the
 * rows (latent-gmm-private.h). Full covariances are d × d matrices factored
 * by LAPACKE; diagonal and spherical ones keep only their variances, so
 * wide data costs O(k d); a component that collapses is regularised or
 * re-seeded and the snapshot says so, so no NaN spreads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-gmm"

#include "latent-gmm-private.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <lapacke.h>
#include <math.h>

#include "latent-clusters.h"
#include "latent-kmeans.h"
#include "latent-json.h"
#include "latent-metrics.h"

/* Stored untranslated: it goes into result JSON; displays translate it. */
#define LATENT_GMM_CPU_REFERENCE N_("CPU reference")

/* Responsibilities are kept in snapshots up to this many values. */
#define MAX_SNAPSHOT_RESPONSIBILITIES (4u << 20)
/* Past this many columns a full covariance per component no longer fits. */
#define MAX_FULL_COLUMNS 512
/* Two components whose rows' weights overlap this much (the Bhattacharyya
 * coefficient of their responsibilities) are one Gaussian twice: collapsed
 * by a random start on 1,500 rows they share 0.9994 to 0.99999, while
 * distinct ones that overlap (more components than clusters, or one mean
 * with two spreads) share up to about 0.998. */
#define COINCIDING_OVERLAP 0.999

/* auto, the default: full where full ones run (up to MAX_FULL_COLUMNS
 * columns), diagonal on wider data, and the snapshot says so. */
static const char * const covariance_choices[] = { "auto", "full", "diag", "spherical", NULL };
static const char * const covariance_labels[] = { N_("Automatic"), N_("Full"), N_("Diagonal"), N_("Spherical"), NULL };
static const char * const init_choices[] = { "kmeans", "random", NULL };
static const char * const init_labels[] = { N_("k-means"), N_("Random responsibilities"), NULL };

/* The parameters, read once (latent_params_read). */
typedef struct {
  gint64      k;
  const char *covariance;
  double      reg;
  double      tol;
  gint64      max_iterations;
  const char *init;
  gboolean    save_responsibilities;
  gint64      restarts;
} GmmParams;

static const LatentParamSpec gmm_params[] = {
  { .name = "k", LATENT_PARAM_INT_AT (GmmParams, k),
    .label = N_("Components"),
    .tooltip = N_("Number of Gaussian components K"),
    .min = 1, .max = 1024, .default_value = 3,
    .role = LATENT_PARAM_ROLE_SWEEP },
  { .name = "covariance", LATENT_PARAM_CHOICE_AT (GmmParams, covariance),
    .label = N_("Covariance"),
    .tooltip = N_("Full matrices, diagonal ones, or one variance per component; automatic: full up to 512 columns, "
                  "diagonal above"),
    .default_choice = "auto",
    .choices = covariance_choices,
    .choice_labels = covariance_labels },
  { .name = "reg", LATENT_PARAM_DOUBLE_AT (GmmParams, reg),
    .label = N_("Regularisation"),
    .tooltip = N_("Added to the diagonal of every covariance, so none is singular"),
    .min = 0, .max = 1, .default_value = 1e-6 },
  { .name = "tol", LATENT_PARAM_DOUBLE_AT (GmmParams, tol),
    .label = N_("Tolerance"),
    .tooltip = N_("Stop when the mean log-likelihood per point changes less than this"),
    .min = 0, .max = 1, .default_value = 1e-3,
    .role = LATENT_PARAM_ROLE_TOLERANCE },
  { .name = "max-iterations", LATENT_PARAM_INT_AT (GmmParams, max_iterations),
    .label = N_("Maximum iterations"),
    .tooltip = N_("Stop after this many iterations"),
    .min = 1, .max = 100000, .default_value = 100,
    .role = LATENT_PARAM_ROLE_BUDGET },
  { .name = "init", LATENT_PARAM_CHOICE_AT (GmmParams, init),
    .label = N_("Initialisation"),
    .tooltip = N_("Start from k-means labels, from random responsibilities, or from a JSON file of means, covariances and weights"),
    .default_choice = "kmeans",
    .choices = init_choices,
    .allow_file = TRUE,
    .choice_labels = init_labels },
  { .name = "save-responsibilities", LATENT_PARAM_BOOL_AT (GmmParams, save_responsibilities),
    .label = N_("Save responsibilities"),
    .tooltip = N_("Write every row’s responsibilities into the JSON result"),
    .default_value = FALSE },
  { .name = "restarts", LATENT_PARAM_INT_AT (GmmParams, restarts),
    .label = N_("Restarts"),
    .tooltip = N_("Run this many times from different starts and keep the best (highest log-likelihood)"),
    .min = 1, .max = 100, .default_value = 1,
    .applies_when = "init=kmeans|random" },
};

static const LatentAlgorithm gmm_algorithm;

static void
gmm_free (gpointer data)
{
  LatentGmm *self = data;

  g_clear_pointer (&self->cl, latent_gmm_cl_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_free (self->means);
  g_free (self->covariances);
  g_free (self->chol);
  g_free (self->log_det);
  g_free (self->weights);
  g_free (self->resp);
  g_free (self->scatter);
  g_free (self->stats.nk);
  g_free (self->stats.sx);
  g_free (self->device);
  g_free (self->fallback);
  g_free (self->choice);
  g_free (self->restart_note);
  g_free (self->start_objectives);
  if (self->message)
    g_string_free (self->message, TRUE);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentGmm, gmm_free)

/* Free parameters of the model, for BIC and AIC. */
static double
n_parameters (LatentGmm *self)
{
  const double d = self->d, k = self->k;
  double per_covariance = self->covariance == LATENT_COVARIANCE_FULL ? d * (d + 1) / 2
                          : self->covariance == LATENT_COVARIANCE_DIAGONAL ? d : 1;

  return k * per_covariance + k * d + (k - 1);
}

static void
fall_back (LatentGmm    *self,
           const GError *error)
{
  /* The darktable policy: carry on with the reference path, and say so. */
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, "GMM", error);
  g_clear_pointer (&self->cl, latent_gmm_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (LATENT_GMM_CPU_REFERENCE);
}

static gboolean
expect_chunk (gpointer           data,
              const LatentChunk *chunk,
              double            *stats,
              G_GNUC_UNUSED GCancellable *cancellable,
              G_GNUC_UNUSED GError      **error)
{
  latent_gmm_reference_expect_rows (data, chunk->first, chunk->n, chunk->values, stats);
  return TRUE;
}

static gboolean
scatter_chunk (gpointer           data,
               const LatentChunk *chunk,
               double            *stats,
               G_GNUC_UNUSED GCancellable *cancellable,
               G_GNUC_UNUSED GError      **error)
{
  LatentGmm *self = data;

  latent_gmm_reference_scatter_rows (self, self->means, chunk->first, chunk->n, chunk->values, stats);
  return TRUE;
}

/* A streamed dataset's E-step or scatter outside the iteration's own
 * passes (the start's, a fall back's): every row in chunks, each let go
 * after use, on this process alone; its values checked as they come. */
static gboolean
over_chunks (LatentGmm            *self,
             LatentAccumulateFunc  accumulate,
             double               *stats,
             gsize                 n_stats,
             GCancellable         *cancellable,
             GError              **error)
{
  g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (self->dataset, 0);

  return latent_algorithm_pass_over (rows, accumulate, self, stats, n_stats, cancellable, error);
}

static gboolean
expect (LatentGmm     *self,
        GCancellable  *cancellable,
        GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  if (latent_dataset_is_streamed (self->dataset))
    {
      g_autofree double *flat = g_new (double, latent_gmm_n_stats (self));

      if (!over_chunks (self, expect_chunk, flat, latent_gmm_n_stats (self), cancellable, error))
        return FALSE;
      memcpy (self->stats.nk, flat + latent_gmm_stats_nk (self), sizeof (double) * self->k);
      memcpy (self->stats.sx, flat + latent_gmm_stats_sx (self), sizeof (double) * self->k * self->d);
      self->stats.loglik = flat[latent_gmm_stats_loglik (self)];
      return TRUE;
    }
  if (self->cl && latent_gmm_cl_expect (self->cl, self, &self->stats, cancellable, &local_error))
    return TRUE;
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (local_error)
    fall_back (self, local_error);
  latent_gmm_reference_expect (self, &self->stats);
  return TRUE;
}

/* The scatter on the host: a streamed dataset's a chunk at a time. */
static gboolean
scatter_on_host (LatentGmm     *self,
                 GCancellable  *cancellable,
                 GError       **error)
{
  if (latent_dataset_is_streamed (self->dataset))
    {
      const gsize n = (gsize) self->k * latent_covariance_values (self->covariance, self->d);

      if (!over_chunks (self, scatter_chunk, self->scatter, n, cancellable, error))
        return FALSE;
      latent_gmm_reference_scatter_mirror (self, self->scatter);
      return TRUE;
    }
  latent_gmm_reference_scatter (self, self->means, self->scatter);
  return TRUE;
}

static gboolean
scatter (LatentGmm     *self,
         GCancellable  *cancellable,
         GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  if (latent_dataset_is_streamed (self->dataset))
    return scatter_on_host (self, cancellable, error);
  if (self->cl && latent_gmm_cl_scatter (self->cl, self, self->means, self->scatter, cancellable, &local_error))
    return TRUE;
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (local_error)
    fall_back (self, local_error);
  latent_gmm_reference_scatter (self, self->means, self->scatter);
  return TRUE;
}

/* Variances and their square roots (the factors) of a diagonal or
 * spherical component, with the same regularisation as factor() gives a
 * full one: a variance that is not positive gets more on every variance,
 * tenfold each time. */
static void
factor_variances (LatentGmm *self,
                  guint      c)
{
  const gsize per = latent_covariance_values (self->covariance, self->d);
  double *cov = self->covariances + (gsize) c * per;
  double *l = self->chol + (gsize) c * per;
  double extra = MAX (self->reg, 1e-10) * 10;

  for (guint attempt = 0; ; attempt++)
    {
      gboolean positive = TRUE;

      for (gsize i = 0; i < per; i++)
        positive &= cov[i] > 0 && isfinite (cov[i]);
      if (positive)
        break;
      if (attempt == 12)
        {
          for (gsize i = 0; i < per; i++)
            cov[i] = 1;
          break;
        }
      for (gsize i = 0; i < per; i++)
        cov[i] += extra;
      extra *= 10;
      if (attempt == 0)
        g_string_append_printf (self->message, _("Component %u was singular and is regularised. "), c + 1);
    }

  self->log_det[c] = 0;
  for (gsize i = 0; i < per; i++)
    {
      l[i] = sqrt (cov[i]);
      self->log_det[c] += log (cov[i]);
    }
  if (self->covariance == LATENT_COVARIANCE_SPHERICAL)
    self->log_det[c] *= self->d;
}

/* Cholesky factor and log-determinant of component c. A matrix that is not
 * positive definite gets more regularisation, tenfold each time. */
static void
factor (LatentGmm *self,
        guint      c)
{
  const guint d = self->d;
  double *cov, *l;
  double extra = MAX (self->reg, 1e-10) * 10;

  if (self->covariance != LATENT_COVARIANCE_FULL)
    {
      factor_variances (self, c);
      return;
    }
  cov = self->covariances + (gsize) c * d * d;
  l = self->chol + (gsize) c * d * d;

  for (guint attempt = 0; ; attempt++)
    {
      lapack_int info;

      memcpy (l, cov, sizeof (double) * d * d);
      info = LAPACKE_dpotrf (LAPACK_ROW_MAJOR, 'L', d, l, d);
      if (info == 0)
        break;
      if (attempt == 12)
        {
          /* Hopeless: fall back to a unit sphere rather than NaN. */
          memset (cov, 0, sizeof (double) * d * d);
          for (guint i = 0; i < d; i++)
            cov[(gsize) i * d + i] = 1;
          memcpy (l, cov, sizeof (double) * d * d);
          break;
        }
      for (guint i = 0; i < d; i++)
        cov[(gsize) i * d + i] += extra;
      extra *= 10;
      if (attempt == 0)
        g_string_append_printf (self->message, _("Component %u was singular and is regularised. "), c + 1);
    }

  self->log_det[c] = 0;
  for (guint i = 0; i < d; i++)
    {
      /* dpotrf leaves the upper triangle alone: clear it for the passes. */
      for (guint j = i + 1; j < d; j++)
        l[(gsize) i * d + j] = 0;
      self->log_det[c] += 2 * log (l[(gsize) i * d + i]);
    }
}

/* Covariances from the scatter about the new means; then the factors. */
static void
set_covariances (LatentGmm *self)
{
  const guint d = self->d;
  const gsize per = latent_covariance_values (self->covariance, d);

  for (guint c = 0; c < self->k; c++)
    {
      const double nk = self->stats.nk[c];
      const double *s = self->scatter + (gsize) c * per;
      double *cov = self->covariances + (gsize) c * per;

      switch (self->covariance)
        {
        case LATENT_COVARIANCE_FULL:
          for (gsize i = 0; i < per; i++)
            cov[i] = s[i] / nk;
          for (guint a = 0; a < d; a++)
            cov[(gsize) a * d + a] += self->reg;
          break;
        case LATENT_COVARIANCE_DIAGONAL:
          for (guint a = 0; a < d; a++)
            cov[a] = s[a] / nk + self->reg;
          break;
        case LATENT_COVARIANCE_SPHERICAL:
          /* The scatter's trace: the mean variance over the features. */
          cov[0] = s[0] / nk / d + self->reg;
          break;
        }
      factor (self, c);
    }
}

/* A component nobody belongs to has no mean to speak of: it starts again at
 * the row it explains worst, with the data's spread. */
static gboolean
reseed_empty (LatentGmm *self)
{
  const guint d = self->d, k = self->k;
  gboolean reseeded = FALSE;

  for (guint c = 0; c < k; c++)
    {
      guint worst = 0;
      double lowest = INFINITY;

      if (self->stats.nk[c] >= 1e-6)
        continue;
      for (guint i = 0; i < self->n; i++)
        {
          double best = 0;
          for (guint o = 0; o < k; o++)
            best = MAX (best, self->resp[(gsize) i * k + o]);
          if (best < lowest)
            lowest = best, worst = i;
        }
      /* One row's worth of weight, at that row. */
      self->stats.nk[c] = 1;
      for (guint f = 0; f < d; f++)
        self->stats.sx[(gsize) c * d + f] = self->x[(gsize) worst * d + f];
      for (guint i = 0; i < self->n; i++)
        self->resp[(gsize) i * k + c] = i == worst;
      g_string_append_printf (self->message, _("Component %u had no points and is re-seeded. "), c + 1);
      reseeded = TRUE;
    }
  return reseeded;
}

static void
set_means_and_weights (LatentGmm *self)
{
  const guint d = self->d;
  double total = 0;

  for (guint c = 0; c < self->k; c++)
    {
      /* As scikit-learn: a tiny floor keeps empty components finite. */
      self->stats.nk[c] += 10 * DBL_EPSILON;
      total += self->stats.nk[c];
      for (guint f = 0; f < d; f++)
        self->means[(gsize) c * d + f] = self->stats.sx[(gsize) c * d + f] / self->stats.nk[c];
    }
  for (guint c = 0; c < self->k; c++)
    self->weights[c] = self->stats.nk[c] / total;
}

/* The M-step from responsibilities in self->resp whose N_k and S_k are in
 * self->stats. */
static gboolean
maximise (LatentGmm     *self,
          GCancellable  *cancellable,
          GError       **error)
{
  /* A re-seed changes responsibilities the device has not seen: then the
   * host sums the scatter. */
  gboolean host = reseed_empty (self);

  set_means_and_weights (self);
  if (host)
    latent_gmm_reference_scatter (self, self->means, self->scatter);
  else if (!scatter (self, cancellable, error))
    return FALSE;
  set_covariances (self);
  return TRUE;
}

/* Initialisations give responsibilities; the host sums them once. */
static gboolean
maximise_from_host_resp (LatentGmm     *self,
                         GCancellable  *cancellable,
                         GError       **error)
{
  const guint d = self->d, k = self->k;
  /* In chunks, which a streamed dataset lets go after use; in memory, one. */
  g_autoptr(LatentRows) rows = latent_rows_new_for_dataset (self->dataset, 0);

  memset (self->stats.nk, 0, sizeof (double) * k);
  memset (self->stats.sx, 0, sizeof (double) * k * d);
  for (guint h = 0; h < latent_rows_get_n_chunks (rows); h++)
    {
      LatentChunk chunk;

      if (!latent_rows_get_chunk (rows, h, &chunk, error))
        return FALSE;
      for (guint i = 0; i < chunk.n; i++)
        for (guint c = 0; c < k; c++)
          {
            double r = self->resp[(gsize) (chunk.first + i) * k + c];
            if (r == 0)
              continue;
            self->stats.nk[c] += r;
            for (guint f = 0; f < d; f++)
              self->stats.sx[(gsize) c * d + f] += r * chunk.values[(gsize) i * d + f];
          }
    }
  /* The device has not seen these responsibilities: scatter on the host. */
  reseed_empty (self);
  set_means_and_weights (self);
  if (!scatter_on_host (self, cancellable, error))
    return FALSE;
  set_covariances (self);
  return TRUE;
}

/* The main axis of component c's covariance and its variance: the largest
 * variance's axis of a diagonal model, any axis of a spherical one, and by
 * power iteration for a full one (positive definite). */
static double
main_axis (LatentGmm *self,
           guint      c,
           double    *v)
{
  const guint d = self->d;
  const double *cov = self->covariances + (gsize) c * latent_covariance_values (self->covariance, d);
  g_autofree double *w = NULL;
  double variance = 0;
  guint top = 0;

  switch (self->covariance)
    {
    case LATENT_COVARIANCE_SPHERICAL:
      for (guint f = 0; f < d; f++)
        v[f] = 1 / sqrt (d);
      return cov[0];
    case LATENT_COVARIANCE_DIAGONAL:
      for (guint f = 1; f < d; f++)
        if (cov[f] > cov[top])
          top = f;
      for (guint f = 0; f < d; f++)
        v[f] = f == top;
      return cov[top];
    case LATENT_COVARIANCE_FULL:
      break;
    }

  w = g_new (double, d);
  for (guint f = 0; f < d; f++)
    v[f] = 1 / sqrt (d);
  for (guint round = 0; round < 100; round++)
    {
      double norm = 0;

      for (guint a = 0; a < d; a++)
        {
          w[a] = 0;
          for (guint b = 0; b < d; b++)
            w[a] += cov[(gsize) a * d + b] * v[b];
          norm += w[a] * w[a];
        }
      norm = sqrt (norm);
      if (!(norm > 0))
        break;
      for (guint f = 0; f < d; f++)
        v[f] = w[f] / norm;
      if (fabs (norm - variance) <= 1e-6 * norm)
        break;
      variance = norm;
    }
  return variance;
}

/* A random start can leave two components on top of each other after the
 * others have found their places: a saddle again, which EM leaves only
 * after many iterations of tiny changes (or never, when the two are
 * exactly alike). Such pairs are moved apart along their main axis, half
 * a standard deviation each way, and EM goes on from there. Returns
 * whether it split any. */
static gboolean
split_coinciding (LatentGmm *self)
{
  const guint n = self->n, d = self->d, k = self->k;
  g_autofree double *nk = g_new0 (double, k);
  g_autofree double *v = g_new (double, d);
  g_autofree gboolean *moved = g_new0 (gboolean, k);
  gboolean split = FALSE;

  for (guint i = 0; i < n; i++)
    for (guint c = 0; c < k; c++)
      nk[c] += self->resp[(gsize) i * k + c];
  for (guint a = 0; a < k && self->splits < k; a++)
    for (guint b = a + 1; b < k && !moved[a]; b++)
      {
        double overlap = 0, shift;

        if (moved[b] || !(nk[a] > 0 && nk[b] > 0))
          continue;
        for (guint i = 0; i < n; i++)
          overlap += sqrt (self->resp[(gsize) i * k + a] * self->resp[(gsize) i * k + b]);
        if (overlap / sqrt (nk[a] * nk[b]) <= COINCIDING_OVERLAP)
          continue;
        shift = 0.5 * sqrt (main_axis (self, a, v));
        for (guint f = 0; f < d; f++)
          {
            self->means[(gsize) a * d + f] += shift * v[f];
            self->means[(gsize) b * d + f] -= shift * v[f];
          }
        moved[a] = moved[b] = TRUE;
        self->splits++;
        split = TRUE;
        g_string_append_printf (self->message, _("Components %u and %u coincided and are moved apart. "),
                                a + 1, b + 1);
      }
  return split;
}

static gboolean
init_kmeans (LatentGmm     *self,
             LatentCl      *cl,
             GCancellable  *cancellable,
             GError       **error)
{
  const LatentAlgorithm *kmeans = latent_kmeans_get_algorithm ();
  g_autoptr(LatentParams) params = latent_algorithm_new_params (kmeans);
  g_autoptr(LatentFit) fit = NULL;
  LatentSnapshot *snap;

  if (!latent_params_set_int (params, "k", self->k, error) ||
      !(fit = latent_algorithm_fit (kmeans, self->dataset, params, self->seed, cl, NULL, NULL, cancellable, error)))
    return FALSE;
  snap = fit->snapshot;

  memset (self->resp, 0, sizeof (double) * self->n * self->k);
  for (guint i = 0; i < self->n; i++)
    self->resp[(gsize) i * self->k + snap->clusters.labels[i]] = 1;
  return maximise_from_host_resp (self, NULL, error);
}

static gboolean
init_random (LatentGmm *self)
{
  guint32 words[2] = { (guint32) self->seed, (guint32) (self->seed >> 32) };
  g_autoptr(GRand) rand = g_rand_new_with_seed_array (words, 2);

  for (guint i = 0; i < self->n; i++)
    {
      double *r = self->resp + (gsize) i * self->k, sum = 0;

      for (guint c = 0; c < self->k; c++)
        sum += r[c] = g_rand_double (rand);
      for (guint c = 0; c < self->k; c++)
        r[c] /= sum;
    }
  return maximise_from_host_resp (self, NULL, NULL);
}

/* Far beyond any data, well inside a float: the model is kept in floats. */
#define INIT_MAX_MAGNITUDE 1e30

/* A member of COUNT numbers of at most INIT_MAX_MAGNITUDE, or an error
 * naming it. */
static gboolean
read_numbers (JsonNode    *node,
              double      *out,
              guint        count,
              const char  *path,
              const char  *member,
              GError     **error)
{
  if (!latent_json_read_numbers (node, out, count))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s: “%s” must hold %u finite numbers"), path, member, count);
      return FALSE;
    }
  for (guint i = 0; i < count; i++)
    if (fabs (out[i]) > INIT_MAX_MAGNITUDE)
      {
        g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                     _("parameter init: %s: “%s” holds %g, beyond ±%g"), path, member, out[i],
                     INIT_MAX_MAGNITUDE);
        return FALSE;
      }
  return TRUE;
}

static gboolean
init_from_file (LatentGmm   *self,
                const char  *path,
                GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  const guint d = self->d, k = self->k;
  const guint per_cov = latent_covariance_values (self->covariance, d);
  JsonObject *root;
  double total = 0;

  if (!(parser = latent_json_load_file (path, LATENT_MODEL_MAX_BYTES, _("a mixture's parameters"), &local_error)))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s"), local_error->message);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter init: %s: expected an object with means, covariances and weights"), path);
      return FALSE;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  if (!read_numbers (json_object_get_member (root, "means"), self->means, k * d, path, "means", error) ||
      !read_numbers (json_object_get_member (root, "covariances"), self->covariances, k * per_cov, path,
                     "covariances", error) ||
      !read_numbers (json_object_get_member (root, "weights"), self->weights, k, path, "weights", error))
    return FALSE;

  for (guint c = 0; c < k; c++)
    {
      if (!(self->weights[c] > 0))
        {
          g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                       _("parameter init: %s: weight %u is not positive"), path, c + 1);
          return FALSE;
        }
      total += self->weights[c];
      factor (self, c);
    }
  for (guint c = 0; c < k; c++)
    self->weights[c] /= total;
  return TRUE;
}

/* The model a run fits: what was asked for, auto being full up to
 * MAX_FULL_COLUMNS columns and diagonal beyond. */
static LatentCovarianceType
covariance_type (const char *covariance,
                 guint       d)
{
  if (g_str_equal (covariance, "diag") || (g_str_equal (covariance, "auto") && d > MAX_FULL_COLUMNS))
    return LATENT_COVARIANCE_DIAGONAL;
  return g_str_equal (covariance, "spherical") ? LATENT_COVARIANCE_SPHERICAL : LATENT_COVARIANCE_FULL;
}

/* "auto" becomes the covariance the fit used. */
static void
gmm_resolve_params (LatentSnapshot *snapshot,
                    LatentParams   *params)
{
  /* In the order of LatentCovarianceType. */
  static const char * const types[] = { "full", "diag", "spherical" };
  GmmParams p;

  latent_params_read (params, &p);
  if (g_str_equal (p.covariance, "auto") && (guint) snapshot->mixture.covariance_type < G_N_ELEMENTS (types))
    latent_params_set (params, "covariance", types[snapshot->mixture.covariance_type], NULL);
}

/* The bytes a mixture of @k components keeps on @dataset: k covariances
 * of per values (three arrays in double, one in float per snapshot), k
 * means and sums of d, and n × k responsibilities. */
static double
mixture_bytes (LatentDataset *dataset,
               const char    *covariance,
               double         k)
{
  guint d = latent_dataset_get_n_cols (dataset), n = latent_dataset_get_n_rows (dataset);
  double per = latent_covariance_values (covariance_type (covariance, d), d);

  return k * per * (3 * 8 + 4) + k * d * 3 * 8 + (double) n * k * 8;
}

static gboolean
gmm_check (LatentDataset  *dataset,
           LatentParams   *params,
           GError        **error)
{
  guint d = latent_dataset_get_n_cols (dataset);
  GmmParams p;

  latent_params_read (params, &p);
  if (!latent_clusters_check_k (dataset, p.k, _("components"), error))
    return FALSE;
  if (!latent_algorithm_check_memory (mixture_bytes (dataset, p.covariance, p.k),
                                      _("parameter k: a mixture of this many components on this many columns"),
                                      error))
    return FALSE;
  if (g_str_equal (p.covariance, "full") && d > MAX_FULL_COLUMNS)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter covariance: full covariances of %u columns are too large (at most %u); "
                     "use auto, diag or spherical, or fewer columns"), d, MAX_FULL_COLUMNS);
      return FALSE;
    }
  return TRUE;
}

static gint64
gmm_max_int (LatentDataset         *dataset,
             LatentParams          *params,
             const LatentParamSpec *spec)
{
  const double budget = latent_algorithm_memory_budget ();
  GmmParams p;
  gint64 k;

  if (!g_str_equal (spec->name, "k"))
    return G_MAXINT64;
  latent_params_read (params, &p);
  k = latent_clusters_max_k (latent_dataset_get_n_rows (dataset));
  /* The memory grows with k: the most that fits, set right where the
   * division rounded. */
  if (mixture_bytes (dataset, p.covariance, k) > budget)
    {
      k = (gint64) (budget / mixture_bytes (dataset, p.covariance, 1));
      while (k > 0 && mixture_bytes (dataset, p.covariance, k) > budget)
        k--;
      while (mixture_bytes (dataset, p.covariance, k + 1) <= budget)
        k++;
    }
  return k;
}

/* One start, from @seed; @p is @params, read. */
static LatentGmm *
gmm_init_start (LatentDataset    *dataset,
                LatentParams     *params,
                const GmmParams  *p,
                guint64           seed,
                LatentCl         *cl,
                GCancellable     *cancellable,
                GError          **error)
{
  g_autoptr(LatentGmm) self = g_new0 (LatentGmm, 1);
  const char *covariance = p->covariance;
  const char *init = p->init;
  gint64 k = p->k;
  gsize per;

  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  self->x = latent_dataset_get_data (dataset);
  self->n = latent_dataset_get_n_rows (dataset);
  self->d = latent_dataset_get_n_cols (dataset);
  self->message = g_string_new (NULL);
  self->covariance = covariance_type (covariance, self->d);
  if (g_str_equal (covariance, "auto") && self->d > MAX_FULL_COLUMNS)
    {
      self->choice = g_strdup_printf (_("%u columns: diagonal covariances, as full ones of %u × %u values "
                                        "per component run up to %u columns. "),
                                      self->d, self->d, self->d, MAX_FULL_COLUMNS);
    }
  self->reg = p->reg;
  self->tol = p->tol;
  self->max_iterations = p->max_iterations;
  self->log_likelihood = NAN;
  self->previous_log_likelihood = NAN;

  if (!gmm_check (dataset, params, error))
    return NULL;
  self->k = k;
  per = self->k * latent_covariance_values (self->covariance, self->d);
  self->means = g_new0 (double, (gsize) self->k * self->d);
  self->covariances = g_new0 (double, per);
  self->chol = g_new0 (double, per);
  self->scatter = g_new0 (double, per);
  self->log_det = g_new0 (double, self->k);
  self->weights = g_new0 (double, self->k);
  self->resp = g_try_new0 (double, (gsize) self->n * self->k);
  self->stats.nk = g_new0 (double, self->k);
  self->stats.sx = g_new0 (double, (gsize) self->k * self->d);
  if (self->resp == NULL)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("parameter k: not enough memory for %u × %lld responsibilities"), self->n, (long long) k);
      return NULL;
    }

  if (init[0] == '@')
    {
      if (!init_from_file (self, init + 1, error))
        return NULL;
    }
  else if (g_str_equal (init, "random"))
    init_random (self);
  else if (!init_kmeans (self, cl, cancellable, error))
    return NULL;
  self->random_start = g_str_equal (init, "random");
  self->left_start = !self->random_start;

  /* The device holds every row, which a streamed dataset never is: it
   * runs on the reference, a chunk at a time. */
  if (cl != NULL && !latent_dataset_is_streamed (dataset))
    {
      g_autoptr(GError) local_error = NULL;

      self->runtime = g_object_ref (cl);
      self->cl = latent_gmm_cl_new (self, cl, &local_error);
      if (self->cl == NULL)
        fall_back (self, local_error);
      else
        self->device = latent_cl_describe (cl);
    }
  if (self->device == NULL)
    self->device = g_strdup (LATENT_GMM_CPU_REFERENCE);

  /* Responsibilities of the initial model, so iteration 0 has a picture. */
  if (!expect (self, NULL, error))
    return NULL;
  self->log_likelihood = self->stats.loglik / self->n;
  return g_steal_pointer (&self);
}

/* The log-likelihood of the final model, by which starts are compared (as
 * scikit-learn compares them by its last E-step's). */
static double
gmm_score (LatentSnapshot *snap)
{
  return snap->mixture.log_likelihood;
}

/* Multiple restarts, as k-means does them (kmeans_init says why): every
 * start is fitted to the end here, start r from seed + r (its k-means or
 * its random responsibilities), and the run then starts again from the
 * best of them, so the live view is the winning run. The snapshot keeps
 * the run's own seed. A start from a file is the same every time: it
 * runs once. */
static gpointer
gmm_init (LatentDataset  *dataset,
          LatentParams   *params,
          guint64         seed,
          LatentCl       *cl,
          GCancellable   *cancellable,
          GError        **error)
{
  g_autoptr(LatentGmm) self = NULL;
  g_autofree double *objectives = NULL;
  g_autofree char *note = NULL;
  GmmParams p;
  guint best;

  latent_params_read (params, &p);
  if (!latent_clusters_choose_start (&gmm_algorithm, dataset, params, p.restarts, p.init, seed, cl, cancellable,
                                     gmm_score, TRUE,
                                     &objectives, &best, &note, error))
    return NULL;
  /* After the restarts, the winner's own rounds are not news. */
  if (objectives != NULL)
    latent_algorithm_hold_init_progress (TRUE);
  self = gmm_init_start (dataset, params, &p, seed + best, cl, cancellable, error);
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

/* After the expectation of an iteration's new model (the log-likelihood
 * in self->stats): counts the iteration and tests convergence. TRUE when
 * coinciding components were split apart, whose moved means then need an
 * expectation of their own before end_step. */
static gboolean
after_expect (LatentGmm *self,
              double     before,
              double     earlier)
{
  double change;

  self->previous_log_likelihood = before;
  self->log_likelihood = self->stats.loglik / self->n;

  self->iteration++;
  /* The change tested is the previous iteration's, as in scikit-learn,
   * whose E-step comes first: so a run ends after as many iterations, with
   * the same model. */
  change = self->iteration > 1 ? fabs (before - earlier) : 0;
  /* Random responsibilities are a saddle, not a start: each component's
   * mean is a weighted average of nearly every row, so all lie within about
   * 1/√n of the data's mean and the components are one Gaussian K times.
   * EM leaves the saddle geometrically (the components' tiny differences
   * grow each iteration), but the log-likelihood barely changes on the
   * way out, so scikit-learn's test (change < tol) stops at iteration 2
   * with K copies of one Gaussian. From a random start the test waits
   * until a change has reached tol once, i.e. EM has left the start;
   * a run that never does stops at max-iterations, not converged. */
  if (change >= self->tol)
    self->left_start = TRUE;
  self->converged = self->iteration > 1 && change < self->tol && self->left_start;
  if (self->converged && self->random_start && self->iteration < self->max_iterations &&
      split_coinciding (self))
    {
      self->converged = FALSE;
      return TRUE;
    }
  return FALSE;
}

static void
end_step (LatentGmm *self)
{
  self->finished = self->converged || self->iteration >= self->max_iterations;
  if (self->finished && !self->left_start)
    g_string_append (self->message, _("The components have not moved apart from the random start; "
                                      "try more iterations or init=kmeans. "));
}

/* The whole iteration where the device holds every row: its passes keep
 * the responsibilities there between the expectation and the scatter. */
static gboolean
step_on_device (LatentGmm     *self,
                GCancellable  *cancellable,
                GError       **error)
{
  const double before = self->log_likelihood, earlier = self->previous_log_likelihood;

  /* The M-step from the last E-step's responsibilities, then the E-step of
   * the new model: its log-likelihood, and the labels drawn with it, are
   * those of the means and covariances this iteration shows. */
  if (!maximise (self, cancellable, error) || !expect (self, cancellable, error))
    return FALSE;
  if (after_expect (self, before, earlier))
    {
      /* The moved means need their own responsibilities. */
      if (!expect (self, cancellable, error))
        return FALSE;
      self->log_likelihood = self->stats.loglik / self->n;
    }
  end_step (self);
  return TRUE;
}

/* The pass contract: begin re-seeds empty components and moves the means
 * (from the last expectation's statistics), then a scatter pass about
 * them gives the covariances, and an expectation pass the new model's
 * responsibilities and log-likelihood (a second one after a split). */
static gsize
gmm_n_stats (gpointer data)
{
  LatentGmm *self = data;

  if (self->pass == LATENT_GMM_PASS_SCATTER)
    return self->k * latent_covariance_values (self->covariance, self->d);
  return latent_gmm_n_stats (self);
}

static gboolean
gmm_begin (gpointer       data,
           LatentRows    *rows,
           gboolean      *done,
           GCancellable  *cancellable,
           GError       **error)
{
  LatentGmm *self = data;

  g_return_val_if_fail (!self->finished, FALSE);

  g_string_truncate (self->message, 0);
  /* Chunks the device does not hold: the passes run on the host, which
   * has the last expectation's responsibilities and sums. */
  if (self->cl != NULL && !latent_rows_is_whole (rows, self->dataset))
    {
      g_clear_pointer (&self->cl, latent_gmm_cl_free);
      g_clear_object (&self->runtime);
      g_free (self->device);
      self->device = g_strdup (LATENT_GMM_CPU_REFERENCE);
    }
  if (self->cl != NULL)
    {
      *done = TRUE;
      return step_on_device (self, cancellable, error);
    }
  self->before = self->log_likelihood;
  self->earlier = self->previous_log_likelihood;
  reseed_empty (self);
  set_means_and_weights (self);
  self->pass = LATENT_GMM_PASS_SCATTER;
  return TRUE;
}

static gboolean
gmm_accumulate (gpointer           data,
                const LatentChunk *chunk,
                double            *stats,
                GCancellable      *cancellable,
                GError           **error)
{
  LatentGmm *self = data;

  return (self->pass == LATENT_GMM_PASS_SCATTER ? scatter_chunk : expect_chunk) (data, chunk, stats,
                                                                                 cancellable, error);
}

static gboolean
gmm_finish (gpointer       data,
            const double  *stats,
            gboolean      *again,
            G_GNUC_UNUSED GCancellable *cancellable,
            G_GNUC_UNUSED GError      **error)
{
  LatentGmm *self = data;

  if (self->pass == LATENT_GMM_PASS_SCATTER)
    {
      memcpy (self->scatter, stats, sizeof (double) * gmm_n_stats (self));
      latent_gmm_reference_scatter_mirror (self, self->scatter);
      set_covariances (self);
      self->pass = LATENT_GMM_PASS_EXPECT;
      *again = TRUE;
      return TRUE;
    }
  memcpy (self->stats.nk, stats + latent_gmm_stats_nk (self), sizeof (double) * self->k);
  memcpy (self->stats.sx, stats + latent_gmm_stats_sx (self), sizeof (double) * self->k * self->d);
  self->stats.loglik = stats[latent_gmm_stats_loglik (self)];
  if (self->pass == LATENT_GMM_PASS_EXPECT && after_expect (self, self->before, self->earlier))
    {
      self->pass = LATENT_GMM_PASS_EXPECT_SPLIT;
      *again = TRUE;
      return TRUE;
    }
  if (self->pass == LATENT_GMM_PASS_EXPECT_SPLIT)
    self->log_likelihood = self->stats.loglik / self->n;
  end_step (self);
  return TRUE;
}

static guint
gmm_row_state (gpointer        data,
               gboolean        watched,
               LatentRowState *arrays)
{
  LatentGmm *self = data;

  arrays[0] = (LatentRowState) { self->resp, sizeof (double) * self->k };
  return 1;
}

static const LatentPassFuncs gmm_pass = {
  .n_stats = gmm_n_stats,
  .begin = gmm_begin,
  .accumulate = gmm_accumulate,
  .finish = gmm_finish,
  .row_state = gmm_row_state,
};

/* Whether the run's result is to hold every row's responsibilities. */
static gboolean
saves_responsibilities (LatentParams *params)
{
  GmmParams p;

  latent_params_read (params, &p);
  return p.save_responsibilities;
}

static LatentSnapshot *
gmm_snapshot (gpointer data)
{
  LatentGmm *self = data;
  LatentSnapshot *snap = latent_snapshot_new (&gmm_algorithm, self->dataset, self->params);
  const guint n = self->n, d = self->d, k = self->k;
  gboolean keep = saves_responsibilities (self->params) || (guint64) n * k <= MAX_SNAPSHOT_RESPONSIBILITIES;
  double ll = self->log_likelihood, p = n_parameters (self);

  snap->seed = self->seed;
  snap->device = g_strdup (self->device);
  snap->iteration = self->iteration;
  snap->converged = self->converged;
  snap->final = self->finished;
  snap->objective = ll;
  snap->mixture.log_likelihood = ll;
  snap->mixture.bic = -2 * ll * n + p * log (n);
  snap->mixture.aic = -2 * ll * n + 2 * p;

  snap->n_rows = n;
  snap->clusters.k = k;
  snap->n_cols = d;
  snap->clusters.labels = g_new (gint32, n);
  snap->clusters.cluster_sizes = g_new0 (guint, k);
  if (keep)
    snap->mixture.responsibilities = g_new (float, (gsize) n * k);
  for (guint i = 0; i < n; i++)
    {
      const double *r = self->resp + (gsize) i * k;
      guint best = 0;

      for (guint c = 0; c < k; c++)
        {
          if (r[c] > r[best])
            best = c;
          if (keep)
            snap->mixture.responsibilities[(gsize) i * k + c] = r[c];
        }
      snap->clusters.labels[i] = best;
      snap->clusters.cluster_sizes[best]++;
    }
  snap->clusters.means = g_new (float, (gsize) k * d);
  for (gsize i = 0; i < (gsize) k * d; i++)
    snap->clusters.means[i] = self->means[i];
  /* The compact form of diagonal and spherical models: on wide data their
   * d × d matrices would not fit. */
  snap->mixture.covariance_type = self->covariance;
  snap->mixture.covariances = g_new (float, k * latent_covariance_values (self->covariance, d));
  for (gsize i = 0; i < k * latent_covariance_values (self->covariance, d); i++)
    snap->mixture.covariances[i] = self->covariances[i];
  snap->mixture.weights = g_new (float, k);
  for (guint c = 0; c < k; c++)
    snap->mixture.weights[c] = self->weights[c];

  if (latent_dataset_has_labels (self->dataset))
    {
      latent_metrics_compute (snap->clusters.labels, k, latent_dataset_get_labels (self->dataset),
                              latent_dataset_get_n_classes (self->dataset), n, &snap->metrics);
      snap->has_label_metrics = TRUE;
    }
  if (self->n_starts > 0)
    {
      snap->clusters.n_starts = self->n_starts;
      snap->clusters.best_start = self->best_start;
      snap->clusters.start_objectives = g_memdup2 (self->start_objectives, self->n_starts * sizeof (double));
    }
  if (self->restart_note || self->choice || self->fallback || self->message->len > 0)
    snap->message = g_strconcat (self->restart_note ? self->restart_note : "",
                                 self->choice ? self->choice : "", self->fallback ? self->fallback : "",
                                 self->message->str, NULL);
  return snap;
}

static double
gmm_objective (gpointer data)
{
  return ((LatentGmm *) data)->log_likelihood;
}

static gboolean
gmm_converged (gpointer data)
{
  return ((LatentGmm *) data)->finished;
}

static void
gmm_write_json (LatentSnapshot *snap,
                JsonBuilder    *b)
{
  const LatentMixturePart *part = &snap->mixture;
  const gsize dd = (gsize) snap->n_cols * snap->n_cols;

  latent_clusters_write_labels (snap, b);
  latent_json_add_matrix_member (b, "means", snap->clusters.means, snap->clusters.k, snap->n_cols);
  /* As scikit-learn's covariances_ and as init=@FILE reads them: k
   * matrices, k rows of variances (diagonal) or k variances (spherical). */
  if (part->covariance_type == LATENT_COVARIANCE_DIAGONAL)
    latent_json_add_matrix_member (b, "covariances", part->covariances, snap->clusters.k, snap->n_cols);
  else if (part->covariance_type == LATENT_COVARIANCE_SPHERICAL)
    latent_json_add_float_vector_member (b, "covariances", part->covariances, snap->clusters.k);
  else
    {
      json_builder_set_member_name (b, "covariances");
      json_builder_begin_array (b);
      for (guint c = 0; c < snap->clusters.k; c++)
        latent_json_add_matrix (b, part->covariances + c * dd, snap->n_cols, snap->n_cols);
      json_builder_end_array (b);
    }
  latent_json_add_float_vector_member (b, "weights", part->weights, snap->clusters.k);
  latent_json_add_number_member (b, "log_likelihood", part->log_likelihood);
  latent_json_add_number_member (b, "bic", part->bic);
  latent_json_add_number_member (b, "aic", part->aic);
  if (part->responsibilities && saves_responsibilities (snap->params))
    latent_json_add_matrix_member (b, "responsibilities", part->responsibilities, snap->n_rows, snap->clusters.k);
  latent_clusters_write_sizes (snap, b);
  latent_clusters_write_starts (snap, b);
}

static const char * const gmm_figures[] = { "scatter", "images", "segments", NULL };

static const LatentAlgorithm gmm_algorithm = {
  .id = "gmm",
  .title = N_("Gaussian mixture (EM)"),
  .short_title = N_("GMM"),
  .objective_name = N_("mean log-likelihood"),
  .pace = 8,
  .family = LATENT_FAMILY_MIXTURE,
  .figures = gmm_figures,
  .params = gmm_params,
  .n_params = G_N_ELEMENTS (gmm_params),
  .check = gmm_check,
  .max_int = gmm_max_int,
  .init = gmm_init,
  .pass = &gmm_pass,
  .snapshot = gmm_snapshot,
  .objective = gmm_objective,
  .converged = gmm_converged,
  .free = gmm_free,
  .write_json = gmm_write_json,
  .tune_job = &latent_gmm_cl_tune_job,
  .resolve_params = gmm_resolve_params,
  .write_csv_header = latent_clusters_write_csv_header,
  .write_csv_row = latent_clusters_write_csv_row,
};

const LatentAlgorithm *
latent_gmm_get_algorithm (void)
{
  return &gmm_algorithm;
}
