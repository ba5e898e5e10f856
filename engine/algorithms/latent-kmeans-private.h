/* latent-kmeans-private.h — state shared by the k-means paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-kmeans.h"

#include <math.h>

G_BEGIN_DECLS

typedef struct _LatentKmeansCl LatentKmeansCl;

typedef enum {
  LATENT_KMEANS_LABELS,       /* labels, distances and inertia only */
  LATENT_KMEANS_ACCUMULATE,   /* also the per-cluster sums and counts */
  LATENT_KMEANS_EXACT,        /* as ACCUMULATE, with every row's distance in self->dist */
} LatentKmeansPassKind;

/* What one assignment pass produces, whichever path ran it. */
typedef struct {
  double  *sums;        /* k × d, per-cluster sums of the assigned rows */
  guint   *counts;      /* k */
  double   inertia;     /* Σ min squared distance */
  gboolean full;        /* every row was visited, and inertia summed from them */
  gboolean dist_exact;  /* self->dist holds every row's distance */
  guint64  visited;     /* row–center distances computed (bounds skip the rest) */
} LatentKmeansPass;

typedef struct {
  LatentDataset  *dataset;
  LatentParams   *params;
  guint64         seed;
  const float    *x;          /* n × d, the dataset's rows */
  guint           n, d, k;
  guint           max_iterations;
  double          tol;        /* absolute: tol parameter × mean column variance */
  double         *mean;       /* d, the column means */
  double          variance;   /* Σ of the columns' variances */

  double         *centers;    /* k × d */
  gint32         *labels;     /* n */
  float          *dist;       /* n, squared distance to the assigned center */
  LatentKmeansPass pass;
  gboolean        shared;     /* passing over one MPI rank's share of the rows */
  /* A streamed dataset (latent-memory.h): the device, if any, takes each
   * chunk as it comes (chunk_device), never the whole; the passes that
   * are not the iteration's own go over every row in chunks too. */
  gboolean        streamed;
  LatentCl       *chunk_device;
  gboolean        no_bounds;  /* for latent_kmeans_cl_new: one pass, no bounds to keep */

  guint           iteration;
  double          inertia;    /* of the last assignment */
  double          shift;      /* Σ squared center movement of the last update */
  gboolean        converged;  /* tolerance reached or labels stable */
  gboolean        finished;   /* converged or out of iterations; labels final */
  GString        *message;

  LatentKmeansCl *cl;         /* NULL: reference path */
  LatentCl       *runtime;    /* the device cl runs on, where failures count */
  char           *fallback;  /* why the run left OpenCL; kept to the end */
  /* Multiple restarts (kmeans_init): what the starts ended at, kept to the
   * end; n_starts is 0 for a run from one start. */
  char           *restart_note;
  guint           n_starts;
  guint           best_start;
  double         *start_objectives;
  char           *device;
} LatentKmeans;

/* A pass's statistics (LatentPassFuncs): the per-cluster sums (k × d),
 * then the counts (k), then the inertia, in one array of doubles. Counts
 * in doubles are exact up to 2⁵³ rows. */
static inline gsize
latent_kmeans_stats_sums (G_GNUC_UNUSED const LatentKmeans *self)
{
  return 0;
}

static inline gsize
latent_kmeans_stats_counts (const LatentKmeans *self)
{
  return (gsize) self->k * self->d;
}

static inline gsize
latent_kmeans_stats_inertia (const LatentKmeans *self)
{
  return (gsize) self->k * self->d + self->k;
}

static inline gsize
latent_kmeans_n_stats (const LatentKmeans *self)
{
  return latent_kmeans_stats_inertia (self) + 1;
}

void             latent_kmeans_reference_accumulate (LatentKmeans *self,
                                                     guint         first,
                                                     guint         n,
                                                     const float  *x,
                                                     double       *stats,
                                                     gboolean      accumulate);
void             latent_kmeans_pass_from_stats      (LatentKmeans     *self,
                                                     LatentKmeansPass *pass,
                                                     const double     *stats,
                                                     gboolean          accumulate);

/* An assignment pass: every row to its nearest center (self->labels,
 * self->dist, pass->inertia), and the sums and counts unless kind is LABELS.
 * The device's passes bring self->dist back only for kind EXACT. */
void             latent_kmeans_reference_assign (LatentKmeans        *self,
                                                 LatentKmeansPass    *pass,
                                                 LatentKmeansPassKind kind);

LatentKmeansCl  *latent_kmeans_cl_new           (LatentKmeans     *self,
                                                 LatentCl         *cl,
                                                 GError          **error);
gboolean         latent_kmeans_cl_assign        (LatentKmeansCl   *kcl,
                                                 LatentKmeans     *self,
                                                 LatentKmeansPass *pass,
                                                 LatentKmeansPassKind kind,
                                                 GCancellable     *cancellable,
                                                 GError          **error);
/* Host-side changes to labels or sums: the next pass starts from scratch. */
/* k-means++'s trials (kernels/kmeans.cl, kmeans_seed): at most this many
 * candidates, rounded up to four, and the GPU shape's group. */
#define LATENT_KMEANS_SEED_MAX_TRIALS 16
#define LATENT_KMEANS_SEED_GROUP 64

/* k-means++'s candidates a round: 2 + ln k, as scikit-learn takes them. */
static inline guint
latent_kmeans_seed_trials (guint k)
{
  return MIN (2 + (guint) log (k), LATENT_KMEANS_SEED_MAX_TRIALS);
}

/* k-means++ keeps the first candidate whose sum is the smallest within
 * rounding, so that the device and the reference, which round apart, keep
 * the same one where two candidates tie (duplicate rows). */
static inline guint
latent_kmeans_seed_pick (const double *sums,
                         guint         trials)
{
  double least = sums[0];
  guint t = 0;

  for (guint i = 1; i < trials; i++)
    least = MIN (least, sums[i]);
  while (sums[t] > least * (1 + 1e-6))
    t++;
  return t;
}

gboolean         latent_kmeans_cl_seed          (LatentKmeansCl   *kcl,
                                                 LatentKmeans     *self,
                                                 const guint      *rows,
                                                 guint             trials,
                                                 double           *closest,
                                                 double           *potential,
                                                 guint            *best,
                                                 GError          **error);
gboolean         latent_kmeans_cl_can_update    (LatentKmeansCl   *kcl);
gboolean         latent_kmeans_cl_update_assign (LatentKmeansCl   *kcl,
                                                 LatentKmeans     *self,
                                                 LatentKmeansPass *pass,
                                                 double           *shift,
                                                 GCancellable     *cancellable,
                                                 GError          **error);
gboolean         latent_kmeans_cl_pull          (LatentKmeansCl   *kcl,
                                                 LatentKmeans     *self,
                                                 LatentKmeansPass *pass,
                                                 GError          **error);
void             latent_kmeans_cl_invalidate    (LatentKmeansCl   *kcl);
void             latent_kmeans_cl_free          (LatentKmeansCl   *kcl);

/* What `latent-cli tune` tries for kmeans.cl (latent-kmeans-cl.c). */
extern const LatentTuneJob latent_kmeans_cl_tune_job;

G_END_DECLS
