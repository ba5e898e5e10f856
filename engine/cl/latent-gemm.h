/* latent-gemm.h — a reusable float32 matrix product on the OpenCL device
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "latent-cl.h"

G_BEGIN_DECLS

/* Holds the built kernels. Kernel arguments are per object, so use one
 * LatentGemm per thread. */
typedef struct _LatentGemm LatentGemm;

LatentGemm *latent_gemm_new  (LatentCl          *cl,
                              GError           **error);
void        latent_gemm_free (LatentGemm        *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentGemm, latent_gemm_free)

/* C = alpha · op(A) · op(B) + beta · C on row-major float32 device buffers:
 * op(A) is m × k (A is k × m when TRANS_A), op(B) is k × n (B is n × k when
 * TRANS_B), C is m × n; LDA, LDB, LDC count elements between rows. With
 * beta = 0, C is not read. The work is enqueued on QUEUE (in order);
 * the call returns without waiting. CANCELLABLE is checked between launches. */
gboolean    latent_gemm_run  (LatentGemm        *self,
                              cl_command_queue   queue,
                              gboolean           trans_a,
                              gboolean           trans_b,
                              guint              m,
                              guint              n,
                              guint              k,
                              float              alpha,
                              cl_mem             a,
                              gsize              lda,
                              cl_mem             b,
                              gsize              ldb,
                              float              beta,
                              cl_mem             c,
                              gsize              ldc,
                              GCancellable      *cancellable,
                              GError           **error);

/* The Gram (covariance) form: C = alpha · Aᵀ · A + beta · C with A k × n and
 * C n × n. Only the upper triangle is computed (beta applies to it); the
 * lower triangle is then copied from it, so C comes out symmetric. */
gboolean    latent_gemm_syrk (LatentGemm        *self,
                              cl_command_queue   queue,
                              guint              n,
                              guint              k,
                              float              alpha,
                              cl_mem             a,
                              gsize              lda,
                              float              beta,
                              cl_mem             c,
                              gsize              ldc,
                              GCancellable      *cancellable,
                              GError           **error);

G_END_DECLS
