/* latent-tune.h — the tuner: each kernel's tunables tried on this device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "latent-cl.h"

G_BEGIN_DECLS

typedef struct {
  const char *program;   /* "gmm" */
  const char *setting;   /* "TILE=128 GROUP=64", or "defaults" */
  double      ms;        /* the workload's median time per step; 0 when it failed */
  gboolean    correct;   /* agrees with the defaults' result */
  const char *failure;   /* why it did not run (a build error, …), or NULL */
} LatentTuneTrial;

typedef void (*LatentTuneFunc) (const LatentTuneTrial *trial,
                                gpointer               user_data);

/* For each program (ONLY: one of them, or NULL for all), times a workload
 * with the shape's defaults and with each setting of a small grid of its
 * tunables, keeps the fastest setting whose result agrees with the
 * defaults' and saves it for this device (latent_cl_save_tunables), so later
 * runs use it. QUICK: smaller workloads, for tests. REPORT sees every trial,
 * then once more the chosen one. */
gboolean latent_tune_run (LatentCl        *cl,
                          const char      *only,
                          gboolean         quick,
                          LatentTuneFunc   report,
                          gpointer         user_data,
                          GCancellable    *cancellable,
                          GError         **error);

G_END_DECLS
