/* latent-experiment.h — what it takes to repeat a run: data, algorithm,
 * parameters, seed and device, saved as JSON
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
} LatentExperiment;

LatentExperiment *latent_experiment_new  (const char             *dataset,
                                          const char             *labels,
                                          const LatentAlgorithm  *algorithm,
                                          LatentParams           *params,
                                          guint64                 seed,
                                          const char             *device);
void              latent_experiment_free (LatentExperiment       *self);
gboolean          latent_experiment_save (LatentExperiment       *self,
                                          const char             *path,
                                          GError                **error);
/* Errors name the file and the member that is wrong. */
LatentExperiment *latent_experiment_load (const char             *path,
                                          GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentExperiment, latent_experiment_free)

G_END_DECLS
