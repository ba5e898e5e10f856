/* latent-gemm.c — the float32 matrix product on the OpenCL device: shapes, slices, launches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-gemm"

#include "latent-gemm.h"

#include <glib/gi18n-lib.h>

/* The kernel's micro tile and depth block (kernels/gemm.cl), passed as
 * build options so the host's tile arithmetic and the kernel's agree. The
 * macro tile (mt × nt micro tiles) is a kernel argument, chosen per call.
 * Rows per micro tile: 2·MR float16 accumulators must stay in registers,
 * so 12 where a float16 is one register (AVX-512: 32 of them; 5 % faster
 * on the PCA covariance than 6), else 6. */
#define GEMM_MR_WIDE 12
#define GEMM_MR 6
#define GEMM_NR 32
#define GEMM_KC 128

/* Bytes of A and B one launch may touch: a slice of the depth that stays in
 * a CPU's last-level cache while every macro tile passes over it. */
#define GEMM_SLICE_BYTES (12u << 20)

struct _LatentGemm
{
  LatentCl  *cl;
  cl_kernel  tiles;
  cl_kernel  transpose;
  cl_kernel  mirror;
  gboolean   cpu;
  guint      compute_units;
  guint      mr;
};

void
latent_gemm_free (LatentGemm *self)
{
  if (self == NULL)
    return;
  if (self->tiles)
    clReleaseKernel (self->tiles);
  if (self->transpose)
    clReleaseKernel (self->transpose);
  if (self->mirror)
    clReleaseKernel (self->mirror);
  g_clear_object (&self->cl);
  g_free (self);
}

LatentGemm *
latent_gemm_new (LatentCl  *cl,
                 GError   **error)
{
  g_autoptr(LatentGemm) self = NULL;
  g_autofree char *options = NULL;
  cl_uint width = 0;

  g_return_val_if_fail (LATENT_IS_CL (cl), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (LatentGemm, 1);
  self->cl = g_object_ref (cl);
  self->cpu = (latent_cl_get_info (cl)->type & CL_DEVICE_TYPE_CPU) != 0;
  self->compute_units = MAX (1, latent_cl_get_info (cl)->compute_units);
  self->mr = GEMM_MR;
  if (self->cpu &&
      clGetDeviceInfo (latent_cl_get_device (cl), CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof width, &width,
                       NULL) == CL_SUCCESS && width >= 16)
    self->mr = GEMM_MR_WIDE;
  options = g_strdup_printf ("-DMR=%u -DKC=%d", self->mr, GEMM_KC);
  if (!(self->tiles = latent_cl_create_kernel (cl, "gemm", options, "gemm_tiles", error)) ||
      !(self->transpose = latent_cl_create_kernel (cl, "gemm", options, "gemm_transpose", error)) ||
      !(self->mirror = latent_cl_create_kernel (cl, "gemm", options, "gemm_mirror", error)))
    return NULL;
  return g_steal_pointer (&self);
}

/* A ROWS × COLS matrix with leading dimension LD must fit in BUFFER. */
static gboolean
check_matrix (cl_mem       buffer,
              const char  *what,
              guint        rows,
              guint        cols,
              gsize        ld,
              const char  *ld_name,
              GError     **error)
{
  gsize size = 0, need;
  cl_int err;

  if (buffer == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Matrix product: %s is missing"), what);
      return FALSE;
    }
  if (ld < cols)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Matrix product: %s = %zu is smaller than the %u columns of %s"),
                   ld_name, (size_t) ld, cols, what);
      return FALSE;
    }
  err = clGetMemObjectInfo (buffer, CL_MEM_SIZE, sizeof size, &size, NULL);
  if (!latent_cl_check (err, "clGetMemObjectInfo", "gemm", error))
    return FALSE;
  need = ((gsize) (rows - 1) * ld + cols) * sizeof (float);
  if (rows > 0 && cols > 0 && need > size)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Matrix product: %s (%u × %u, %s = %zu) needs %zu bytes, its buffer holds %zu"),
                   what, rows, cols, ld_name, (size_t) ld, (size_t) need, (size_t) size);
      return FALSE;
    }
  return TRUE;
}

static gboolean
enqueue (LatentGemm        *self,
         cl_command_queue   queue,
         cl_kernel          kernel,
         const char        *name,
         guint              dims,
         const gsize       *global,
         GError           **error)
{
  const gsize one = 1;
  cl_int err;

  /* gemm_tiles runs in groups of one: each work-item packs its own strip
   * of B in local memory, and a CPU device runs a group on one thread, so
   * single-item groups spread the (few, long) tiles over every core. The
   * element-wise 2-D kernels leave the group size to the driver. */
  err = clEnqueueNDRangeKernel (queue, kernel, dims, NULL, global, dims == 1 ? &one : NULL,
                                0, NULL, NULL);
  return latent_cl_check (err, "clEnqueueNDRangeKernel", name, error);
}

/* The product with B already k × n; UPPER computes only what touches i ≤ j. */
static gboolean
run_tiles (LatentGemm        *self,
           cl_command_queue   queue,
           guint              m,
           guint              n,
           guint              k,
           float              alpha,
           cl_mem             a,
           guint64            a_r,
           guint64            a_k,
           cl_mem             b,
           guint64            ldb,
           float              beta,
           cl_mem             c,
           guint64            ldc,
           gboolean           upper,
           GCancellable      *cancellable,
           GError           **error)
{
  const guint nt = 4, upper_arg = upper;
  guint mt = 8, tiles_m, tiles_n;
  gsize global;
  guint64 reused;
  guint slice, k0 = 0;

  /* Macro tiles of 48 × 128, lower when that leaves fewer than eight per
   * compute unit (the cores would wait on the last one). */
  for (;;)
    {
      tiles_m = (m + self->mr * mt - 1) / (self->mr * mt);
      tiles_n = (n + GEMM_NR * nt - 1) / (GEMM_NR * nt);
      if (mt == 1 || (guint64) tiles_m * tiles_n >= 8 * self->compute_units)
        break;
      mt /= 2;
    }
  global = (gsize) tiles_m * tiles_n;

  /* Only an operand that several macro tiles read is worth keeping in the
   * cache: A's rows when there are several tile columns, B's columns when
   * there are several tile rows. */
  reused = (tiles_n > 1 ? (guint64) m : 0) + (tiles_m > 1 ? (guint64) n : 0);
  slice = reused ? MIN (k, GEMM_SLICE_BYTES / (reused * sizeof (float))) : k;
  slice = MAX (GEMM_KC, slice / GEMM_KC * GEMM_KC);

  /* do … while: k = 0 still launches once, to apply beta. */
  do
    {
      const guint ks = MIN (slice, k - k0);
      const float beta_slice = k0 == 0 ? beta : 1.0f;
      const guint64 a_off = (guint64) k0 * a_k, b_off = (guint64) k0 * ldb, c_off = 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!latent_cl_set_args (self->tiles, "gemm_tiles", error,
                               LATENT_CL_ARG (m), LATENT_CL_ARG (n), LATENT_CL_ARG (ks),
                               LATENT_CL_ARG (alpha), LATENT_CL_ARG (beta_slice),
                               LATENT_CL_ARG (a), LATENT_CL_ARG (a_off), LATENT_CL_ARG (a_r), LATENT_CL_ARG (a_k),
                               LATENT_CL_ARG (b), LATENT_CL_ARG (b_off), LATENT_CL_ARG (ldb),
                               LATENT_CL_ARG (c), LATENT_CL_ARG (c_off), LATENT_CL_ARG (ldc),
                               LATENT_CL_ARG (mt), LATENT_CL_ARG (nt),
                               LATENT_CL_ARG (tiles_n), LATENT_CL_ARG (upper_arg),
                               LATENT_CL_ARG_END) ||
          !enqueue (self, queue, self->tiles, "gemm_tiles", 1, &global, error))
        return FALSE;
      k0 += ks;
    }
  while (k0 < k);
  return TRUE;
}

gboolean
latent_gemm_run (LatentGemm        *self,
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
                 GError           **error)
{
  cl_mem bt = NULL;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (queue != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (m == 0 || n == 0)
    return TRUE;
  if ((k > 0 && (!check_matrix (a, "A", trans_a ? k : m, trans_a ? m : k, lda, "lda", error) ||
                 !check_matrix (b, "B", trans_b ? n : k, trans_b ? k : n, ldb, "ldb", error))) ||
      !check_matrix (c, "C", m, n, ldc, "ldc", error))
    return FALSE;

  /* Bᵀ is copied once into a k × n buffer: the tiles read B by rows. */
  if (trans_b && k > 0)
    {
      const gsize global[2] = { n, k };
      const guint64 off = 0, ld = ldb;
      const guint rows = k, cols = n;

      if (!latent_cl_create_buffer (self->cl, &bt, CL_MEM_READ_WRITE, (gsize) k * n * sizeof (float),
                                    NULL, "Bᵀ", error))
        return FALSE;
      if (!latent_cl_set_args (self->transpose, "gemm_transpose", error,
                               LATENT_CL_ARG (b), LATENT_CL_ARG (off), LATENT_CL_ARG (ld),
                               LATENT_CL_ARG (bt), LATENT_CL_ARG (rows), LATENT_CL_ARG (cols),
                               LATENT_CL_ARG_END) ||
          !enqueue (self, queue, self->transpose, "gemm_transpose", 2, global, error))
        {
          clReleaseMemObject (bt);
          return FALSE;
        }
    }

  ok = run_tiles (self, queue, m, n, k, alpha,
                  a, trans_a ? 1 : lda, trans_a ? lda : 1,
                  bt ? bt : b, bt ? n : ldb,
                  beta, c, ldc, FALSE, cancellable, error);
  /* Released only once the queued kernels are done with it. */
  if (bt)
    clReleaseMemObject (bt);
  return ok;
}

gboolean
latent_gemm_syrk (LatentGemm        *self,
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
                  GError           **error)
{
  const gsize global[2] = { n, n };
  const guint64 off = 0, ld = ldc;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (queue != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (n == 0)
    return TRUE;
  if ((k > 0 && !check_matrix (a, "A", k, n, lda, "lda", error)) ||
      !check_matrix (c, "C", n, n, ldc, "ldc", error))
    return FALSE;
  if (!run_tiles (self, queue, n, n, k, alpha, a, 1, lda, a, lda, beta, c, ldc, TRUE, cancellable, error))
    return FALSE;
  return latent_cl_set_args (self->mirror, "gemm_mirror", error,
                             LATENT_CL_ARG (c), LATENT_CL_ARG (off), LATENT_CL_ARG (ld), LATENT_CL_ARG (n),
                             LATENT_CL_ARG_END) &&
         enqueue (self, queue, self->mirror, "gemm_mirror", 2, global, error);
}
