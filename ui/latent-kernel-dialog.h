/* latent-kernel-dialog.h — type the weights of a convolution kernel of your own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "latent-filter.h"

G_BEGIN_DECLS

#define LATENT_TYPE_KERNEL_DIALOG (latent_kernel_dialog_get_type ())
G_DECLARE_FINAL_TYPE (LatentKernelDialog, latent_kernel_dialog, LATENT, KERNEL_DIALOG, GtkWindow)

/* Starts from @filter (its X kernel for a gradient magnitude), or from a
 * 3 × 3 identity when NULL. ::applied (const char *path) when the person
 * applies a kernel: by then it is in a kernel file (latent-filter.h) at
 * path, and the dialog closes. */
GtkWidget    *latent_kernel_dialog_new        (GtkWindow          *parent,
                                               const LatentFilter *filter);
/* The kernel as typed; NULL with the error the dialog shows (a weight that
 * is not a number, an even size, a zero sum to normalise by…). */
LatentFilter *latent_kernel_dialog_get_filter (LatentKernelDialog *self,
                                               GError            **error);
/* @filter in the kernel file format under the user's cache directory,
 * named after its contents, so the same kernel is one file; the path. */
char         *latent_kernel_file_save         (const LatentFilter *filter,
                                               GError            **error);

G_END_DECLS
