/* latent-gemm.c — the float32 matrix product on the OpenCL device: shapes, slices, launches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-gemm"

#include "latent-gemm.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* The kernel's micro tile and depth block (kernels/gemm.cl), passed as
 * build options so the host's tile arithmetic and the kernel's agree. The
 * macro tile (mt × nt micro tiles) is a kernel argument, chosen per call.
 * Rows per micro tile: 2·MR float16 accumulators must stay in registers,
 * so 12 where a float16 is one register (AVX-512: 32 of them; 5 % faster
 * on the PCA covariance than 6), else 6. Both are tunables (MR, KC): a
 * tuned value replaces the default. */
#define GEMM_MR_WIDE 12
#define GEMM_MR 6
#define GEMM_NR 32
#define GEMM_KC 128

/* Bytes of A and B one launch may touch: a slice of the depth that stays in
 * a CPU's last-level cache while every macro tile passes over it. */
#define GEMM_SLICE_BYTES (12u << 20)

/* The GPU shape's tiles (kernels/gemm.cl, gemm_groups): TSM × TSN of C per
 * work-group, the depth in blocks of TSK, WPTM × WPTN of C per work-item,
 * local memory read VW floats at a time, double-buffered with PREFETCH. */
typedef struct
{
  int tsm, tsn, tsk, wptm, wptn, vw, prefetch;
} GemmTiles;

/* 128 × 128 tiles by 256 work-items of 8 × 8 (the usual fast layout on
 * current GPUs), then smaller ones for a device or driver that cannot
 * hold them (fewer registers or work-items per group, less local memory). */
static const GemmTiles gpu_tiles[] = {
  { 128, 128, 16, 8, 8, 4, 0 },
  { 64, 64, 16, 4, 4, 4, 0 },
  { 32, 32, 16, 4, 4, 4, 0 },
};

/* Scratch for the slices of a split depth. */
#define GEMM_SPLIT_BYTES (256u << 20)
#define GEMM_SPLIT_MAX 64
/* gemm_sum's work-groups, along n by along m. */
#define GEMM_SUM_X 64
#define GEMM_SUM_Y 4

struct _LatentGemm
{
  LatentCl  *cl;
  cl_kernel  tiles;
  cl_kernel  pairs;     /* gemm_tiles of row pairs, NULL where not native */
  const char *pairs_form; /* its instruction: "vnni", "pmaddwd" or "generic" */
  gboolean   pairs_tried;
  cl_kernel  quads;     /* gemm_tiles of row quads, NULL where not native */
  gboolean   quads_tried;
  char      *pairs_mode;   /* LATENT_GEMM_PAIRS when this was made */
  cl_kernel  transpose;
  cl_kernel  mirror;
  gboolean   cpu;
  guint      compute_units;
  guint      mr;
  guint      kc;
  /* The GPU shape: gemm_groups and gemm_sum instead of gemm_tiles and
   * gemm_transpose. */
  gboolean   gpu_shape;
  cl_kernel  groups;
  cl_kernel  sum;
  GemmTiles  gt;
  guint      split;
  guint      mirror_tile;
  gboolean   sum_grouped;
  /* The slices' scratch, kept for the next product on the same queue
   * (an in-order queue runs them one after another). */
  cl_mem     scratch;
  gsize      scratch_bytes;
  cl_command_queue scratch_queue;
};

void
latent_gemm_free (LatentGemm *self)
{
  if (self == NULL)
    return;
  if (self->tiles)
    clReleaseKernel (self->tiles);
  if (self->pairs)
    clReleaseKernel (self->pairs);
  if (self->quads)
    clReleaseKernel (self->quads);
  g_free (self->pairs_mode);
  if (self->transpose)
    clReleaseKernel (self->transpose);
  if (self->mirror)
    clReleaseKernel (self->mirror);
  if (self->groups)
    clReleaseKernel (self->groups);
  if (self->sum)
    clReleaseKernel (self->sum);
  if (self->scratch)
    clReleaseMemObject (self->scratch);
  if (self->scratch_queue)
    clReleaseCommandQueue (self->scratch_queue);
  g_clear_object (&self->cl);
  g_free (self);
}

static gboolean
is_pow2 (int x)
{
  return x > 0 && (x & (x - 1)) == 0;
}

/* Whether the kernel accepts T (its #error checks, with every size a power
 * of two) and the device can hold its work-groups and local memory. */
static gboolean
gpu_tiles_fit (LatentCl        *cl,
               const GemmTiles *t)
{
  const LatentClDeviceInfo *info = latent_cl_get_info (cl);
  gsize sizes[3] = { 0, 0, 0 };
  int rtsm, rtsn;
  guint64 local;

  if (!is_pow2 (t->tsm) || !is_pow2 (t->tsn) || !is_pow2 (t->tsk) || !is_pow2 (t->wptm) ||
      !is_pow2 (t->wptn) || (t->vw != 1 && t->vw != 2 && t->vw != 4) ||
      t->wptm > t->tsm || t->wptn > t->tsn || t->vw > t->wptm || t->vw > t->wptn ||
      t->tsm > 1024 || t->tsn > 1024 || t->tsk > 256 || (t->prefetch != 0 && t->prefetch != 1))
    return FALSE;
  rtsm = t->tsm / t->wptm;
  rtsn = t->tsn / t->wptn;
  if ((t->tsm * t->tsk) % (rtsm * rtsn) != 0 || (t->tsn * t->tsk) % (rtsm * rtsn) != 0 ||
      (gsize) rtsm * rtsn > info->max_work_group_size)
    return FALSE;
  if (clGetDeviceInfo (latent_cl_get_device (cl), CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes,
                       NULL) == CL_SUCCESS && ((gsize) rtsn > sizes[0] || (gsize) rtsm > sizes[1]))
    return FALSE;
  local = (guint64) t->tsk * (t->tsm + t->tsn + 2 * t->vw) * sizeof (float);
  return local <= info->local_mem_size;
}

/* What `latent-cli tune` tries for the product (engine/latent-tune.c): a
 * 1024³ product (256³ quick), the CPU shape's register block and depth, the
 * GPU shape's tiles. */
const LatentTuneJob latent_gemm_tune_job = {
  .program = "gemm",
  .rows = 1024,
  .quick_rows = 256,
  .cpu = { { "MR", 3, { 6, 8, 12 } }, { "KC", 3, { 64, 128, 256 } } },
  .gpu = { { "TSM", 2, { 64, 128 } }, { "TSN", 2, { 64, 128 } }, { "TSK", 3, { 8, 16, 32 } } },
};

/* The GPU shape's kernels: the tuned tiles, else the defaults, else smaller
 * ones, the first that the device takes with its groups whole. */
static gboolean
gpu_kernels_new (LatentGemm  *self,
                 GError     **error)
{
  LatentCl *cl = self->cl;
  const LatentClDeviceInfo *info = latent_cl_get_info (cl);
  const GemmTiles tuned = {
    latent_cl_tunable (cl, "gemm", "TSM", gpu_tiles[0].tsm),
    latent_cl_tunable (cl, "gemm", "TSN", gpu_tiles[0].tsn),
    latent_cl_tunable (cl, "gemm", "TSK", gpu_tiles[0].tsk),
    latent_cl_tunable (cl, "gemm", "WPTM", gpu_tiles[0].wptm),
    latent_cl_tunable (cl, "gemm", "WPTN", gpu_tiles[0].wptn),
    latent_cl_tunable (cl, "gemm", "VW", gpu_tiles[0].vw),
    latent_cl_tunable (cl, "gemm", "PREFETCH", gpu_tiles[0].prefetch),
  };

  /* Groups of work per compute unit the host aims for by splitting a deep
   * product with few tiles of C over the depth (0: never split). */
  self->split = MAX (0, latent_cl_tunable (cl, "gemm", "SPLIT", 2));
  /* gemm_mirror's groups: MIRROR_TILE² work-items. */
  self->mirror_tile = latent_cl_tunable (cl, "gemm", "MIRROR_TILE", info->max_work_group_size >= 256 ? 16 : 8);
  if ((self->mirror_tile != 8 && self->mirror_tile != 16 && self->mirror_tile != 32) ||
      (gsize) self->mirror_tile * self->mirror_tile > info->max_work_group_size)
    self->mirror_tile = info->max_work_group_size >= 256 ? 16 : 8;
  for (guint i = 0; i <= G_N_ELEMENTS (gpu_tiles); i++)
    {
      const GemmTiles *t = i == 0 ? &tuned : &gpu_tiles[i - 1];
      g_autofree char *options = NULL;
      gsize wg = 0;

      if (!gpu_tiles_fit (cl, t))
        {
          g_debug ("tiles %d × %d × %d, %d × %d per work-item, VW %d, PREFETCH %d: not for this device",
                   t->tsm, t->tsn, t->tsk, t->wptm, t->wptn, t->vw, t->prefetch);
          continue;
        }
      options = g_strdup_printf ("-DTSM=%d -DTSN=%d -DTSK=%d -DWPTM=%d -DWPTN=%d -DVW=%d -DPREFETCH=%d "
                                 "-DMIRROR_TILE=%u", t->tsm, t->tsn, t->tsk, t->wptm, t->wptn, t->vw, t->prefetch,
                                 self->mirror_tile);
      g_clear_pointer (&self->groups, clReleaseKernel);
      g_clear_pointer (&self->sum, clReleaseKernel);
      g_clear_pointer (&self->mirror, clReleaseKernel);
      if (!(self->groups = latent_cl_create_kernel (cl, "gemm", options, "gemm_groups", error)) ||
          !(self->sum = latent_cl_create_kernel (cl, "gemm", options, "gemm_sum", error)) ||
          !(self->mirror = latent_cl_create_kernel (cl, "gemm", options, "gemm_mirror", error)))
        return FALSE;
      /* A driver may take fewer work-items per group for a kernel that
       * needs many registers; reqd_work_group_size then cannot launch. */
      wg = latent_cl_kernel_group_limit (cl, self->groups);
      if (wg < (gsize) (t->tsm / t->wptm) * (t->tsn / t->wptn))
        {
          g_debug ("tiles %d × %d × %d: the kernel takes only %zu work-items per group",
                   t->tsm, t->tsn, t->tsk, (size_t) wg);
          continue;
        }
      self->gt = *t;
      self->sum_grouped = latent_cl_kernel_group_limit (cl, self->sum) >= GEMM_SUM_X * GEMM_SUM_Y;
      return TRUE;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               _("Matrix product: the device takes none of the GPU tile sizes"));
  return FALSE;
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
  self->gpu_shape = latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU;
  self->pairs_mode = g_strdup (g_getenv ("LATENT_GEMM_PAIRS"));
  if (self->gpu_shape)
    return gpu_kernels_new (self, error) ? g_steal_pointer (&self) : NULL;
  if (self->cpu &&
      clGetDeviceInfo (latent_cl_get_device (cl), CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof width, &width,
                       NULL) == CL_SUCCESS && width >= 16)
    self->mr = GEMM_MR_WIDE;
  {
    const int mr = latent_cl_tunable (cl, "gemm", "MR", self->mr);
    const int kc = latent_cl_tunable (cl, "gemm", "KC", GEMM_KC);

    /* The strip of B (KC × 32 floats) must fit in local memory. */
    if (mr >= 1 && mr <= 16)
      self->mr = mr;
    self->kc = kc >= 8 && kc <= 1024 &&
               (guint64) kc * GEMM_NR * sizeof (float) <= latent_cl_get_info (cl)->local_mem_size ? kc : GEMM_KC;
  }
  options = g_strdup_printf ("-DMR=%u -DKC=%u", self->mr, self->kc);
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

/* LOCAL NULL leaves the group size to the driver. */
static gboolean
enqueue (cl_command_queue   queue,
         cl_kernel          kernel,
         const char        *name,
         guint              dims,
         const gsize       *global,
         const gsize       *local,
         GError           **error)
{
  cl_int err = clEnqueueNDRangeKernel (queue, kernel, dims, NULL, global, local, 0, NULL, NULL);

  return latent_cl_check (err, "clEnqueueNDRangeKernel", name, error);
}

/* The product with B already k × n by KERNEL (floats or row pairs); UPPER
 * computes only what touches i ≤ j. */
static gboolean
run_tiles (LatentGemm        *self,
           cl_kernel          kernel,
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
  /* Groups of one: each work-item packs its own strip of B in local
   * memory, and a CPU device runs a group on one thread, so single-item
   * groups spread the (few, long) tiles over every core. */
  const gsize one = 1;
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
  slice = MAX (self->kc, slice / self->kc * self->kc);

  /* do … while: k = 0 still launches once, to apply beta. */
  do
    {
      const guint ks = MIN (slice, k - k0);
      const float beta_slice = k0 == 0 ? beta : 1.0f;
      const guint64 a_off = (guint64) k0 * a_k, b_off = (guint64) k0 * ldb, c_off = 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!latent_cl_set_args (kernel, "gemm_tiles", error,
                               LATENT_CL_ARG (m), LATENT_CL_ARG (n), LATENT_CL_ARG (ks),
                               LATENT_CL_ARG (alpha), LATENT_CL_ARG (beta_slice),
                               LATENT_CL_ARG (a), LATENT_CL_ARG (a_off), LATENT_CL_ARG (a_r), LATENT_CL_ARG (a_k),
                               LATENT_CL_ARG (b), LATENT_CL_ARG (b_off), LATENT_CL_ARG (ldb),
                               LATENT_CL_ARG (c), LATENT_CL_ARG (c_off), LATENT_CL_ARG (ldc),
                               LATENT_CL_ARG (mt), LATENT_CL_ARG (nt),
                               LATENT_CL_ARG (tiles_n), LATENT_CL_ARG (upper_arg),
                               LATENT_CL_ARG_END) ||
          !enqueue (queue, kernel, "gemm_tiles", 1, &global, &one, error))
        return FALSE;
      k0 += ks;
    }
  while (k0 < k);
  return TRUE;
}

static gsize
round_up (gsize x,
          gsize to)
{
  return (x + to - 1) / to * to;
}

/* The GPU shape: op(A)[i, p] = a[i · a_r + p · a_k], op(B)[p, j] =
 * b[p · b_k + j · b_n], one launch of gemm_groups; UPPER computes only the
 * tiles that touch i ≤ j. When C has too few tiles to keep every compute
 * unit busy, the depth is split over the third dimension of the launch
 * into a scratch buffer, and gemm_sum adds the slices into C. */
static gboolean
run_groups (LatentGemm        *self,
            cl_command_queue   queue,
            guint              m,
            guint              n,
            guint              k,
            float              alpha,
            cl_mem             a,
            guint64            a_r,
            guint64            a_k,
            cl_mem             b,
            guint64            b_k,
            guint64            b_n,
            float              beta,
            cl_mem             c,
            guint64            ldc,
            gboolean           upper,
            GCancellable      *cancellable,
            GError           **error)
{
  const GemmTiles *t = &self->gt;
  const guint tiles_m = (m + t->tsm - 1) / t->tsm, tiles_n = (n + t->tsn - 1) / t->tsn;
  const guint upper_arg = upper;
  const guint64 zero = 0;
  guint64 tiles = 0, slices = 1;
  guint kslice = k;
  cl_mem scratch = NULL;
  gboolean ok;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  /* The tiles that do work: with upper, those with a column at or right
   * of their first row. */
  for (guint ti = 0; ti < tiles_m; ti++)
    for (guint tj = 0; tj < tiles_n; tj++)
      if (!upper || (guint64) ti * t->tsm <= (guint64) tj * t->tsn + t->tsn - 1)
        tiles++;
  /* Split only while each slice keeps a depth of several blocks, and the
   * slices' copies of C fit the scratch. */
  if (self->split > 0 && tiles > 0)
    {
      slices = (guint64) self->split * self->compute_units / tiles;
      slices = MIN (slices, k / (8u * t->tsk));
      slices = MIN (slices, GEMM_SPLIT_MAX);
      slices = MIN (slices, MIN (GEMM_SPLIT_BYTES, latent_cl_get_info (self->cl)->max_alloc) /
                            ((guint64) m * n * sizeof (float)));
      slices = MAX (slices, 1);
    }
  if (slices > 1)
    {
      kslice = round_up ((k + slices - 1) / slices, t->tsk);
      slices = (k + kslice - 1) / kslice;
    }

  {
    const gsize global[3] = { (gsize) tiles_n * (t->tsn / t->wptn), (gsize) tiles_m * (t->tsm / t->wptm), slices };
    const gsize local[3] = { t->tsn / t->wptn, t->tsm / t->wptm, 1 };
    /* Split: each slice's product, unscaled, in its own m × n of scratch. */
    const gboolean split = slices > 1;
    const float g_alpha = split ? 1.0f : alpha, g_beta = split ? 0.0f : beta;
    const guint64 g_ldc = split ? n : ldc, g_split = split ? (guint64) m * n : 0;
    cl_mem g_c = c;

    if (split)
      {
        const gsize bytes = slices * m * n * sizeof (float);

        /* Another queue may still be using the old one: a buffer of its
         * own (the release waits for the kernels that hold it). */
        if (self->scratch == NULL || self->scratch_bytes < bytes || self->scratch_queue != queue)
          {
            g_clear_pointer (&self->scratch, clReleaseMemObject);
            if (!latent_cl_create_buffer (self->cl, &self->scratch, CL_MEM_READ_WRITE, bytes, NULL,
                                          "the slices of C", error))
              return FALSE;
            self->scratch_bytes = bytes;
            /* Held, so that no new queue can take its address. */
            if (self->scratch_queue != queue)
              {
                if (self->scratch_queue)
                  clReleaseCommandQueue (self->scratch_queue);
                clRetainCommandQueue (queue);
                self->scratch_queue = queue;
              }
          }
        scratch = g_c = self->scratch;
      }
    ok = latent_cl_set_args (self->groups, "gemm_groups", error,
                             LATENT_CL_ARG (m), LATENT_CL_ARG (n), LATENT_CL_ARG (k),
                             LATENT_CL_ARG (g_alpha), LATENT_CL_ARG (g_beta),
                             LATENT_CL_ARG (a), LATENT_CL_ARG (zero), LATENT_CL_ARG (a_r), LATENT_CL_ARG (a_k),
                             LATENT_CL_ARG (b), LATENT_CL_ARG (zero), LATENT_CL_ARG (b_k), LATENT_CL_ARG (b_n),
                             LATENT_CL_ARG (g_c), LATENT_CL_ARG (zero), LATENT_CL_ARG (g_ldc), LATENT_CL_ARG (g_split),
                             LATENT_CL_ARG (kslice), LATENT_CL_ARG (upper_arg),
                             LATENT_CL_ARG_END) &&
         enqueue (queue, self->groups, "gemm_groups", 3, global, local, error);
  }
  if (ok && scratch)
    {
      const gsize local[2] = { GEMM_SUM_X, GEMM_SUM_Y };
      const gsize global[2] = { round_up (n, GEMM_SUM_X), round_up (m, GEMM_SUM_Y) };
      const guint64 split = (guint64) m * n;
      const guint count = slices;

      ok = latent_cl_set_args (self->sum, "gemm_sum", error,
                               LATENT_CL_ARG (m), LATENT_CL_ARG (n), LATENT_CL_ARG (alpha), LATENT_CL_ARG (beta),
                               LATENT_CL_ARG (scratch), LATENT_CL_ARG (split), LATENT_CL_ARG (count),
                               LATENT_CL_ARG (c), LATENT_CL_ARG (zero), LATENT_CL_ARG (ldc),
                               LATENT_CL_ARG (upper_arg), LATENT_CL_ARG_END) &&
           enqueue (queue, self->sum, "gemm_sum", 2, global, self->sum_grouped ? local : NULL, error);
    }
  return ok;
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
  /* The GPU shape reads Bᵀ through its strides. */
  if (self->gpu_shape)
    return run_groups (self, queue, m, n, k, alpha,
                       a, trans_a ? 1 : lda, trans_a ? lda : 1,
                       b, trans_b ? 1 : ldb, trans_b ? ldb : 1,
                       beta, c, ldc, FALSE, cancellable, error);

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
          !enqueue (queue, self->transpose, "gemm_transpose", 2, global, NULL, error))
        {
          clReleaseMemObject (bt);
          return FALSE;
        }
    }

  ok = run_tiles (self, self->tiles, queue, m, n, k, alpha,
                  a, trans_a ? 1 : lda, trans_a ? lda : 1,
                  bt ? bt : b, bt ? n : ldb,
                  beta, c, ldc, FALSE, cancellable, error);
  /* Released only once the queued kernels are done with it. */
  if (bt)
    clReleaseMemObject (bt);
  return ok;
}

/* Whether the device runs on this processor and it has AVX512-VNNI: the
 * kernel's compiler may not know (see gemm.cl), so the host asks the CPU.
 * Oclgrind calls itself every type of device, a GPU among them. */
static gboolean
device_has_vnni (LatentGemm *self)
{
#if defined(__x86_64__) && defined(__GNUC__)
  return self->cpu && !(latent_cl_get_info (self->cl)->type & CL_DEVICE_TYPE_GPU) &&
         __builtin_cpu_supports ("avx512vnni");
#else
  (void) self;
  return FALSE;
#endif
}

/* gemm_tiles of integers built with DEFINES, or NULL where the program
 * does not define it (no instruction for them). */
static cl_kernel
integer_kernel (LatentGemm  *self,
                const char  *defines,
                GError     **error)
{
  g_autofree char *options = g_strdup_printf ("-DMR=%u -DKC=%u %s", self->mr, self->kc, defines);
  char names[256] = "";
  cl_program program;

  if (!(program = latent_cl_get_program (self->cl, "gemm", options, error)) ||
      !latent_cl_check (clGetProgramInfo (program, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
                        "clGetProgramInfo", "gemm", error) ||
      strstr (names, "gemm_tiles") == NULL)
    return NULL;
  return latent_cl_create_kernel (self->cl, "gemm", options, "gemm_tiles", error);
}

/* The row pairs' kernel with DEFINES, for FORM. */
static gboolean
pairs_kernel (LatentGemm  *self,
              const char  *defines,
              const char  *form,
              GError     **error)
{
  g_autofree char *all = g_strconcat ("-DLATENT_PAIRS ", defines, NULL);

  if (!(self->pairs = integer_kernel (self, all, error)))
    return FALSE;
  self->pairs_form = form;
  return TRUE;
}

/* Built on first asking, so that only the products that take row pairs
 * pay for the program: where the device has an instruction for them, the
 * program defines gemm_tiles, with VNNI where the processor has it.
 * LATENT_GEMM_PAIRS (read when the LatentGemm is made) is for tests:
 * =pmaddwd never uses VNNI (nor row quads), =generic and =generic-pairs
 * build the portable form on any device in the CPU shape, =off never uses
 * integers. */
gboolean
latent_gemm_has_pairs (LatentGemm *self)
{
  const char *mode = self->pairs_mode;
  const gboolean generic = g_strcmp0 (mode, "generic") == 0;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->pairs_tried)
    return self->pairs != NULL;
  self->pairs_tried = TRUE;
  if (self->gpu_shape || g_strcmp0 (mode, "off") == 0 || (!self->cpu && !generic))
    return FALSE;
  if (generic || g_strcmp0 (mode, "generic-pairs") == 0)
    pairs_kernel (self, "-DLATENT_PAIRS_GENERIC", "generic", &error);
  else if (g_strcmp0 (mode, "pmaddwd") == 0 || !device_has_vnni (self) ||
           !pairs_kernel (self, "-DLATENT_PAIRS_VNNI", "vnni", &error))
    {
      /* A compiler that will not take the instruction written out still
       * has pmaddwd. */
      if (error)
        g_debug ("no VNNI products of row pairs: %s", error->message);
      g_clear_error (&error);
      pairs_kernel (self, "", "pmaddwd", &error);
    }
  /* An optional faster path: its failure is a defect to report, not a
   * reason to stop the product in floats. */
  if (error)
    g_warning ("Matrix product: no products of row pairs: %s", error->message);
  else if (self->pairs == NULL)
    g_debug ("no products of row pairs on this device");
  return self->pairs != NULL;
}

/* The instruction the products of row pairs use ("vnni", "pmaddwd" or
 * "generic"), or NULL without them: for tests and benchmarks. */
const char *
latent_gemm_pairs_form (LatentGemm *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return latent_gemm_has_pairs (self) ? self->pairs_form : NULL;
}

/* Row quads where the processor has VNNI (vpdpbusd), built on first
 * asking; LATENT_GEMM_PAIRS=generic builds the portable form, and
 * =pmaddwd, =generic-pairs and =off none. */
gboolean
latent_gemm_has_quads (LatentGemm *self)
{
  const char *mode = self->pairs_mode;
  const gboolean generic = g_strcmp0 (mode, "generic") == 0;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->quads_tried)
    return self->quads != NULL;
  self->quads_tried = TRUE;
  if (self->gpu_shape || !(generic || ((mode == NULL || *mode == '\0') && device_has_vnni (self))))
    return FALSE;
  self->quads = integer_kernel (self, generic ? "-DLATENT_QUADS -DLATENT_PAIRS_GENERIC"
                                              : "-DLATENT_QUADS -DLATENT_PAIRS_VNNI", &error);
  /* The floats or the pairs still work. A compiler that will not take
   * the instruction written out is no defect; the portable form failing
   * is. */
  if (error && generic)
    g_warning ("Matrix product: no products of row quads: %s", error->message);
  else if (error)
    g_debug ("no VNNI products of row quads: %s", error->message);
  return self->quads != NULL;
}

/* The upper triangle by KERNEL (the CPU shape's floats or row pairs), or by
 * the GPU shape, then the lower triangle copied from it. */
static gboolean
syrk (LatentGemm        *self,
      cl_kernel          kernel,
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

  if (n == 0)
    return TRUE;
  if ((k > 0 && !check_matrix (a, "A", k, n, lda, "lda", error)) ||
      !check_matrix (c, "C", n, n, ldc, "ldc", error))
    return FALSE;
  if (self->gpu_shape)
    {
      const gsize tile = self->mirror_tile, local[2] = { tile, tile };
      const gsize global_tiled[2] = { round_up (n, tile), round_up (n, tile) };

      return run_groups (self, queue, n, n, k, alpha, a, 1, lda, a, lda, 1, beta, c, ldc, TRUE, cancellable,
                         error) &&
             latent_cl_set_args (self->mirror, "gemm_mirror", error,
                                 LATENT_CL_ARG (c), LATENT_CL_ARG (off), LATENT_CL_ARG (ld), LATENT_CL_ARG (n),
                                 LATENT_CL_ARG_END) &&
             enqueue (queue, self->mirror, "gemm_mirror", 2, global_tiled, local, error);
    }
  if (!run_tiles (self, kernel, queue, n, n, k, alpha, a, 1, lda, a, lda, beta, c, ldc, TRUE, cancellable,
                  error))
    return FALSE;
  return latent_cl_set_args (self->mirror, "gemm_mirror", error,
                             LATENT_CL_ARG (c), LATENT_CL_ARG (off), LATENT_CL_ARG (ld), LATENT_CL_ARG (n),
                             LATENT_CL_ARG_END) &&
         enqueue (queue, self->mirror, "gemm_mirror", 2, global, NULL, error);
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
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (queue != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return syrk (self, self->tiles, queue, n, k, alpha, a, lda, beta, c, ldc, cancellable, error);
}

gboolean
latent_gemm_syrk_pairs (LatentGemm        *self,
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
                        GError           **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (latent_gemm_has_pairs (self), FALSE);
  g_return_val_if_fail (queue != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return syrk (self, self->pairs, queue, n, kp, alpha, p, ldp, beta, c, ldc, cancellable, error);
}

gboolean
latent_gemm_syrk_quads (LatentGemm        *self,
                        cl_command_queue   queue,
                        guint              n,
                        guint              kq,
                        cl_mem             q,
                        gsize              ldq,
                        cl_mem             c,
                        gsize              ldc,
                        GCancellable      *cancellable,
                        GError           **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (latent_gemm_has_quads (self), FALSE);
  g_return_val_if_fail (queue != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* C holds int64: twice the floats a row. */
  return n == 0 ||
         ((kq == 0 || check_matrix (q, "A", kq, n, ldq, "lda", error)) &&
          check_matrix (c, "C", n, 2 * n, 2 * ldc, "ldc", error) &&
          run_tiles (self, self->quads, queue, n, n, kq, 1.0f, q, 1, ldq, q, ldq, 0.0f, c, ldc, TRUE,
                     cancellable, error));
}
