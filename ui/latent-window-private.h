/* latent-window-private.h — what the window's files share
 *
 * The state is the session's (engine/run/latent-session.c): the data, the
 * algorithm and its parameters, the device, the run, its frames and which
 * one is shown. The window shows it and passes the person's choices on;
 * its files are split by job: latent-window.c (the core: set-up, the
 * status line, the metrics, errors, which actions apply, the views),
 * latent-window-run.c (the run's controls, the timeline and the curve),
 * latent-window-files.c (datasets, devices, export and experiments),
 * latent-window-features.c (test data, Use Its Features) and
 * latent-window-filter.c (what a filter adds: the split, the kernel
 * editor, the filtered image saved).
 *
 * Each part listens to the session for what it shows and calls the
 * session for what the person asks; the functions below are all the parts
 * share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-window.h"

#include "latent-curve-view.h"
#include "latent-experiment.h"
#include "latent-figure-view.h"
#include "latent-param-panel.h"
#include "latent-run-history.h"
#include "latent-session.h"

G_BEGIN_DECLS

/* Who put the error bar up, so that it goes when that is put right. */
typedef enum {
  LATENT_WINDOW_ERROR_OTHER,     /* stays until dismissed */
  LATENT_WINDOW_ERROR_REFUSAL,   /* the check refused the parameters */
  LATENT_WINDOW_ERROR_FAILURE,   /* the run failed */
} LatentWindowError;

struct _LatentWindow
{
  AdwApplicationWindow   parent_instance;

  /* Template widgets */
  GtkMenuButton         *dataset_button;
  GtkDropDown           *algorithm_dropdown;
  GtkDropDown           *view_dropdown;
  GtkMenuButton         *device_button;
  GtkInfoBar            *error_bar;
  GtkLabel              *error_label;
  AdwToastOverlay       *toast_overlay;
  LatentParamPanel      *param_panel;
  GtkSpinButton         *seed_spin;
  GtkLabel              *metrics_label;
  LatentFigureView      *figure_view;
  LatentCurveView       *curve_view;
  GtkScale              *speed_scale;
  GtkLabel              *pace_unit_label;
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
  /* The data, the algorithm, the run and its frames: the window shows
   * them and passes the person's choices on. */
  LatentSession         *session;
  LatentRunHistory      *runs;          /* the runs since the window opened */
  GCancellable          *loading;
  /* The test data's spec, for an experiment to keep; and an opened
   * experiment's view, shown once its data has loaded. */
  char                  *test_spec;
  LatentExperiment      *pending_view;
  char                  *pending_follow;   /* a run's folder, followed once its data is there */
  LatentWindowError      error_source;
  gboolean               scrubbing;     /* setting the timeline from code */
  gboolean               pacing;        /* setting the pace's controls from code */
  gboolean               splitting;     /* setting the split controls from code */

  /* The figures the View drop-down offers for the snapshot shown. */
  LatentFigureKind       view_kinds[LATENT_FIGURE_N_KINDS];
  guint                  n_view_kinds;
  gboolean               listing_views; /* filling the drop-down from code */
};

/* latent-window.c: what the parts may call */
void            _latent_window_show_error          (LatentWindow *self,
                                                    const char   *message);
void            _latent_window_update_status       (LatentWindow *self);
/* Follows the run whose folder waits for its data (latent_window_follow). */
void            _latent_window_follow_pending      (LatentWindow *self);

/* The parts, each set up once from latent-window.c */
void            _latent_window_init_run            (LatentWindow *self);
void            _latent_window_init_files          (LatentWindow *self);
void            _latent_window_init_features       (LatentWindow *self);
void            _latent_window_init_filter         (LatentWindow *self);

/* latent-window-features.c: Use Its Features, Train a Network on It and
 * Use Its Clusters as Classes, enabled where they apply */
void            _latent_window_update_feature_actions (LatentWindow *self);

/* latent-window-filter.c: the filter bar follows the algorithm and the
 * figure shown; " · pass 3 of 5 · Separable · 2.05 ms per pass" */
void            _latent_window_update_filter_bar   (LatentWindow   *self);
void            _latent_window_append_filter_status (LatentWindow  *self,
                                                    LatentSnapshot *frame,
                                                    GString        *text);

G_END_DECLS
