/* latent-session.h — what a person works on: data, an algorithm, a live run
 *
 * A session owns the dataset (with its test data), the algorithm chosen
 * and each algorithm's parameters as last set, the seed, the device, the
 * run and the snapshots its timeline can go back to, which frame is shown,
 * going on past a finished run, and the OpenCL programs built ahead in the
 * background. It knows no widget: the window binds its controls to the
 * properties below and calls the functions; a test drives it without a
 * display. Signals and notifications come in the thread-default main
 * context of the thread that made the session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"
#include "latent-frames.h"

G_BEGIN_DECLS

#define LATENT_TYPE_SESSION (latent_session_get_type ())
G_DECLARE_FINAL_TYPE (LatentSession, latent_session, LATENT, SESSION, GObject)

/* What the run shown is doing, for the status line and the actions. */
typedef enum {
  LATENT_SESSION_IDLE,          /* no run: no data, or parameters refused */
  LATENT_SESSION_INITIALISING,
  LATENT_SESSION_PAUSED,
  LATENT_SESSION_RUNNING,
  LATENT_SESSION_FINISHED,      /* converged, out of iterations, or its passes done */
  LATENT_SESSION_STOPPED,
  LATENT_SESSION_FAILED,        /* the run failed, or its parameters were refused */
} LatentSessionState;

/* Properties, each notified when it changes (read-only unless said):
 *   dataset (LatentDataset)      — the data runs work on, or NULL;
 *   algorithm (gpointer)         — the LatentAlgorithm chosen;
 *   params (gpointer)            — its LatentParams, as the person set them;
 *   seed (guint64)               — writable; the next run's;
 *   speed (double)               — writable; iterations a second, 0 as fast as possible;
 *   device (string)              — auto, cpu, gpu or off, as chosen;
 *   device-name (string)         — what runs: "PoCL: …" or "CPU reference";
 *   device-label (string)        — short, translated: "GPU", "OpenCL CPU", "CPU Reference";
 *   state (LatentSessionState)   — the run's, as an int;
 *   running (gboolean)           — Run was asked for and not paused since;
 *   shown (gpointer)             — the LatentSnapshot to show, or NULL;
 *   position (guint)             — writable: the iteration the timeline is at;
 *                                  setting it shows the frame kept for it;
 *   newest (guint)               — the newest iteration the run has reported;
 *   rate (double)                — the pace's units a second lately;
 *   end (string)                 — how the run ended: "converged", "failed"…, or NULL;
 *   init-progress (string)       — "start 3 of 30" until the first frame, or NULL;
 *   going-on-note (string)       — what the panel says while a run goes on
 *                                  past the person's values, or NULL;
 *   refusal (string)             — why the check refused the parameters, or NULL;
 *   failure (string)             — why the last run failed, or NULL;
 *   compiling (gboolean)         — a build the person waits for is under way;
 *   following (string)           — the folder of the run followed, or NULL.
 *
 * Signals:
 *   ::run-started (gboolean hold) — a new run: its frames and curve start
 *                                   afresh; @hold keeps the last picture up
 *                                   until the first new pass;
 *   ::went-on (guint from)        — a run goes on from @from: the curve is
 *                                   recorded again from its start;
 *   ::iteration (LatentIterationRecord *) — every iteration, in order;
 *   ::frame-added (LatentSnapshot *)      — a frame was kept. */
LatentSession         *latent_session_new             (void);

LatentFrames          *latent_session_get_frames      (LatentSession         *self);
LatentDataset         *latent_session_get_dataset     (LatentSession         *self);
/* The spec the dataset was loaded from, NULL for data made here. */
const char            *latent_session_get_dataset_spec (LatentSession        *self);
/* New data: a new run, and its programs built ahead. */
void                   latent_session_set_dataset     (LatentSession         *self,
                                                       LatentDataset         *dataset,
                                                       const char            *spec);
/* Test data for the dataset (NULL: hold rows out). A supervised run, the
 * only kind that reads it, starts again; any other stays. */
gboolean               latent_session_set_test_data   (LatentSession         *self,
                                                       LatentDataset         *test,
                                                       GError               **error);

const LatentAlgorithm *latent_session_get_algorithm   (LatentSession         *self);
LatentParams          *latent_session_get_params      (LatentSession         *self);
/* Chooses @algorithm with @params (NULL: its parameters as last set in
 * this session, else its defaults). The caller restarts. */
void                   latent_session_set_algorithm   (LatentSession         *self,
                                                       const LatentAlgorithm *algorithm,
                                                       LatentParams          *params);
guint64                latent_session_get_seed        (LatentSession         *self);
void                   latent_session_set_seed        (LatentSession         *self,
                                                       guint64                seed);
void                   latent_session_set_speed       (LatentSession         *self,
                                                       double                 per_second);
double                 latent_session_get_speed       (LatentSession         *self);

/* Chooses a device (auto, cpu, gpu or off). A device that is not there is
 * replaced by the best one that is, or the C reference path, and FALSE
 * says so in @error: the session goes on with what it found. */
gboolean               latent_session_set_device      (LatentSession         *self,
                                                       const char            *device,
                                                       GError               **error);
const char            *latent_session_get_device      (LatentSession         *self);
const char            *latent_session_get_device_name (LatentSession         *self);
const char            *latent_session_get_device_label (LatentSession        *self);
/* The device runs go on: NULL for the C reference path. */
LatentCl              *latent_session_get_cl          (LatentSession         *self);
/* Whether this machine has an OpenCL GPU, and an OpenCL CPU device. */
void                   latent_session_present_devices (gboolean              *gpu,
                                                       gboolean              *cpu);

/* A new run from the values the panel shows, playing if @play or the
 * algorithm is instant; an instant one over the same data keeps its last
 * picture up until the first new pass. */
void                   latent_session_restart         (LatentSession         *self,
                                                       gboolean               play);
/* Follows the run `latent-cli run … --follow @dir` writes, instead of
 * computing one: the dataset, algorithm, parameters and seed must be its
 * (its experiment.json). Any new run of the session's ends the following. */
void                   latent_session_follow          (LatentSession         *self,
                                                       const char            *dir);
/* The same on new data, @dataset loaded from @spec, with no run of the
 * session's own started on it first. */
void                   latent_session_follow_on       (LatentSession         *self,
                                                       LatentDataset         *dataset,
                                                       const char            *spec,
                                                       const char            *dir);
const char            *latent_session_get_following   (LatentSession         *self);
/* The parameters or the seed changed: a new run, playing if one was. */
void                   latent_session_edited          (LatentSession         *self);
/* The controls: Run (goes on past a finished run where it can), Pause,
 * Step (the next kept frame when scrubbed back), Back (the kept frame
 * before the one shown), Reset. */
void                   latent_session_play            (LatentSession         *self);
void                   latent_session_pause           (LatentSession         *self);
void                   latent_session_step            (LatentSession         *self);
void                   latent_session_back            (LatentSession         *self);
gboolean               latent_session_can_play        (LatentSession         *self);
gboolean               latent_session_can_pause       (LatentSession         *self);
gboolean               latent_session_can_step        (LatentSession         *self);
gboolean               latent_session_can_go_back     (LatentSession         *self);
gboolean               latent_session_is_instant      (LatentSession         *self);
gboolean               latent_session_get_running     (LatentSession         *self);
LatentSessionState     latent_session_get_state       (LatentSession         *self);

LatentSnapshot        *latent_session_get_shown       (LatentSession         *self);
guint                  latent_session_get_position    (LatentSession         *self);
void                   latent_session_set_position    (LatentSession         *self,
                                                       guint                  iteration);
guint                  latent_session_get_newest      (LatentSession         *self);
double                 latent_session_get_rate        (LatentSession         *self);
const char            *latent_session_get_end         (LatentSession         *self);
const char            *latent_session_get_init_progress (LatentSession       *self);
const char            *latent_session_get_going_on_note (LatentSession       *self);
const char            *latent_session_get_refusal     (LatentSession         *self);
const char            *latent_session_get_failure     (LatentSession         *self);
gboolean               latent_session_get_compiling   (LatentSession         *self);
/* The run's iterations so far (LatentIterationRecord), and how long its
 * initialisation took; NULL and 0 without a run. */
const GArray          *latent_session_get_history     (LatentSession         *self);
double                 latent_session_get_init_ms     (LatentSession         *self);

/* Stops the run and the builds ahead, and waits for their threads: at most
 * a build under way, which OpenCL cannot interrupt. Dispose does it too;
 * a window calls it once it is off the screen. */
void                   latent_session_shutdown        (LatentSession         *self);

G_END_DECLS
