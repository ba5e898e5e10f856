/* latent-classifiers.c — the classifier family (logistic regression,
 * prototypes): how it does on rows it did not learn from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-classifiers"

#include "latent-family.h"

#include <glib/gi18n-lib.h>
#include <math.h>

void
latent_classifiers_describe_metrics (LatentSnapshot *snap,
                                     GString        *text)
{
  if (isfinite (snap->test_accuracy))
    g_string_append_printf (text, _("Test accuracy %.2f %% (%u rows)\n"), 100 * snap->test_accuracy, snap->n_test);
  if (isfinite (snap->train_accuracy))
    g_string_append_printf (text, _("Training accuracy %.2f %%\n"), 100 * snap->train_accuracy);
  if (snap->epoch_train_loss != NULL && snap->n_epochs > 0)
    g_string_append_printf (text, _("Training loss %.6g (epoch %u)\n"),
                            snap->epoch_train_loss[snap->n_epochs - 1], snap->n_epochs);
  if (snap->n_episodes > 0)
    g_string_append_printf (text, _("Episodes %u: mean accuracy %.2f %% ± %.2f\n"), snap->n_episodes,
                            100 * snap->episode_mean_accuracy, 100 * snap->episode_ci95);
}

void
latent_classifiers_describe_header (LatentSnapshot *snap,
                                    GString        *text)
{
  /* What a classifier is judged by: rows it did not learn from. */
  if (snap->n_test > 0 && isfinite (snap->test_accuracy))
    g_string_append_printf (text, _(" · test accuracy %.1f %% (%u rows)"), 100.0 * snap->test_accuracy, snap->n_test);
}
