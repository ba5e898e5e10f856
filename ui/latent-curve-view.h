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
/* Values arrive in iteration order: 1, 2, 3, … */
void       latent_curve_view_append     (LatentCurveView *self,
                                         double           value);
/* The iteration shown in the figure, marked on the curve (0: none). */
void       latent_curve_view_set_marker (LatentCurveView *self,
                                         guint            iteration);

G_END_DECLS
