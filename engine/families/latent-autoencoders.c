/* latent-autoencoders.c — the autoencoder family: the losses it trains on,
 * and its units that stopped winning
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-autoencoders"

#include "latent-family.h"

#include <glib/gi18n-lib.h>
#include <math.h>

void
latent_autoencoders_describe_metrics (LatentSnapshot *snap,
                                      GString        *text)
{
  guint epochs = snap->epoch_train_loss != NULL ? snap->n_epochs : 0;

  if (epochs > 0)
    g_string_append_printf (text, _("Training loss %.6g (epoch %u)\n"), snap->epoch_train_loss[epochs - 1], epochs);
  else if (snap->step_loss != NULL && snap->n_steps > 0)
    g_string_append_printf (text, _("Training loss %.6g (last mini-batch)\n"), snap->step_loss[snap->n_steps - 1]);
  if (isfinite (snap->reconstruction_error))
    g_string_append_printf (text, _("Validation loss %.6g\n"), snap->reconstruction_error);
  if (snap->n_components > 0 && snap->n_epochs > 0)
    g_string_append_printf (text, _("Dead units %u of %u (%.1f %%)\n"), snap->n_dead, snap->n_components,
                            100.0 * snap->n_dead / snap->n_components);
}

void
latent_autoencoders_describe_header (LatentSnapshot *snap,
                                     GString        *text)
{
  /* The last whole epoch's mean: a single mini-batch's loss jumps. */
  double train = snap->n_epochs > 0 && snap->epoch_train_loss != NULL
                 ? snap->epoch_train_loss[snap->n_epochs - 1] : snap->objective;

  if (isfinite (train))
    g_string_append_printf (text, _(" · training loss %.4g"), train);
  if (isfinite (snap->reconstruction_error))
    g_string_append_printf (text, _(" · validation loss %.4g"), snap->reconstruction_error);
}
