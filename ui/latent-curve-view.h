/* latent-curve-view.h — the objective of every iteration as a line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LATENT_TYPE_CURVE_VIEW (latent_curve_view_get_type ())
G_DECLARE_FINAL_TYPE (LatentCurveView, latent_curve_view, LATENT, CURVE_VIEW, GtkWidget)

GtkWidget *latent_curve_view_new        (void);
void       latent_curve_view_clear      (LatentCurveView *self,
                                         const char      *name);
/* The value the initialisation left (iteration 0), drawn before the
 * first iteration's; at any time after latent_curve_view_clear (). A value
 * that is not finite (a model with none before its first step) is left out. */
void       latent_curve_view_set_initial (LatentCurveView *self,
                                          double           value);
/* Values arrive in iteration order: 1, 2, 3, … The view shows itself once
 * it has two finite values, and hides while it has fewer. */
void       latent_curve_view_append     (LatentCurveView *self,
                                         double           value);
/* The iteration shown in the figure, marked on the curve, and the value
 * the strip reads out while the pointer is elsewhere. */
void       latent_curve_view_set_marker (LatentCurveView *self,
                                         guint            iteration);
/* Keeps the values up to @iteration (the initialisation's among them):
 * a run going on from an earlier iteration replays the rest. */
void       latent_curve_view_truncate   (LatentCurveView *self,
                                         guint            iteration);
/* On the figures' dark background (the "dark" property): the window
 * binds it to the style's. */
void       latent_curve_view_set_dark   (LatentCurveView *self,
                                         gboolean         dark);

G_END_DECLS
