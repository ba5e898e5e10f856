/* latent-follow.h — a run written to a folder, and followed from it
 *
 * `latent-cli run … --follow DIR` writes DIR/experiment.json when it starts
 * (what the run is: its data, algorithm, parameters and seed), then
 * DIR/run.latent as it goes: its state, every iteration's record so far
 * and its newest snapshot (latent-codec.h). The run file is replaced
 * whole, a new one renamed over the old, so a reader never sees half of
 * one, on a local disk or a shared folder. The window reads the
 * experiment, loads the same data, and polls the run file: a folder
 * shared over the network sends no change notices.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"
#include "latent-experiment.h"

G_BEGIN_DECLS

#define LATENT_FOLLOW_EXPERIMENT "experiment.json"
#define LATENT_FOLLOW_RUN        "run.latent"

typedef enum {
  LATENT_FOLLOW_INITIALISING,
  LATENT_FOLLOW_RUNNING,
  LATENT_FOLLOW_FINISHED,
  LATENT_FOLLOW_FAILED,
} LatentFollowState;

typedef struct _LatentFollowWriter LatentFollowWriter;

/* Makes @dir if need be and writes the experiment into it; the run file
 * comes with the first latent_follow_writer_write (). */
LatentFollowWriter *latent_follow_writer_new        (const char              *dir,
                                                     LatentExperiment        *experiment,
                                                     GError                 **error);
void                latent_follow_writer_free       (LatentFollowWriter      *self);
void                latent_follow_writer_add_record (LatentFollowWriter      *self,
                                                     const LatentIterationRecord *record);
/* Replaces the run file: @state, the records so far and @snapshot (NULL:
 * the last one written, if any); @failure says why a failed run failed. */
gboolean            latent_follow_writer_write      (LatentFollowWriter      *self,
                                                     LatentFollowState        state,
                                                     LatentSnapshot          *snapshot,
                                                     double                   init_ms,
                                                     const char              *failure,
                                                     GError                 **error);

/* A run file as read. */
typedef struct {
  LatentFollowState  state;
  char              *failure;
  double             init_ms;
  GArray            *records;    /* LatentIterationRecord */
  LatentSnapshot    *snapshot;   /* NULL before the first */
  char              *host;       /* where the writer runs, and its process */
  guint              pid;
} LatentFollowUpdate;

/* Reads @path, written by a run of @algorithm on data of @dataset's shape;
 * the snapshot shares @dataset and @params. Errors name the file and what
 * is wrong with it. */
LatentFollowUpdate *latent_follow_read              (const char              *path,
                                                     const LatentAlgorithm   *algorithm,
                                                     LatentDataset           *dataset,
                                                     LatentParams            *params,
                                                     GError                 **error);
void                latent_follow_update_free       (LatentFollowUpdate      *update);
/* Whether the run it came from ended without saying so: its process, on
 * this machine, is gone (a writer elsewhere cannot be asked). */
gboolean            latent_follow_update_writer_gone (const LatentFollowUpdate *update);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentFollowWriter, latent_follow_writer_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentFollowUpdate, latent_follow_update_free)

G_END_DECLS
