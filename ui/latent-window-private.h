/* latent-window-private.h — what the window's files share
 *
 * The window is split by job: latent-window.c (set-up, status line, errors),
 * latent-window-run.c (the run, its controls and the timeline),
 * latent-window-files.c (datasets, devices, export and experiments) and
 * latent-window-filter.c (what convolution adds: the split, the kernel
 * editor, the filtered image saved).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-window.h"

#include "latent-cl.h"
#include "latent-curve-view.h"
#include "latent-figure-view.h"
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

  GSettings             *settings;
  LatentDataset         *dataset;
  char                  *dataset_spec;
  GCancellable          *loading;

  const LatentAlgorithm *algorithm;
  LatentParams          *params;
  LatentCl              *cl;
  char                  *device;        /* auto, cpu, gpu or off */
  char                  *device_name;   /* what runs, for the status line */

  LatentRun             *run;
  gboolean               running;       /* play was pressed, not paused since */
  GPtrArray             *frames;        /* LatentSnapshot, by iteration */
  gsize                  frames_bytes;
  gboolean               follow;        /* the timeline is at the newest frame */
  gboolean               scrubbing;     /* setting the timeline from code */
  guint                  iterations;    /* delivered so far */
  gint64                 rate_time;
  guint                  rate_iterations;
  double                 rate;
  char                  *run_message;   /* converged, stopped, failed… */
  /* A new run of an instant algorithm: the last picture stays until the
   * first new pass replaces it, so an edit does not flash the original. */
  gboolean               holding;
  gboolean               splitting;     /* setting the split controls from code */

  /* The figures the View drop-down offers for the snapshot shown. */
  LatentFigureKind       view_kinds[LATENT_FIGURE_N_KINDS];
  guint                  n_view_kinds;
  gboolean               listing_views; /* filling the drop-down from code */
};

/* latent-window.c */
void            _latent_window_show_error          (LatentWindow *self,
                                                    const char   *message);
void            _latent_window_update_status       (LatentWindow *self);
void            _latent_window_update_metrics      (LatentWindow *self);
void            _latent_window_update_actions      (LatentWindow *self);
LatentSnapshot *_latent_window_shown_frame         (LatentWindow *self);

/* latent-window-run.c */
void            _latent_window_init_run            (LatentWindow *self);
void            _latent_window_start_run           (LatentWindow *self,
                                                    gboolean      play);
/* After a change of data, algorithm, parameters or device: a new run,
 * playing if @play or the algorithm is instant. */
void            _latent_window_restart             (LatentWindow *self,
                                                    gboolean      play);
void            _latent_window_on_params_changed   (LatentWindow *self);
void            _latent_window_on_timeline_changed (LatentWindow *self);
void            _latent_window_on_speed_changed    (LatentWindow *self);

/* latent-window-filter.c */
void            _latent_window_init_filter         (LatentWindow *self);
/* Runs so quick that an edit runs them to the end (convolution). */
gboolean        _latent_window_is_instant          (LatentWindow *self);
/* The filter bar follows the algorithm and the figure shown. */
void            _latent_window_update_filter_bar   (LatentWindow *self);
/* " · pass 3 of 5 · Separable · 2.05 ms per pass" */
void            _latent_window_append_filter_status (LatentWindow   *self,
                                                    LatentSnapshot *frame,
                                                    GString        *text);
void            _latent_window_append_filter_metrics (LatentWindow  *self,
                                                    LatentSnapshot *frame,
                                                    GString        *text);
void            _latent_window_on_split_changed    (LatentWindow *self);
void            _latent_window_on_actual_size      (LatentWindow *self);

/* latent-window-files.c */
void            _latent_window_init_files          (LatentWindow *self);
void            _latent_window_set_device          (LatentWindow *self,
                                                    const char   *device);
void            _latent_window_update_recent_menu  (LatentWindow *self);

G_END_DECLS
