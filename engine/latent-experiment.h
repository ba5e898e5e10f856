/* latent-experiment.h — what it takes to repeat a run and see it again:
 * data (with how a table is read, in its spec), test data, algorithm,
 * parameters, seed, device, and the view (figure, axes, colour by class,
 * speed), saved as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

typedef struct {
  char                  *dataset;    /* a catalog spec or a path */
  char                  *labels;     /* separate label file, or NULL */
  const LatentAlgorithm *algorithm;
  LatentParams          *params;
  guint64                seed;
  char                  *device;     /* auto, cpu, gpu or off */
  /* Test data given as a spec (NULL: rows held out, or the data's own). */
  char                  *test;
  /* The view: the figure by its name ("auto"), the scatter's columns across
   * and up (0: a principal component; c: column c from 1), classes'
   * colours, and iterations a second (0 as fast as possible; < 0 not
   * said). Files of version 1 have none: the defaults. */
  char                  *figure;
  guint                  axes[2];
  gboolean               colour_by_class;
  double                 speed;
} LatentExperiment;

LatentExperiment *latent_experiment_new  (const char             *dataset,
                                          const char             *labels,
                                          const LatentAlgorithm  *algorithm,
                                          LatentParams           *params,
                                          guint64                 seed,
                                          const char             *device);
LatentExperiment *latent_experiment_copy (const LatentExperiment *self);
void              latent_experiment_free (LatentExperiment       *self);
gboolean          latent_experiment_save (LatentExperiment       *self,
                                          const char             *path,
                                          GError                **error);
/* Errors name the file and the member that is wrong. */
LatentExperiment *latent_experiment_load (const char             *path,
                                          GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentExperiment, latent_experiment_free)

G_END_DECLS
