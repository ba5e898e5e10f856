/* latent-figure-view.h — the live figure of a run, with zoom, pan and hover
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "latent-figure.h"
/* LATENT_TYPE_FIGURE_KIND, generated from latent-figure.h (ui/meson.build). */
#include "latent-figure-enum-types.h"

G_BEGIN_DECLS

#define LATENT_TYPE_FIGURE_VIEW (latent_figure_view_get_type ())
G_DECLARE_FINAL_TYPE (LatentFigureView, latent_figure_view, LATENT, FIGURE_VIEW, GtkWidget)

GtkWidget      *latent_figure_view_new          (void);
/* Shows a snapshot; a later iteration of the same run extends the trails. */
void            latent_figure_view_set_snapshot (LatentFigureView  *self,
                                                 LatentSnapshot    *snapshot);
LatentSnapshot *latent_figure_view_get_snapshot (LatentFigureView  *self);
/* The trails from @n earlier snapshots of the run shown, oldest first (the
 * ones the timeline kept): scrubbing back, or going on from there, keeps
 * where the centres have been. */
void            latent_figure_view_set_history  (LatentFigureView  *self,
                                                 LatentSnapshot   **earlier,
                                                 guint              n);
/* A new run or dataset: forget trails and zoom. */
void            latent_figure_view_reset        (LatentFigureView  *self);
/* Said in the middle (and as the accessible description) while there is no
 * figure: what it waits for, over @photo's image faded when not NULL (the
 * photo a classifier cannot start on). NULL for nothing. */
void            latent_figure_view_set_placeholder (LatentFigureView *self,
                                                    const char       *text,
                                                    LatentDataset    *photo);
void            latent_figure_view_set_dark     (LatentFigureView  *self,
                                                 gboolean           dark);
void            latent_figure_view_set_colour_by_class (LatentFigureView *self,
                                                        gboolean          colour_by_class);
/* The dataset's columns (from 1) across and up; 0 for the default axis. */
void            latent_figure_view_set_axis_columns (LatentFigureView *self,
                                                     guint             across,
                                                     guint             up);
/* What the view draws, for exporting exactly that. */
void            latent_figure_view_get_style    (LatentFigureView  *self,
                                                 LatentFigureStyle *style);
/* The figure to draw of each snapshot (the "kind" property); AUTO by
 * default. Zoom and pan belong to one figure, so a new kind forgets them. */
void             latent_figure_view_set_kind    (LatentFigureView  *self,
                                                 LatentFigureKind   kind);
LatentFigureKind latent_figure_view_get_kind    (LatentFigureView  *self);
/* The kind resolved against the snapshot shown: what is on screen. */
LatentFigureKind latent_figure_view_get_shown_kind (LatentFigureView *self);
/* The filter figure (the "split" property): the original left of a line at
 * this fraction of the image, the result right of it; below 0, side by
 * side. Dragging the line changes it. */
void             latent_figure_view_set_split   (LatentFigureView  *self,
                                                 double             split);
double           latent_figure_view_get_split   (LatentFigureView  *self);
/* The filter figure: one pixel of the image to one of the screen. */
void             latent_figure_view_zoom_actual (LatentFigureView  *self);
/* Whether the figure shows a part of itself (zoomed or panned): its arrow
 * keys then pan, and the window leaves them to it. */
gboolean         latent_figure_view_get_zoomed  (LatentFigureView  *self);

/* The rows ringed as selected (a copy of @rows; NULL for none); a lasso
 * (Shift-drag on a scatter) sets them and emits ::rows-selected. */
void              latent_figure_view_set_selected_rows (LatentFigureView *self,
                                                        GtkBitset        *rows);
GtkBitset        *latent_figure_view_get_selected_rows (LatentFigureView *self);

G_END_DECLS
