/* latent-run.h — one algorithm running on a dataset, in a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

typedef enum {
  LATENT_RUN_INITIALISING,
  LATENT_RUN_PAUSED,
  LATENT_RUN_RUNNING,
  LATENT_RUN_FINISHED,   /* converged or out of iterations */
  LATENT_RUN_STOPPED,    /* stopped by request */
  LATENT_RUN_FAILED,
} LatentRunState;

#define LATENT_TYPE_RUN (latent_run_get_type ())
G_DECLARE_FINAL_TYPE (LatentRun, latent_run, LATENT, RUN, GObject)

/* The worker starts at once and initialises; it then waits for play or step.
 * Signals are emitted in the thread-default main context of the caller:
 *   ::iteration (LatentIterationRecord *) — every iteration, in order;
 *   ::snapshot (LatentSnapshot *)         — the newest state, at most once per
 *                                           main-context dispatch, always the last;
 *   ::finished (GError *)                 — once, NULL error unless it failed. */
LatentRun             *latent_run_new          (const LatentAlgorithm *algorithm,
                                                LatentDataset         *dataset,
                                                LatentParams          *params,
                                                guint64                seed,
                                                LatentCl              *cl);
/* The same run, gone on to @iteration before its first snapshot (it
 * replays that far unseen; the history has every iteration): to go on from
 * an iteration of an earlier run with the same seed and parameters, or
 * with a larger iteration budget. It stops early where the run converges. */
LatentRun             *latent_run_new_at       (const LatentAlgorithm *algorithm,
                                                LatentDataset         *dataset,
                                                LatentParams          *params,
                                                guint64                seed,
                                                LatentCl              *cl,
                                                guint                  iteration);
/* A run computed elsewhere: `latent-cli run … --follow DIR` writes its
 * run file (latent-follow.h) at @path, and this one reads it as it
 * changes, giving the same signals as a run computed here, until the file
 * says the run ended; a writer on this machine that died fails it. Play,
 * pause and step do nothing; stop stops following. */
LatentRun             *latent_run_new_following (const LatentAlgorithm *algorithm,
                                                 LatentDataset         *dataset,
                                                 LatentParams          *params,
                                                 guint64                seed,
                                                 const char            *path);
void                   latent_run_play         (LatentRun             *self);
void                   latent_run_pause        (LatentRun             *self);
void                   latent_run_step         (LatentRun             *self);
void                   latent_run_stop         (LatentRun             *self);
/* The algorithm's pace units per second (iterations, or epochs where it
 * has pace_steps); 0 means as fast as possible. */
void                   latent_run_set_speed    (LatentRun             *self,
                                                double                 per_second);
/* Iterations in one pace unit: 1 until the run has initialised. */
guint                  latent_run_get_pace_steps (LatentRun           *self);
LatentRunState         latent_run_get_state    (LatentRun             *self);
LatentSnapshot        *latent_run_get_snapshot (LatentRun             *self);
/* Records delivered so far, in iteration order. */
const GArray          *latent_run_get_history  (LatentRun             *self);
double                 latent_run_get_init_ms  (LatentRun             *self);

G_END_DECLS
