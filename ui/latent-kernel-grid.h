/* latent-kernel-grid.h — a convolution kernel as a heat map of its weights
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LATENT_TYPE_KERNEL_GRID (latent_kernel_grid_get_type ())
G_DECLARE_FINAL_TYPE (LatentKernelGrid, latent_kernel_grid, LATENT, KERNEL_GRID, GtkWidget)

/* ::edit (const char *text) when a person starts typing on the grid: the
 * text typed so far, for the weight's entry to take over. ::clear-weight
 * for Delete. The "selected" property is the selected cell, row-major. */
GtkWidget    *latent_kernel_grid_new          (void);
/* @size × @size weights, row-major; the selection stays where it fits. */
void          latent_kernel_grid_set_weights  (LatentKernelGrid *self,
                                               guint             size,
                                               const double     *weights);
guint         latent_kernel_grid_get_selected (LatentKernelGrid *self);
void          latent_kernel_grid_set_selected (LatentKernelGrid *self,
                                               guint             cell);
/* Cell @cell's text in the grid's one number format (every cell the same
 * decimals, a shared power of ten in latent_kernel_grid_dup_scale ()). */
char         *latent_kernel_grid_dup_cell_text (LatentKernelGrid *self,
                                                guint             cell);
/* "" or "× 10⁻⁴": the power of ten every cell's text is in. */
char         *latent_kernel_grid_dup_scale    (LatentKernelGrid *self);
/* Whether the cells are large enough to print their values; their
 * colours and the tooltip say the rest. */
gboolean      latent_kernel_grid_get_shows_values (LatentKernelGrid *self);

G_END_DECLS
