/* latent-window-private.h — what the window's files share
 *
 * The window is split by job: latent-window.c (set-up, status line, errors),
 * latent-window-run.c (the run, its controls and the timeline) and
 * latent-window-files.c (datasets, devices, export and experiments).
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
void            _latent_window_on_params_changed   (LatentWindow *self);
void            _latent_window_on_timeline_changed (LatentWindow *self);
void            _latent_window_on_speed_changed    (LatentWindow *self);

/* latent-window-files.c */
void            _latent_window_init_files          (LatentWindow *self);
void            _latent_window_set_device          (LatentWindow *self,
                                                    const char   *device);
void            _latent_window_update_recent_menu  (LatentWindow *self);

G_END_DECLS
