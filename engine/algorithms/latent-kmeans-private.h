/* latent-kmeans-private.h — state shared by the k-means paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-kmeans.h"

G_BEGIN_DECLS

typedef struct _LatentKmeansCl LatentKmeansCl;

/* What one assignment pass produces, whichever path ran it. */
typedef struct {
  double  *sums;      /* k × d, per-cluster sums of the assigned rows */
  guint   *counts;    /* k */
  double   inertia;   /* Σ min squared distance */
} LatentKmeansPass;

typedef struct {
  LatentDataset  *dataset;
  LatentParams   *params;
  guint64         seed;
  const float    *x;          /* n × d, the dataset's rows */
  guint           n, d, k;
  guint           max_iterations;
  double          tol;        /* absolute: tol parameter × mean column variance */

  double         *centers;    /* k × d */
  gint32         *labels;     /* n */
  float          *dist;       /* n, squared distance to the assigned center */
  LatentKmeansPass pass;

  guint           iteration;
  double          inertia;    /* of the last assignment */
  double          shift;      /* Σ squared center movement of the last update */
  gboolean        converged;  /* tolerance reached or labels stable */
  gboolean        finished;   /* converged or out of iterations; labels final */
  GString        *message;

  LatentKmeansCl *cl;         /* NULL: reference path */
  char           *device;
} LatentKmeans;

/* An assignment pass: every row to its nearest center (self->labels,
 * self->dist, pass->inertia); with accumulate, also pass->sums and counts. */
void             latent_kmeans_reference_assign (LatentKmeans     *self,
                                                 LatentKmeansPass *pass,
                                                 gboolean          accumulate);

LatentKmeansCl  *latent_kmeans_cl_new           (LatentKmeans     *self,
                                                 LatentCl         *cl,
                                                 GError          **error);
gboolean         latent_kmeans_cl_assign        (LatentKmeansCl   *kcl,
                                                 LatentKmeans     *self,
                                                 LatentKmeansPass *pass,
                                                 gboolean          accumulate,
                                                 GCancellable     *cancellable,
                                                 GError          **error);
void             latent_kmeans_cl_free          (LatentKmeansCl   *kcl);

G_END_DECLS
