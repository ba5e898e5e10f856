/* latent-window-private.h — what the window's files share
 *
 * The window is split by job: latent-window.c (the core: the state, set-up,
 * the status line, errors, which actions apply), latent-window-run.c (the
 * run, its controls and the timeline), latent-window-files.c (datasets,
 * devices, export and experiments) and latent-window-filter.c (what a filter
 * adds: the split, the kernel editor, the filtered image saved).
 *
 * Calls point one way, so each part can be read, and changed, alone: the
 * three parts call only functions of latent-window.c (the first block
 * below), never each other; latent-window.c calls into the parts through
 * the blocks after it. A part that needs another's work asks the core,
 * which passes it on (a restart: the core decides, the run part runs).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-window.h"

#include "latent-cl.h"
#include "latent-curve-view.h"
#include "latent-figure-view.h"
#include "latent-frames.h"
#include "latent-param-panel.h"
#include "latent-run.h"

G_BEGIN_DECLS

struct _LatentWindow
{
  GtkApplicationWindow   parent_instance;

  /* Template widgets */
  GtkMenuButton         *dataset_button;
  GtkDropDown           *algorithm_dropdown;
  GtkDropDown           *view_dropdown;
  GtkMenuButton         *device_button;
  GtkInfoBar            *error_bar;
  GtkLabel              *error_label;
  LatentParamPanel      *param_panel;
  GtkSpinButton         *seed_spin;
  GtkLabel              *metrics_label;
  LatentFigureView      *figure_view;
  LatentCurveView       *curve_view;
  GtkScale              *speed_scale;
  GtkCheckButton        *fast_check;
  GtkScale              *timeline;
  GtkAdjustment         *timeline_adjustment;
  GtkLabel              *status_label;
  GMenu                 *recent_section;
  GtkWidget             *filter_bar;
  GtkCheckButton        *split_check;
  GtkScale              *split_scale;
  GtkAdjustment         *split_adjustment;
  GtkWidget             *axes_grid;
  GtkDropDown           *across_dropdown;
  GtkDropDown           *up_dropdown;

  GSettings             *settings;
  LatentDataset         *dataset;
  char                  *dataset_spec;
  GCancellable          *loading;

  const LatentAlgorithm *algorithm;
  LatentParams          *params;
  /* Each algorithm's parameters as last set, kept while the window is open. */
  GHashTable            *kept_params;   /* LatentAlgorithm → LatentParams */
  /* What the run goes on with past its tolerance or budget (Run on a
   * finished run): the panel's params stay as the person set them. */
  LatentParams          *going_on;
  LatentCl              *cl;
  char                  *device;        /* auto, cpu, gpu or off */
  char                  *device_name;   /* what runs, for the status line */

  LatentRun             *run;
  GPtrArray             *retired_runs;  /* LatentRun replaced, still stopping */
  gboolean               running;       /* play was pressed, not paused since */
  /* The snapshots the timeline can go back to, their budget, and whether
   * the timeline follows the newest (engine/run/latent-frames.c). */
  LatentFrames          *ring;
  gboolean               scrubbing;     /* setting the timeline from code */
  guint                  iterations;    /* delivered so far */
  gint64                 rate_time;
  guint                  rate_iterations;
  double                 rate;
  char                  *run_message;   /* converged, stopped, failed… */
  char                  *init_progress; /* "start 3 of 30", until the first frame */
  /* A new run of an instant algorithm: the last picture stays until the
   * first new pass replaces it, so an edit does not flash the original. */
  gboolean               holding;
  gboolean               splitting;     /* setting the split controls from code */
  /* The error bar says why the algorithm's check refused the parameters:
   * it goes when a change makes them fit. */
  gboolean               params_refused;
  gboolean               error_from_run;   /* the error bar shows a run's failure */

  /* Building the OpenCL programs of every algorithm in the background
   * (latent-window-run.c), so that no first run waits for the compiler:
   * the current job, and earlier ones cancelled but not yet joined. */
  struct _LatentPrecompile *precompile;
  GPtrArray             *precompiles_stopping;
  LatentCl              *precompiled_cl;    /* not a reference: only compared */
  guint                  precompiled_cols;
  guint                  compiling_watch;   /* a timeout while builds may be under way */
  gboolean               compiling;         /* the status says "compiling kernels…" */

  /* The figures the View drop-down offers for the snapshot shown. */
  LatentFigureKind       view_kinds[LATENT_FIGURE_N_KINDS];
  guint                  n_view_kinds;
  gboolean               listing_views; /* filling the drop-down from code */
};

/* latent-window.c: what the parts may call */
void            _latent_window_show_error          (LatentWindow *self,
                                                    const char   *message);
void            _latent_window_update_status       (LatentWindow *self);
void            _latent_window_update_metrics      (LatentWindow *self);
void            _latent_window_update_actions      (LatentWindow *self);
LatentSnapshot *_latent_window_shown_frame         (LatentWindow *self);
/* Runs so quick that an edit runs them to the end (convolution). */
gboolean        _latent_window_is_instant          (LatentWindow *self);
/* Whether the algorithm's check takes the parameters for the dataset; if
 * not, the error bar says why. */
gboolean        _latent_window_check_params        (LatentWindow *self);
/* A new algorithm with its parameters; the caller starts the new run. */
void            _latent_window_set_algorithm       (LatentWindow          *self,
                                                    const LatentAlgorithm *algorithm,
                                                    LatentParams          *params);
/* After a change of data, algorithm, parameters or device: a new run,
 * playing if @play or the algorithm is instant. */
/* Makes @dataset the window's data; @spec reloads it (NULL for data made
 * in the window, which is not remembered). */
void            _latent_window_install_dataset     (LatentWindow  *self,
                                                    LatentDataset *dataset,
                                                    const char    *spec);
/* The data or the device changed: a new run, and its programs built. */
void            _latent_window_setup_changed       (LatentWindow *self,
                                                    gboolean      play);
/* Test data for the dataset shown (NULL: hold rows out); errors show. */
void            _latent_window_set_test_data       (LatentWindow  *self,
                                                    LatentDataset *test);
void            _latent_window_restart             (LatentWindow *self,
                                                    gboolean      play);
void            _latent_window_on_params_changed   (LatentWindow *self);

/* After a new dataset or device: builds the programs runs will ask for on
 * a worker thread, the selected algorithm's first, then the others'. */
void            _latent_window_precompile          (LatentWindow *self);
/* Whether a build the person waits for is under way: the selected
 * algorithm's programs, or a run still initialising. */
gboolean        _latent_window_is_compiling        (LatentWindow *self);
/* Watches for such builds while any may be under way, for the status. */
void            _latent_window_watch_compiling     (LatentWindow *self);
/* Cancels the precompiling and waits for its threads: at most the builds
 * under way (OpenCL cannot interrupt one). For the window's dispose. */
void            _latent_window_stop_precompile     (LatentWindow *self);

/* latent-window-run.c: called by latent-window.c only */
void            _latent_window_init_run            (LatentWindow *self);
/* Whether Run or Step can go on from the iteration shown (scrubbed back,
 * or stopped at the iteration budget), and from which. */
gboolean        _latent_window_can_go_on           (LatentWindow *self,
                                                    guint        *from);
/* Whether the timeline holds a frame before the one shown. */
gboolean        _latent_window_can_go_back         (LatentWindow *self);
/* A new run; @hold keeps the picture shown until its first new frame. */
void            _latent_window_run_start           (LatentWindow *self,
                                                    gboolean      play,
                                                    gboolean      hold);
void            _latent_window_on_timeline_changed (LatentWindow *self);
void            _latent_window_on_speed_changed    (LatentWindow *self);

/* latent-window-filter.c: called by latent-window.c only */
void            _latent_window_init_filter         (LatentWindow *self);
/* The filter bar follows the algorithm and the figure shown. */
void            _latent_window_update_filter_bar   (LatentWindow *self);
/* " · pass 3 of 5 · Separable · 2.05 ms per pass" */
void            _latent_window_append_filter_status (LatentWindow   *self,
                                                    LatentSnapshot *frame,
                                                    GString        *text);
void            _latent_window_on_split_changed    (LatentWindow *self);
void            _latent_window_on_actual_size      (LatentWindow *self);

/* latent-window-files.c: called by latent-window.c only */
void            _latent_window_init_files          (LatentWindow *self);
/* Remembers @spec as the last and a recent dataset. */
void            _latent_window_remember_dataset    (LatentWindow *self,
                                                    const char   *spec);
/* latent-window-features.c */
void            _latent_window_init_features       (LatentWindow *self);
gboolean        _latent_window_can_use_features    (LatentWindow *self);
/* Lets the run go (it stops within an iteration, unseen). */
void            _latent_window_retire_run          (LatentWindow *self);
void            _latent_window_update_recent_menu  (LatentWindow *self);
/* Takes out of the Device menu the kinds of device this machine lacks. */
void            _latent_window_offer_devices       (LatentWindow *self);

G_END_DECLS
