/* latent-algorithm.h — the contract every algorithm implements
 *
 * An algorithm is a table of functions over an opaque state. The worker
 * (latent-run.c) knows algorithms only through this table.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "latent-cl.h"
#include "latent-dataset.h"
#include "latent-params.h"
#include "latent-snapshot.h"

G_BEGIN_DECLS

#define LATENT_ALGORITHM_ERROR (latent_algorithm_error_quark ())

typedef enum {
  LATENT_ALGORITHM_ERROR_UNKNOWN,     /* no algorithm of that name */
  LATENT_ALGORITHM_ERROR_PARAMETER,   /* parameters do not fit the data (k > rows, …) */
  LATENT_ALGORITHM_ERROR_NUMERIC,     /* the computation broke down */
} LatentAlgorithmError;

GQuark latent_algorithm_error_quark (void);

typedef struct _LatentAlgorithm LatentAlgorithm;

struct _LatentAlgorithm
{
  const char            *id;          /* "kmeans", as typed on the command line */
  const char            *name;        /* translatable display name */
  const char            *objective_name; /* translatable: what the history records */
  const LatentParamSpec *params;
  guint                  n_params;
  /* A whole run takes about as long as a person waits for a click (a
   * filter's few passes): the window runs it again on every change. */
  gboolean               instant;

  /* cl is NULL for the C reference path. */
  gpointer        (*init)      (LatentDataset  *dataset,
                                LatentParams   *params,
                                guint64         seed,
                                LatentCl       *cl,
                                GError        **error);
  /* One iteration. Checks cancellable between kernel launches. */
  gboolean        (*step)      (gpointer        state,
                                GCancellable   *cancellable,
                                GError        **error);
  LatentSnapshot *(*snapshot)  (gpointer        state);
  /* The scalar the history records every iteration (k-means: inertia). */
  double          (*objective) (gpointer        state);
  /* TRUE when no further iteration will change anything, or the iteration
   * budget is spent. */
  gboolean        (*converged) (gpointer        state);
  void            (*free)      (gpointer        state);
};

const LatentAlgorithm         *latent_algorithm_lookup     (const char             *id,
                                                            GError                **error);
const LatentAlgorithm * const *latent_algorithm_list       (void);
LatentParams                  *latent_algorithm_new_params (const LatentAlgorithm  *algorithm);

G_END_DECLS
