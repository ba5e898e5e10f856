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

/* The product's tuning job (see LatentTuneJob). */
extern const LatentTuneJob latent_gemm_tune_job;

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

/* The same for an integer A (|A| ≤ 255) given as P, kp × n row pairs:
 * P[p][j] holds A[2p][j] in its low 16 bits and A[2p + 1][j] in its high
 * 16 bits (signed; a missing last row is 0). Only where
 * latent_gemm_has_pairs () (which builds the kernel on its first call): on
 * a CPU with AVX-512BW it runs about 1.4 times as fast as the float form
 * (about 2 times with AVX512-VNNI), and the products are exact. */
gboolean    latent_gemm_has_pairs  (LatentGemm        *self);
const char *latent_gemm_pairs_form (LatentGemm        *self);
gboolean    latent_gemm_syrk_pairs (LatentGemm        *self,
                                    cl_command_queue   queue,
                                    guint              n,
                                    guint              kp,
                                    float              alpha,
                                    cl_mem             p,
                                    gsize              ldp,
                                    float              beta,
                                    cl_mem             c,
                                    gsize              ldc,
                                    GCancellable      *cancellable,
                                    GError           **error);

/* The upper triangle (i ≤ j; below it C holds partial sums) of Sᵀ (S + 128)
 * for an integer S (−128 ≤ S ≤ 127) given as Q, kq × n row quads: Q[p][j]
 * holds S[4p … 4p + 3][j] as signed bytes, row 4p lowest (a missing row
 * is 0). C is n × n int64 with leading dimension
 * ldc, and exact. Only where latent_gemm_has_quads (): a CPU with
 * AVX512-VNNI, about twice as fast as the row pairs. */
gboolean    latent_gemm_has_quads  (LatentGemm        *self);
gboolean    latent_gemm_syrk_quads (LatentGemm        *self,
                                    cl_command_queue   queue,
                                    guint              n,
                                    guint              kq,
                                    cl_mem             q,
                                    gsize              ldq,
                                    cl_mem             c,
                                    gsize              ldc,
                                    GCancellable      *cancellable,
                                    GError           **error);

G_END_DECLS
