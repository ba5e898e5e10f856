/* latent-param-panel.h — controls built from an algorithm's parameter specs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "latent-algorithm.h"

G_BEGIN_DECLS

#define LATENT_TYPE_PARAM_PANEL (latent_param_panel_get_type ())
G_DECLARE_FINAL_TYPE (LatentParamPanel, latent_param_panel, LATENT, PARAM_PANEL, GtkWidget)

GtkWidget    *latent_param_panel_new        (void);
/* Shows a control per parameter; edits go into params, then ::changed. */
void          latent_param_panel_set_params (LatentParamPanel *self,
                                             LatentParams     *params);
/* The numbers go no further than @algorithm's check takes for @dataset
 * (k up to the rows, components up to the columns), the other values as
 * shown; a value already past that stays, for the check to name. NULL
 * for either: the specs' bounds alone. Follows every later set_params. */
void          latent_param_panel_set_limits (LatentParamPanel      *self,
                                             const LatentAlgorithm *algorithm,
                                             LatentDataset         *dataset);
/* A line under the controls about the run rather than the values (it goes
 * on past them); NULL takes it away. New parameters take it away too. */
void          latent_param_panel_set_note   (LatentParamPanel *self,
                                             const char       *note);
/* A choice parameter @name that takes "@PATH" also offers @label, which
 * emits ::edit (const char *name) for the window to open its editor; a
 * value naming a file in @dir (may be NULL) shows as that item. Takes
 * effect on the next new parameters. */
void          latent_param_panel_add_editor (LatentParamPanel *self,
                                             const char       *name,
                                             const char       *label,
                                             const char       *dir);

G_END_DECLS
