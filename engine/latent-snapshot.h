/* latent-snapshot.h — one immutable picture of a run after an iteration
 *
 * The worker fills a snapshot, then hands it over; from then on nobody writes
 * to it, so the main thread and the renderers read it without locks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "data/latent-dataset.h"
#include "latent-params.h"
#include "latent-families.h"

G_BEGIN_DECLS

typedef struct {
  double accuracy;  /* after Hungarian matching of clusters to classes */
  double ari;       /* adjusted Rand index */
  double nmi;       /* normalised mutual information (arithmetic mean) */
} LatentLabelMetrics;

/* Which parts of a snapshot an algorithm's snapshots fill: each family owns
 * one (a mixture fills the clusters' part and its own). The families are
 * listed in engine/meson.build, which generates latent-families.h: each
 * one's LatentFamily value, its part (in its latent-<family>-part.h) and
 * its class (latent-family.h). */
#define LATENT_FAMILY_VALUE(NAME, field, Part, klass) LATENT_FAMILY_##NAME,
typedef enum {
  LATENT_FAMILY_LIST (LATENT_FAMILY_VALUE)
} LatentFamily;
#undef LATENT_FAMILY_VALUE

typedef struct _LatentAlgorithm LatentAlgorithm;   /* latent-algorithm.h */
typedef struct _LatentSnapshot LatentSnapshot;
typedef struct _LatentCodec LatentCodec;           /* latent-codec.h */

struct _LatentSnapshot
{
  /* The algorithm that made it: its id, titles and family. Registered
   * algorithms live as long as the program. */
  const LatentAlgorithm *algorithm;
  LatentDataset *dataset;      /* the data the run works on */
  LatentParams  *params;
  guint64        seed;
  char          *device;       /* "PoCL: pthread-…" or "CPU reference" */

  guint          iteration;    /* 0 = after initialisation */
  gboolean       converged;
  gboolean       final;        /* no more iterations will follow */
  double         objective;    /* k-means: inertia */

  /* The rows and columns of the data the parts' arrays are sized by. */
  guint          n_rows;
  guint          n_cols;

  /* Each family's part: the one of the algorithm's family (a mixture's and
   * the clusters'); the others stay zeroed. Read by the engine and the
   * family's own figures (tests/check-layers.py); the window and the
   * programs ask latent-family.h. */
#define LATENT_FAMILY_PART(NAME, field, Part, klass) Part field;
  LATENT_FAMILY_LIST (LATENT_FAMILY_PART)
#undef LATENT_FAMILY_PART

  gboolean       has_label_metrics;
  LatentLabelMetrics metrics;

  double         step_ms;      /* wall time of the last iteration */
  double         elapsed_ms;   /* since the run started, initialisation included */
  char          *message;      /* something the person should know, or NULL */
};

LatentSnapshot *latent_snapshot_new      (const LatentAlgorithm *algorithm,
                                          LatentDataset         *dataset,
                                          LatentParams          *params);
LatentSnapshot *latent_snapshot_ref      (LatentSnapshot        *self);
void            latent_snapshot_unref    (LatentSnapshot        *self);
/* Bytes the snapshot holds itself, every array counted (not the dataset or
 * parameters it shares): what keeping it in a history costs. */
gsize           latent_snapshot_get_size (LatentSnapshot        *self);
/* Each family's part, every family asked (engine/meson.build's list): set
 * up in a new snapshot, freed, and its arrays' bytes; a part the
 * algorithm's family did not fill frees and counts nothing. */
void            latent_family_init_parts          (LatentSnapshot *self);
void            latent_family_clear_parts         (LatentSnapshot *self);
gsize           latent_family_get_parts_size      (LatentSnapshot *self);
/* Every family's part written or read by @codec (latent-codec.h). */
void            latent_family_transfer_parts      (LatentSnapshot *self,
                                                   LatentCodec    *codec);
/* The shared shapes' arrays, freed and counted (@n_cols per reconstruction). */
void            latent_examples_clear             (LatentExamples       *examples);
gsize           latent_examples_get_size          (const LatentExamples *examples,
                                                   guint                 n_cols);
void            latent_epochs_clear               (LatentEpochs         *epochs);
gsize           latent_epochs_get_size            (const LatentEpochs   *epochs);
/* Bytes of a string a snapshot holds, its end included; 0 for NULL. */
gsize           latent_snapshot_string_size       (const char     *s);
/* Values per component in covariances: n_cols², n_cols or 1. */
gsize           latent_snapshot_covariance_values (LatentSnapshot *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentSnapshot, latent_snapshot_unref)

G_END_DECLS
