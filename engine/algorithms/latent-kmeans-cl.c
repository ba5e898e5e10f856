/* latent-kmeans-cl.c — the k-means assignment pass on an OpenCL device
 *
 * The rows go to the device once. Each pass uploads the centers, runs either
 * the full pass (kmeans_assign) or, once bounds exist, a bounded pass
 * (kmeans_elkan, or kmeans_hamerly when Elkan's bounds do not fit), then
 * kmeans_reduce, and reads back the k × d sums (a bounded pass leaves the
 * labels on the device until asked, latent_kmeans_cl_pull). Between passes the per-cluster sums stay on the device, owned
 * per work-item, so a bounded pass only touches rows that change cluster.
 *
 * In the GPU shape the full pass is kmeans_assign_tiles (a tiled product)
 * or, for many centers and long rows, the matrix product (latent-gemm,
 * tuned per device) and kmeans_nearest; the sums are rebuilt from the
 * labels after every pass (kmeans_sums, then kmeans_reduce_chunks), so
 * nothing is kept per work-item. Bounds are off by default there: one
 * tiled pass over the rows is cheaper on a GPU than the bounded passes'
 * divergent work-item per row. Without bounds, the centers then move on
 * the device too (kmeans_update, latent_kmeans_cl_update_assign): a step
 * reads back only the counts, the moves and the inertia, and the host's
 * centers, sums and labels catch up when it asks (latent_kmeans_cl_pull).
 *
 * k-means++ scores its candidates here too (latent_kmeans_cl_seed), from
 * the rows already on the device.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-kmeans"

#include "latent-kmeans-private.h"
#include "latent-gemm.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* From this many centers the GPU shape's full pass is the matrix product
 * and kmeans_nearest. On an H200, over Fashion-MNIST at k = 100, the tiles
 * took 0.95 ms a pass (a third of gemm's rate), the product and
 * kmeans_nearest 0.52 ms; at k = 32 a whole step took 1.16 and 1.11 ms,
 * at k = 10 0.87 and 0.97 ms. */
#define PRODUCT_MIN_K 33
/* kmeans_update's work-group: a power of two, for its tree sum. */
#define UPDATE_GROUP 64

/* ...when the rows have this many columns at least: the product writes
 * n × k dots, which for short rows (a photo's pixels) are more bytes than
 * the rows themselves, while the tiles keep them in registers. (Reasoned,
 * not measured: the H200's figures above are for 784 columns.) */
#define PRODUCT_MIN_D 64

struct _LatentKmeansCl
{
  LatentCl         *cl;
  cl_command_queue  queue;
  cl_kernel         assign;
  cl_kernel         lanes;          /* the full pass, 16 rows of ≤ 4 columns at a time */
  cl_kernel         hamerly;
  cl_kernel         elkan;
  cl_kernel         gaps;
  cl_kernel         reduce;
  guint             vec, dp, kp, kl, items, rows_per_item;
  gsize             local;

  /* The GPU shape: the tiled full pass, and the sums from the labels in
   * chunks of sum_rows rows. */
  gboolean          gpu;
  cl_kernel         tiles, sums_kernel, reduce_chunks;
  LatentGemm       *gemm;           /* the full pass's dot products, or NULL */
  cl_kernel         nearest;
  cl_mem            dots;           /* n × kp: x · centersᵀ */
  guint             tile_rows, assign_groups, sum_columns, sum_clusters, sum_rows, chunks;
  gsize             assign_local;
  cl_mem            counts, sqnorm;
  /* Without bounds, the centers move on the device (kmeans_update). */
  cl_kernel         update;
  gboolean          sums_ready;     /* without bounds, device sums and counts are the last pass's */
  gboolean          ahead;          /* device centers, sums and labels are newer than the host's */
  gboolean          labels_behind;  /* the device's labels are newer than the host's */
  gsize             reduce_local;   /* kmeans_reduce's group size (CPU shape) */
  gboolean          bounds_valid;   /* device labels, bounds and sums agree */
  gboolean          use_bounds;     /* skip rows whose cluster cannot change */
  gboolean          use_elkan;      /* a bound per row and center, else two per row */
  gboolean          use_lanes;      /* full passes by kmeans_assign_lanes */

  cl_mem            x, xq, centers_q, centers_i, cinfo, xerr, xnorm, centers, cnorm, labels, dist, upper, lower, lowers, move, half, center_dist;
  cl_mem            partial_sums, partial_counts, partial_sqnorm, partial_inertia, partial_visited, sums;

  /* k-means++'s trials (kmeans_seed), made on the first call. */
  char             *options;        /* the program's build options */
  cl_kernel         seed;
  cl_kernel         seed_copy;      /* the same from the 8-bit copy */
  gboolean          copy_exact;     /* the copy is the rows, up to rounding */
  cl_mem            seed_cand, seed_closest, seed_out, seed_partial;
  guint             seed_results;   /* work-items (CPU shape) or groups (GPU) */
  guint             seed_tp;        /* candidates the buffers hold, a multiple of 4 */
  float            *host_seed;      /* seed_tp × dp, then n: candidates, then closest */
  float            *host_seed_partial;

  double           *previous;       /* k × d: the centers of the last pass; with bounds only */
  float            *shift;          /* d: subtracted from rows and centers, or NULL */
  float            *host_centers;   /* kp × dp */
  float            *host_centers_q; /* kp × dp: (c − lo) / step, the copy's units */
  gint16           *host_centers_i; /* kp × dp: those rounded (kernels/kmeans.cl) */
  cl_float2        *host_cinfo;     /* kp: their squared norm and rounding */
  float             copy_lo, copy_step;   /* the 8-bit copy's scale */
  float            *host_cnorm;     /* kp */
  float            *host_move;      /* 2 kl: each center's last move, then its drift (kernels/kmeans.cl) */

  float            *host_sums;      /* k × dp */
  gint32           *host_counts;    /* items × k */
  float            *host_sqnorm;    /* items × k */
  float            *host_inertia;   /* items; in the GPU shape groups, then k moves and k counts (figures) */
  gint32           *host_visited;   /* items */
};

static void
release_kernels (LatentKmeansCl *kcl)
{
  cl_kernel *kernels[] = { &kcl->assign, &kcl->lanes, &kcl->hamerly, &kcl->elkan, &kcl->gaps, &kcl->reduce,
                           &kcl->tiles, &kcl->sums_kernel, &kcl->reduce_chunks, &kcl->nearest, &kcl->seed,
                           &kcl->seed_copy, &kcl->update };

  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    if (*kernels[i])
      {
        clReleaseKernel (*kernels[i]);
        *kernels[i] = NULL;
      }
}

void
latent_kmeans_cl_free (LatentKmeansCl *kcl)
{
  cl_mem *buffers[] = { &kcl->x, &kcl->xq, &kcl->centers_q, &kcl->centers_i, &kcl->cinfo, &kcl->xerr, &kcl->xnorm, &kcl->centers, &kcl->cnorm, &kcl->labels,
                        &kcl->dist, &kcl->upper, &kcl->lower, &kcl->lowers, &kcl->move,
                        &kcl->half, &kcl->center_dist,
                        &kcl->partial_sums, &kcl->partial_counts, &kcl->partial_sqnorm,
                        &kcl->partial_inertia, &kcl->partial_visited, &kcl->sums,
                        &kcl->counts, &kcl->sqnorm, &kcl->seed_cand,
                        &kcl->seed_closest, &kcl->seed_out, &kcl->seed_partial, &kcl->dots };

  /* A step that failed half-way may leave copies queued from our host
   * arrays: they must land before the arrays go. */
  if (kcl->queue)
    clFinish (kcl->queue);
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    if (*buffers[i])
      clReleaseMemObject (*buffers[i]);
  release_kernels (kcl);
  g_clear_pointer (&kcl->gemm, latent_gemm_free);
  if (kcl->queue)
    clReleaseCommandQueue (kcl->queue);
  g_clear_object (&kcl->cl);
  g_free (kcl->previous);
  g_free (kcl->shift);
  g_free (kcl->host_centers);
  g_free (kcl->host_centers_q);
  g_free (kcl->host_centers_i);
  g_free (kcl->host_cinfo);
  g_free (kcl->host_cnorm);
  g_free (kcl->host_move);

  g_free (kcl->host_sums);
  g_free (kcl->host_counts);
  g_free (kcl->host_sqnorm);
  g_free (kcl->host_inertia);
  g_free (kcl->host_visited);
  g_free (kcl->options);
  g_free (kcl->host_seed);
  g_free (kcl->host_seed_partial);
  g_free (kcl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentKmeansCl, latent_kmeans_cl_free)

void
latent_kmeans_cl_invalidate (LatentKmeansCl *kcl)
{
  kcl->bounds_valid = FALSE;
  kcl->sums_ready = FALSE;
}

/* The GPU shape's tile sizes: kmeans.cl's tunables of the tiled pass. */
typedef struct {
  guint tile_rows, tile_centers, tile_depth, block_rows, block_centers;
} TileConfig;

static guint
tile_group (const TileConfig *t)
{
  return (t->tile_rows / t->block_rows) * (t->tile_centers / t->block_centers);
}

/* Whether the kernel compiles (the blocks divide their tiles, the group is a
 * multiple of the rows) and its group and local tiles fit the device. */
static gboolean
tile_config_fits (const TileConfig         *t,
                  const LatentClDeviceInfo *info)
{
  guint64 floats;

  if (t->tile_rows == 0 || t->tile_centers == 0 || t->tile_depth == 0 ||
      t->block_rows == 0 || t->block_centers == 0 ||
      t->tile_rows % t->block_rows != 0 || t->tile_centers % t->block_centers != 0 ||
      (t->tile_centers / t->block_centers) % t->block_rows != 0 ||
      t->block_rows * t->block_centers > 64)
    return FALSE;
  floats = (guint64) t->tile_depth * (t->tile_rows + 1) +
           (guint64) t->tile_depth * (MAX (t->tile_rows, t->tile_centers) + 1) +
           3 * t->tile_rows + tile_group (t);
  return tile_group (t) <= info->max_work_group_size && floats * sizeof (float) <= info->local_mem_size;
}

/* What `latent-cli tune` tries for kmeans.cl (engine/latent-tune.c): six
 * passes over 60,000 blobs of 784 columns (4,000 quick), how far ahead the
 * CPU shape fetches, the GPU shape's tiles and sums. The CPU shape's
 * vector width is not tuned: it follows the data. */
const LatentTuneJob latent_kmeans_cl_tune_job = {
  .program = "kmeans",
  .algorithm = "kmeans",
  .params = "k=10 max-iterations=6 tol=0",
  .rows = 60000,
  .cols = 784,
  .quick_rows = 4000,
  .cpu = { { "PREFETCH_AHEAD", 4, { 1, 2, 4, 8 } } },
  .gpu = { { "TILE_ROWS", 3, { 32, 64, 128 } }, { "TILE_DEPTH", 2, { 16, 32 } }, { "BLOCK_ROWS", 3, { 2, 4, 8 } },
           { "SUM_ROWS", 2, { 128, 256 } } },
};

static gboolean
create_kernels (LatentKmeansCl  *kcl,
                const char      *options,
                GError         **error)
{
  if (!(kcl->hamerly = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_hamerly", error)) ||
      !(kcl->elkan = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_elkan", error)) ||
      !(kcl->gaps = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_center_gaps", error)))
    return FALSE;
  if (!kcl->gpu)
    return (kcl->assign = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_assign", error)) &&
           (kcl->reduce = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_reduce", error)) &&
           (!kcl->use_lanes ||
            (kcl->lanes = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_assign_lanes", error)));
  return (kcl->tiles = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_assign_tiles", error)) &&
         (kcl->nearest = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_nearest", error)) &&
         (kcl->sums_kernel = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_sums", error)) &&
         (kcl->reduce_chunks = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_reduce_chunks", error)) &&
         (kcl->update = latent_cl_create_kernel (kcl->cl, "kmeans", options, "kmeans_update", error));
}

/* The GPU shape's kernels from the tuned (or default) tiles, else from small
 * ones any OpenCL device can run; sizes the launches. Returns the options
 * the program was built with. */
static char *
create_gpu_kernels (LatentKmeansCl  *kcl,
                    guint            k,
                    GError         **error)
{
  LatentCl *cl = kcl->cl;
  const LatentClDeviceInfo *info = latent_cl_get_info (cl);
  /* A tile of centers no wider than k needs: at k = 10 a 64-wide tile
   * would be mostly padding. */
  const guint tile_centers = k <= 16 ? 16 : k <= 32 ? 32 : 64;
  /* The tuned or default tiles, then two that any device can hold. */
  TileConfig configs[3] = {
    { latent_cl_tunable (cl, "kmeans", "TILE_ROWS", 64),
      latent_cl_tunable (cl, "kmeans", "TILE_CENTERS", tile_centers),
      latent_cl_tunable (cl, "kmeans", "TILE_DEPTH", 32),
      latent_cl_tunable (cl, "kmeans", "BLOCK_ROWS", 4),
      latent_cl_tunable (cl, "kmeans", "BLOCK_CENTERS", tile_centers / 8) },
    { 16, 16, 16, 2, 2 },
    { 4, 4, 8, 1, 1 },
  };
  const guint row_group = CLAMP (latent_cl_tunable (cl, "kmeans", "ROW_GROUP", 128), 1,
                                 (int) MIN (info->max_work_group_size, 1024));
  const guint sum_columns = CLAMP (latent_cl_tunable (cl, "kmeans", "SUM_COLUMNS", 64), 1,
                                   (int) MIN (info->max_work_group_size, 1024));
  guint sum_clusters = CLAMP (latent_cl_tunable (cl, "kmeans", "SUM_CLUSTERS", 64), 1, 1024);
  const guint sum_rows = CLAMP (latent_cl_tunable (cl, "kmeans", "SUM_ROWS", 256), 1, 1 << 20);
  const guint sum_unroll = CLAMP (latent_cl_tunable (cl, "kmeans", "SUM_UNROLL", 8), 1, 16);
  g_autoptr(GError) last_error = NULL;

  /* The local sums, and a count and Σ|x|² per cluster. */
  while (sum_clusters > 1 && (guint64) sum_clusters * (sum_columns + 2) * sizeof (float) > info->local_mem_size)
    sum_clusters /= 2;

  for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      const TileConfig *t = &configs[i];
      g_autofree char *options = NULL;

      if (!tile_config_fits (t, info))
        continue;
      options = g_strdup_printf ("-DVEC=%u -DROW_GROUP=%u -DTILE_ROWS=%u -DTILE_CENTERS=%u -DTILE_DEPTH=%u "
                                 "-DBLOCK_ROWS=%u -DBLOCK_CENTERS=%u -DSUM_COLUMNS=%u -DSUM_CLUSTERS=%u "
                                 "-DSUM_ROWS=%u -DSUM_UNROLL=%u -DUPDATE_GROUP=%u", kcl->vec, row_group, t->tile_rows, t->tile_centers,
                                 t->tile_depth, t->block_rows, t->block_centers, sum_columns, sum_clusters,
                                 sum_rows, sum_unroll, UPDATE_GROUP);
      g_clear_error (&last_error);
      if (!create_kernels (kcl, options, &last_error) || latent_cl_kernel_group_limit (cl, kcl->tiles) < tile_group (t) ||
          latent_cl_kernel_group_limit (cl, kcl->nearest) < tile_group (t) ||
          latent_cl_kernel_group_limit (cl, kcl->update) < UPDATE_GROUP)
        {
          g_debug ("k-means: tiles %s do not build or fit %s: %s", options, info->name,
                   last_error ? last_error->message : "the group is too large");
          release_kernels (kcl);
          continue;
        }

      kcl->tile_rows = t->tile_rows;
      kcl->assign_local = tile_group (t);
      kcl->sum_columns = MIN (sum_columns, latent_cl_kernel_group_limit (cl, kcl->sums_kernel));
      kcl->sum_clusters = sum_clusters;
      kcl->sum_rows = sum_rows;
      /* The row-per-work-item kernels share one group size. */
      kcl->local = row_group;
      kcl->local = MIN (kcl->local, latent_cl_kernel_group_limit (cl, kcl->hamerly));
      kcl->local = MIN (kcl->local, latent_cl_kernel_group_limit (cl, kcl->elkan));
      kcl->local = MIN (kcl->local, latent_cl_kernel_group_limit (cl, kcl->gaps));
      kcl->local = MIN (kcl->local, latent_cl_kernel_group_limit (cl, kcl->reduce_chunks));
      return g_steal_pointer (&options);
    }
  if (last_error != NULL)
    g_propagate_error (error, g_steal_pointer (&last_error));
  else
    g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                 _("k-means: the smallest tiles do not fit %s"), info->name);
  return NULL;
}

/* partial_inertia's length. In the GPU shape, a step's figures follow the
 * groups' inertia: each center's squared move (kmeans_update), then each
 * cluster's count as its bits (kmeans_reduce_chunks), so that a step
 * without bounds reads them back in one copy: on an H200 three copies
 * made a step 0.953 ms at k = 100, one 0.822 ms. */
static guint
figures_size (const LatentKmeansCl *kcl,
              guint                 k)
{
  return kcl->assign_groups + (kcl->gpu ? 2 * k : 0);
}

/* The column means when the rows' mean is far from the origin for their
 * spread (|μ|² above 8 times the total variance), else NULL. */
static float *
far_mean (const LatentKmeans *self)
{
  float *shift;
  double offset = 0;

  for (guint f = 0; f < self->d; f++)
    offset += self->mean[f] * self->mean[f];
  if (offset <= 8 * self->variance)
    return NULL;
  shift = g_new (float, self->d);
  for (guint f = 0; f < self->d; f++)
    shift[f] = self->mean[f];
  return shift;
}

LatentKmeansCl *
latent_kmeans_cl_new (LatentKmeans  *self,
                      LatentCl      *cl,
                      GError       **error)
{
  g_autoptr(LatentKmeansCl) kcl = g_new0 (LatentKmeansCl, 1);
  const LatentClDeviceInfo *info = latent_cl_get_info (cl);
  const guint n = self->n, k = self->k;
  g_autofree char *options = NULL;
  g_autofree float *padded = NULL;
  g_autofree float *xnorm = NULL;
  const char *bounds;
  guint64 partial_bytes;
  float low = 0, high = 0;   /* the range of the data and zero */
  gboolean in_place;
  gsize copy_rows;

  kcl->cl = g_object_ref (cl);
  /* Short rows waste less padding with narrower vectors. */
  kcl->vec = self->d >= 48 ? 16 : self->d > 4 ? 8 : 4;
  kcl->dp = (self->d + kcl->vec - 1) / kcl->vec * kcl->vec;
  kcl->kp = (k + 3) / 4 * 4;
  kcl->kl = (k + 15) / 16 * 16;

  kcl->gpu = latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU;

  /* Elkan's bounds (n × k halves) while they fit, else Hamerly's (two per
   * row). LATENT_KMEANS_BOUNDS=elkan|hamerly|none overrides, for tests and
   * benchmarks; none makes every pass a full one. The GPU shape goes
   * without unless asked. */
  bounds = g_getenv ("LATENT_KMEANS_BOUNDS");
  kcl->use_bounds = !self->no_bounds &&
                    (bounds != NULL ? g_strcmp0 (bounds, "none") != 0 : !kcl->gpu && kcl->vec != 4);
  /* Rows of at most four columns (pixels' colours, points of a plane)
   * cost less to assign afresh than their bounds cost to keep. */
  kcl->use_lanes = !kcl->gpu && kcl->vec == 4 && !kcl->use_bounds;
  kcl->use_elkan = kcl->use_bounds && g_strcmp0 (bounds, "hamerly") != 0 &&
                   (guint64) n * kcl->kl * sizeof (cl_half) <= MIN (info->max_alloc, G_GUINT64_CONSTANT (1) << 30);

  if (kcl->gpu)
    {
      const char *product = g_getenv ("LATENT_KMEANS_PRODUCT");   /* gemm or tiles, for tests and benchmarks */

      if (!(options = create_gpu_kernels (kcl, k, error)))
        return NULL;
      if (g_strcmp0 (product, "tiles") != 0 &&
          ((k >= PRODUCT_MIN_K && self->d >= PRODUCT_MIN_D) || g_strcmp0 (product, "gemm") == 0) &&
          (guint64) n * kcl->kp * sizeof (float) <= info->max_alloc)
        {
          g_autoptr(GError) local_error = NULL;

          if (!(kcl->gemm = latent_gemm_new (cl, &local_error)))
            g_debug ("k-means: the tiles instead of the matrix product: %s", local_error->message);
        }
      /* One row per work-item in the bounded passes; the tiled pass takes
       * tile_rows rows per group, the sums sum_rows rows per chunk. */
      kcl->rows_per_item = 1;
      kcl->items = (n + kcl->local - 1) / kcl->local * kcl->local;
      kcl->assign_groups = (n + kcl->tile_rows - 1) / kcl->tile_rows;
      kcl->chunks = (n + kcl->sum_rows - 1) / kcl->sum_rows;
      partial_bytes = (guint64) kcl->chunks * k * kcl->dp * sizeof (float);
    }
  else
    {
      /* A CPU device runs a work-group on one thread: one item per group and a
       * few groups per core keep the cores balanced. */
      if (info->type & CL_DEVICE_TYPE_CPU)
        {
          kcl->local = 1;
          kcl->items = MAX (4, 8 * info->compute_units);
        }
      else
        {
          kcl->local = 64;
          kcl->items = 64 * MAX (1, info->compute_units);
        }
      /* A work-item sums its rows in floats: over a photo's 750,000
       * pixels a share, the inertia came out 0.2 % low. At most 16384
       * rows each keeps that error near float's own. */
      kcl->rows_per_item = MIN ((n + kcl->items - 1) / kcl->items, 16384);
      kcl->rows_per_item = (kcl->rows_per_item + 3) / 4 * 4;
      kcl->items = (n + kcl->rows_per_item - 1) / kcl->rows_per_item;
      kcl->items = (kcl->items + kcl->local - 1) / kcl->local * kcl->local;
      kcl->chunks = kcl->items;
      kcl->assign_groups = kcl->items;
      partial_bytes = (guint64) kcl->items * k * kcl->dp * sizeof (float);
    }
  if (partial_bytes > info->max_alloc || (guint64) n * kcl->dp * sizeof (float) > info->max_alloc)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("k-means: %u rows × %u columns with k = %u need a larger buffer than %s allows"),
                   n, self->d, k, info->name);
      return NULL;
    }

  if (!kcl->gpu)
    {
      /* On a CPU, how far ahead the bounded passes fetch rows' copies
       * (not on Oclgrind, which calls itself every type of device). */
      if ((info->type & CL_DEVICE_TYPE_CPU) && !(info->type & CL_DEVICE_TYPE_GPU))
        options = g_strdup_printf ("-DVEC=%u -DPREFETCH_AHEAD=%d", kcl->vec,
                                   CLAMP (latent_cl_tunable (cl, "kmeans", "PREFETCH_AHEAD", 4), 1, 64));
      else
        options = g_strdup_printf ("-DVEC=%u", kcl->vec);
      if (!create_kernels (kcl, options, error))
        return NULL;
      /* Groups of one vector each cost PoCL a dispatch apiece. */
      kcl->reduce_local = MIN (64, latent_cl_kernel_group_limit (cl, kcl->reduce));
    }
  if (!(kcl->queue = latent_cl_create_queue (cl, error)))
    return NULL;

  /* The kernels take distances as |x|² + |c|² − 2 x·c in floats, which
   * cancel when the rows sit far from the origin for their spread (values
   * around 3000 ± 1 left labels to rounding). Such rows go to the device
   * less their mean, and so do the centers. */
  kcl->shift = far_mean (self);

  /* Rows as wide as the vectors are read in place where their memory is
   * aligned for the vectors (a dataset's own is; a small NumPy file read
   * into memory, or a chunk, may not be: the kernels' aligned loads then
   * crashed); others are padded into a copy as large as the data, which
   * this machine may not have room for. */
  in_place = kcl->dp == self->d && kcl->shift == NULL &&
             (guintptr) self->x % (kcl->vec * sizeof (float)) == 0;
  if (!in_place &&
      !(padded = latent_algorithm_alloc ((guint64) n * kcl->dp, sizeof (float),
                                         _("k-means: the rows padded for the device"), error)))
    return NULL;
  xnorm = g_new (float, n);
  for (guint i = 0; i < n; i++)
    {
      const float *row = self->x + (gsize) i * self->d;
      float *to = in_place ? NULL : padded + (gsize) i * kcl->dp;
      /* Eight sums and ranges, not one chain each waiting on the last:
       * this loop is a streamed chunk's whole cost on the host. */
      double s[8] = { 0 };
      float lo[8] = { 0 }, hi[8] = { 0 };
      guint f = 0;

      if (to == NULL && kcl->shift == NULL)
        {
          /* GCC's and Clang's vectors of four, which every x86-64 has
           * (-O2 vectorises no loop like this): the squares summed in
           * floats, eight sums of a hundred-odd values each. */
          typedef float Floats __attribute__ ((vector_size (16)));
          typedef gint32 Ints __attribute__ ((vector_size (16)));
          Floats s0 = { 0 }, s1 = { 0 }, lo0 = { 0 }, lo1 = { 0 }, hi0 = { 0 }, hi1 = { 0 };

          for (; f + 8 <= self->d; f += 8)
            {
              Floats v0, v1;
              Ints m;

              memcpy (&v0, row + f, sizeof v0);
              memcpy (&v1, row + f + 4, sizeof v1);
              s0 += v0 * v0;
              s1 += v1 * v1;
              m = v0 < lo0;
              lo0 = (Floats) (((Ints) v0 & m) | ((Ints) lo0 & ~m));
              m = v1 < lo1;
              lo1 = (Floats) (((Ints) v1 & m) | ((Ints) lo1 & ~m));
              m = v0 > hi0;
              hi0 = (Floats) (((Ints) v0 & m) | ((Ints) hi0 & ~m));
              m = v1 > hi1;
              hi1 = (Floats) (((Ints) v1 & m) | ((Ints) hi1 & ~m));
            }
          for (guint j = 0; j < 4; j++)
            {
              s[j] = s0[j], s[j + 4] = s1[j];
              lo[j] = lo0[j], lo[j + 4] = lo1[j];
              hi[j] = hi0[j], hi[j + 4] = hi1[j];
            }
        }
      for (; f < self->d; f++)
        {
          const float v = kcl->shift ? row[f] - kcl->shift[f] : row[f];

          s[f % 8] += (double) v * v;
          lo[f % 8] = v < lo[f % 8] ? v : lo[f % 8];
          hi[f % 8] = v > hi[f % 8] ? v : hi[f % 8];
          if (to != NULL)
            to[f] = v;
        }
      xnorm[i] = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
      for (guint j = 0; j < 8; j++)
        {
          low = MIN (low, lo[j]);
          high = MAX (high, hi[j]);
        }
    }

  /* How far the centers move, which only the bounds ask. */
  if (kcl->use_bounds)
    kcl->previous = g_new0 (double, (gsize) k * self->d);
  kcl->host_centers = g_new0 (float, (gsize) kcl->kp * kcl->dp);
  kcl->host_cnorm = g_new0 (float, kcl->kp);
  kcl->host_move = g_new0 (float, 2 * kcl->kl);

  /* The GPU shape reads back k counts and Σ|x|², reduced on the device,
   * and a figure per group; the CPU shape a slice per work-item. */
  kcl->host_sums = g_new (float, (gsize) k * kcl->dp);
  kcl->host_counts = g_new (gint32, (gsize) (kcl->gpu ? 1 : kcl->items) * k);
  kcl->host_sqnorm = g_new (float, (gsize) (kcl->gpu ? 1 : kcl->items) * k);
  kcl->host_inertia = g_new (float, figures_size (kcl, k));
  kcl->host_visited = g_new (gint32, kcl->items);

  copy_rows = kcl->use_bounds ? n : 1;
  if (!latent_cl_create_buffer (cl, &kcl->x, CL_MEM_READ_ONLY | (in_place ? CL_MEM_USE_HOST_PTR : CL_MEM_COPY_HOST_PTR),
                                (gsize) n * kcl->dp * sizeof (float), in_place ? (gpointer) self->x : padded, "x",
                                error) ||
      /* The 8-bit copy, a quarter of the rows' size, only for the bounds. */
      !latent_cl_create_buffer (cl, &kcl->xq, CL_MEM_READ_WRITE, copy_rows * kcl->dp, NULL, "xq", error) ||
      !latent_cl_create_buffer (cl, &kcl->centers_q, CL_MEM_READ_ONLY,
                                (kcl->use_bounds ? (gsize) kcl->kp * kcl->dp : 1) * sizeof (float), NULL,
                                "centers_q", error) ||
      !latent_cl_create_buffer (cl, &kcl->centers_i, CL_MEM_READ_ONLY,
                                (kcl->use_bounds ? (gsize) kcl->kp * kcl->dp : 1) * sizeof (gint16), NULL,
                                "centers_i", error) ||
      !latent_cl_create_buffer (cl, &kcl->cinfo, CL_MEM_READ_ONLY, kcl->kp * sizeof (cl_float2), NULL, "cinfo", error) ||
      !latent_cl_create_buffer (cl, &kcl->xerr, CL_MEM_READ_WRITE, copy_rows * sizeof (cl_float2), NULL, "xerr", error) ||
      !latent_cl_create_buffer (cl, &kcl->xnorm, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                n * sizeof (float), xnorm, "xnorm", error) ||
      !latent_cl_create_buffer (cl, &kcl->centers, CL_MEM_READ_WRITE,
                                (gsize) kcl->kp * kcl->dp * sizeof (float), NULL, "centers", error) ||
      !latent_cl_create_buffer (cl, &kcl->cnorm, CL_MEM_READ_WRITE, kcl->kp * sizeof (float), NULL, "cnorm", error) ||
      !latent_cl_create_buffer (cl, &kcl->move, CL_MEM_READ_ONLY, 2 * kcl->kl * sizeof (float), NULL, "move", error) ||
      !latent_cl_create_buffer (cl, &kcl->half, CL_MEM_READ_WRITE, k * sizeof (float), NULL, "half", error) ||
      !latent_cl_create_buffer (cl, &kcl->labels, CL_MEM_READ_WRITE, n * sizeof (gint32), NULL, "labels", error) ||
      !latent_cl_create_buffer (cl, &kcl->dist, CL_MEM_READ_WRITE, n * sizeof (float), NULL, "dist", error) ||
      !latent_cl_create_buffer (cl, &kcl->upper, CL_MEM_READ_WRITE, n * sizeof (float), NULL, "upper", error) ||
      !latent_cl_create_buffer (cl, &kcl->lower, CL_MEM_READ_WRITE, n * sizeof (float), NULL, "lower", error) ||
      !latent_cl_create_buffer (cl, &kcl->lowers, CL_MEM_READ_WRITE,
                                kcl->use_elkan ? (gsize) n * kcl->kl * sizeof (cl_half) : sizeof (cl_half), NULL, "lowers", error) ||
      !latent_cl_create_buffer (cl, &kcl->center_dist, CL_MEM_READ_WRITE, (gsize) k * kcl->kl * sizeof (float), NULL,
                                "center_dist", error) ||
      !latent_cl_create_buffer (cl, &kcl->partial_sums, CL_MEM_READ_WRITE, partial_bytes, NULL, "partial_sums", error) ||
      !latent_cl_create_buffer (cl, &kcl->partial_counts, CL_MEM_READ_WRITE,
                                (gsize) kcl->chunks * k * sizeof (gint32), NULL, "partial_counts", error) ||
      !latent_cl_create_buffer (cl, &kcl->partial_sqnorm, CL_MEM_READ_WRITE,
                                (gsize) kcl->chunks * k * sizeof (float), NULL, "partial_sqnorm", error) ||
      !latent_cl_create_buffer (cl, &kcl->partial_inertia, CL_MEM_READ_WRITE,
                                figures_size (kcl, k) * sizeof (float), NULL, "partial_inertia", error) ||
      !latent_cl_create_buffer (cl, &kcl->partial_visited, CL_MEM_READ_WRITE,
                                kcl->items * sizeof (gint32), NULL, "partial_visited", error) ||
      (kcl->gemm && !latent_cl_create_buffer (cl, &kcl->dots, CL_MEM_READ_WRITE, (gsize) n * kcl->kp * sizeof (float),
                                              NULL, "dots", error)) ||
      !latent_cl_create_buffer (cl, &kcl->sums, CL_MEM_READ_WRITE,
                                (gsize) k * kcl->dp * sizeof (float), NULL, "sums", error))
    return NULL;
  if (kcl->gpu &&
      (!latent_cl_create_buffer (cl, &kcl->counts, CL_MEM_READ_WRITE, k * sizeof (gint32), NULL, "counts", error) ||
       !latent_cl_create_buffer (cl, &kcl->sqnorm, CL_MEM_READ_WRITE, k * sizeof (float), NULL, "sqnorm", error)))
    return NULL;

  /* The 8-bit copy serves the bounds only. */
  if (kcl->use_bounds)
    {
      cl_kernel quantize = latent_cl_create_kernel (cl, "kmeans", options, "kmeans_quantize", error);
      const cl_uint dv = kcl->dp / kcl->vec;
      cl_float2 range;

      /* One scale for every row: exact for 8-bit images, and a center
       * converts to it once a pass rather than every row each value. */
      kcl->copy_lo = low;
      kcl->copy_step = high > low ? (high - low) / 255.0f : 1.0f;
      range.s[0] = kcl->copy_lo;
      range.s[1] = kcl->copy_step;
      kcl->host_centers_q = g_new0 (float, (gsize) kcl->kp * kcl->dp);
      kcl->host_centers_i = g_new0 (gint16, (gsize) kcl->kp * kcl->dp);
      kcl->host_cinfo = g_new0 (cl_float2, kcl->kp);
      gsize rows = n, local = 1;
      cl_int err;

      if (quantize == NULL)
        return NULL;
      if (kcl->gpu)
        {
          local = MIN (kcl->local, latent_cl_kernel_group_limit (cl, quantize));
          rows = (n + local - 1) / local * local;
        }
      if (!latent_cl_set_args (quantize, "kmeans_quantize", error, LATENT_CL_ARG (kcl->x), LATENT_CL_ARG (kcl->xq),
                               LATENT_CL_ARG (kcl->xerr), LATENT_CL_ARG (range), LATENT_CL_ARG (n),
                               LATENT_CL_ARG (dv), LATENT_CL_ARG_END))
        {
          clReleaseKernel (quantize);
          return NULL;
        }
      err = clEnqueueNDRangeKernel (kcl->queue, quantize, 1, NULL, &rows, kcl->gpu ? &local : NULL, 0, NULL, NULL);
      clReleaseKernel (quantize);
      if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_quantize", error))
        return NULL;

      /* Where every row is on the copy's grid (8-bit images), k-means++
       * reads the copy (CPU shape; LATENT_KMEANS_SEED=floats says no). */
      if (!kcl->gpu && g_strcmp0 (g_getenv ("LATENT_KMEANS_SEED"), "floats") != 0)
        {
          g_autofree cl_float2 *xerr = g_new (cl_float2, n);
          float worst = 0;

          err = clEnqueueReadBuffer (kcl->queue, kcl->xerr, CL_TRUE, 0, n * sizeof (cl_float2), xerr, 0, NULL, NULL);
          if (!latent_cl_check (err, "clEnqueueReadBuffer", "xerr", error))
            return NULL;
          for (guint i = 0; i < n; i++)
            worst = MAX (worst, xerr[i].s[0]);
          kcl->copy_exact = worst <= 1e-3f * kcl->copy_step;
          g_debug ("the 8-bit copy is off by %g steps at most%s", worst / kcl->copy_step,
                   kcl->copy_exact ? ": k-means++ reads it" : "");
        }
    }

  if (kcl->use_elkan)
    {
      /* Padding columns of the bounds are read as vectors: make them zero. */
      const cl_half zero = 0;
      cl_int err = clEnqueueFillBuffer (kcl->queue, kcl->lowers, &zero, sizeof zero, 0,
                                        (gsize) n * kcl->kl * sizeof (cl_half), 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueFillBuffer", "lowers", error))
        return NULL;
    }

  kcl->options = g_steal_pointer (&options);
  return g_steal_pointer (&kcl);
}

/* kmeans_seed's kernel and buffers, on the first k-means++ trial, for as
 * many candidates as a round over k clusters takes. */
static gboolean
seed_prepare (LatentKmeansCl  *kcl,
              guint            n,
              guint            k,
              GError         **error)
{
  const LatentClDeviceInfo *info = latent_cl_get_info (kcl->cl);
  const guint tp = (latent_kmeans_seed_trials (k) + 3) / 4 * 4;

  if (kcl->seed != NULL)
    return TRUE;
  kcl->seed_tp = tp;
  if (!(kcl->seed = latent_cl_create_kernel (kcl->cl, "kmeans", kcl->options, "kmeans_seed", error)) ||
      (kcl->copy_exact &&
       !(kcl->seed_copy = latent_cl_create_kernel (kcl->cl, "kmeans", kcl->options, "kmeans_seed_copy", error))))
    return FALSE;
  if (kcl->gpu)
    {
      if (latent_cl_kernel_group_limit (kcl->cl, kcl->seed) < LATENT_KMEANS_SEED_GROUP)
        {
          g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                       _("k-means: k-means++ needs work-groups of %u on %s"), LATENT_KMEANS_SEED_GROUP, info->name);
          return FALSE;
        }
      kcl->seed_results = MIN (n, 64 * MAX (1, info->compute_units));
    }
  else
    kcl->seed_results = kcl->items;
  kcl->host_seed = g_new0 (float, (gsize) tp * kcl->dp + n);
  kcl->host_seed_partial = g_new (float, (gsize) kcl->seed_results * tp);
  return latent_cl_create_buffer (kcl->cl, &kcl->seed_cand, CL_MEM_READ_ONLY,
                                  (gsize) tp * kcl->dp * sizeof (float), NULL,
                                  "seed_cand", error) &&
         latent_cl_create_buffer (kcl->cl, &kcl->seed_closest, CL_MEM_READ_ONLY, n * sizeof (float), NULL,
                                  "seed_closest", error) &&
         latent_cl_create_buffer (kcl->cl, &kcl->seed_out, CL_MEM_READ_WRITE,
                                  (gsize) tp * n * sizeof (float), NULL, "seed_out", error) &&
         latent_cl_create_buffer (kcl->cl, &kcl->seed_partial, CL_MEM_READ_WRITE,
                                  (gsize) kcl->seed_results * tp * sizeof (float), NULL,
                                  "seed_partial", error);
}

/* The candidates and the arguments of kmeans_seed (their values, less the
 * shift) or of kmeans_seed_copy (their codes, as kmeans_quantize makes
 * them: the rows are on the grid, so no value is near a rounding tie). */
static gboolean
seed_arguments (LatentKmeansCl  *kcl,
                LatentKmeans    *self,
                const guint     *rows,
                guint            trials,
                cl_uint          tp,
                gboolean         codes,
                GError         **error)
{
  const guint d = self->d, dp = kcl->dp;
  const cl_uint n = self->n, dv = dp / kcl->vec, per_item = kcl->rows_per_item;
  const float step2 = kcl->copy_step * kcl->copy_step;
  float *host_cand = kcl->host_seed;

  for (guint t = 0; t < trials; t++)
    for (guint f = 0; f < d; f++)
      {
        const float v = self->x[(gsize) rows[t] * d + f] - (kcl->shift ? kcl->shift[f] : 0.0f);

        host_cand[(gsize) t * dp + f] = codes ? CLAMP (rintf ((v - kcl->copy_lo) / kcl->copy_step), 0.0f, 255.0f)
                                              : v;
      }
  if (!latent_cl_check (clEnqueueWriteBuffer (kcl->queue, kcl->seed_cand, CL_FALSE, 0,
                                              (gsize) tp * dp * sizeof (float), host_cand, 0, NULL, NULL),
                        "clEnqueueWriteBuffer", "kmeans_seed", error))
    return FALSE;
  if (codes)
    return latent_cl_set_args (kcl->seed_copy, "kmeans_seed_copy", error, LATENT_CL_ARG (kcl->xq),
                               LATENT_CL_ARG (kcl->seed_cand), LATENT_CL_ARG (kcl->seed_closest),
                               LATENT_CL_ARG (kcl->seed_out), LATENT_CL_ARG (kcl->seed_partial),
                               LATENT_CL_ARG (step2), LATENT_CL_ARG (n), LATENT_CL_ARG (dv), LATENT_CL_ARG (tp),
                               LATENT_CL_ARG (per_item), LATENT_CL_ARG_END);
  return latent_cl_set_args (kcl->seed, "kmeans_seed", error, LATENT_CL_ARG (kcl->x), LATENT_CL_ARG (kcl->seed_cand),
                             LATENT_CL_ARG (kcl->seed_closest), LATENT_CL_ARG (kcl->seed_out),
                             LATENT_CL_ARG (kcl->seed_partial), LATENT_CL_ARG (n), LATENT_CL_ARG (dv),
                             LATENT_CL_ARG (tp), LATENT_CL_ARG (per_item), LATENT_CL_ARG_END);
}

gboolean
latent_kmeans_cl_seed (LatentKmeansCl  *kcl,
                       LatentKmeans    *self,
                       const guint     *rows,
                       guint            trials,
                       double          *closest,
                       double          *potential,
                       guint           *best,
                       GError         **error)
{
  const guint n = self->n;
  const cl_uint tp = (trials + 3) / 4 * 4;
  /* Rows on the copy's grid are read from it, a quarter of the bytes. */
  const gboolean codes = kcl->copy_exact;
  double sums[LATENT_KMEANS_SEED_MAX_TRIALS] = { 0 };
  gsize global, local = LATENT_KMEANS_SEED_GROUP;
  float *host_closest;
  cl_int err;

  if (!seed_prepare (kcl, n, self->k, error))
    return FALSE;
  g_return_val_if_fail (tp <= kcl->seed_tp, FALSE);
  host_closest = kcl->host_seed + (gsize) kcl->seed_tp * kcl->dp;
  for (guint i = 0; i < n; i++)
    host_closest[i] = closest[i];

  global = kcl->gpu ? (gsize) kcl->seed_results * local : kcl->seed_results;
  err = clEnqueueWriteBuffer (kcl->queue, kcl->seed_closest, CL_FALSE, 0, n * sizeof (float), host_closest,
                              0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueWriteBuffer", "kmeans_seed", error) ||
      !seed_arguments (kcl, self, rows, trials, tp, codes, error))
    {
      clFinish (kcl->queue);
      return FALSE;
    }
  err = clEnqueueNDRangeKernel (kcl->queue, codes ? kcl->seed_copy : kcl->seed, 1, NULL, &global,
                                kcl->gpu ? &local : NULL, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_seed", error))
    {
      clFinish (kcl->queue);
      return FALSE;
    }
  err = clEnqueueReadBuffer (kcl->queue, kcl->seed_partial, CL_TRUE, 0,
                             (gsize) kcl->seed_results * tp * sizeof (float), kcl->host_seed_partial, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "seed_partial", error))
    return FALSE;

  for (guint t = 0; t < trials; t++)
    for (guint g = 0; g < kcl->seed_results; g++)
      sums[t] += kcl->host_seed_partial[(gsize) g * tp + t];
  *best = latent_kmeans_seed_pick (sums, trials);
  err = clEnqueueReadBuffer (kcl->queue, kcl->seed_out, CL_TRUE, (gsize) *best * n * sizeof (float),
                             n * sizeof (float), host_closest, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "seed_out", error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    closest[i] = host_closest[i];
  *potential = sums[*best];
  return TRUE;
}

/* The centers in the copy's units, padding columns included (the rows'
 * padding is 0 there too), and for the integer form of the copy's
 * distance (kernels/kmeans.cl) the same times 128 rounded to int16, with
 * the squared norm and the rounding error of each, rounded up. */
static void
quantize_centers (LatentKmeansCl *kcl,
                  guint           k)
{
  const guint dp = kcl->dp;

  for (guint c = 0; c < k; c++)
    {
      double norm = 0, off = 0;

      for (guint f = 0; f < dp; f++)
        {
          const gsize at = (gsize) c * dp + f;
          const float q = (kcl->host_centers[at] - kcl->copy_lo) / kcl->copy_step;
          const double v = CLAMP (rint (q * 128.0), G_MININT16, G_MAXINT16);

          kcl->host_centers_q[at] = q;
          kcl->host_centers_i[at] = v;
          norm += (v / 128) * (v / 128);
          off += (q - v / 128) * (q - v / 128);
        }
      kcl->host_cinfo[c].s[0] = norm;
      kcl->host_cinfo[c].s[1] = sqrt (off) * (1 + 1e-6) + 1e-6;
    }
}

/* How far each center moved since the last pass (rounded up, so the bounds
 * stay bounds), and which moved most. */
static void
prepare_moves (LatentKmeansCl *kcl,
               LatentKmeans   *self,
               float          *move_max,
               float          *move_second,
               cl_int         *move_argmax)
{
  const guint k = self->k, d = self->d;

  *move_max = 0;
  *move_second = 0;
  *move_argmax = 0;
  for (guint c = 0; c < k; c++)
    {
      double s = 0;
      float m;

      for (guint f = 0; f < d; f++)
        {
          double u = self->centers[(gsize) c * d + f] - kcl->previous[(gsize) c * d + f];
          s += u * u;
        }
      m = (float) (sqrt (s) * (1 + 1e-6));
      kcl->host_move[c] = m;
      if (m > *move_max)
        {
          *move_second = *move_max;
          *move_max = m;
          *move_argmax = c;
        }
      else if (m > *move_second)
        *move_second = m;
    }
}

/* A center as the device takes it: TO = CENTER − SHIFT (SHIFT may be
 * NULL), in floats; returns its squared norm. Four sums, as in
 * latent-kmeans.c's move_center. */
static double
center_row (float        *to,
            const double *center,
            const float  *shift,
            guint         d)
{
  double n0 = 0, n1 = 0, n2 = 0, n3 = 0;
  guint f = 0;

  for (; f + 4 <= d; f += 4)
    {
      const float v0 = center[f] - (shift ? shift[f] : 0.0f);
      const float v1 = center[f + 1] - (shift ? shift[f + 1] : 0.0f);
      const float v2 = center[f + 2] - (shift ? shift[f + 2] : 0.0f);
      const float v3 = center[f + 3] - (shift ? shift[f + 3] : 0.0f);

      to[f] = v0;
      to[f + 1] = v1;
      to[f + 2] = v2;
      to[f + 3] = v3;
      n0 += (double) v0 * v0;
      n1 += (double) v1 * v1;
      n2 += (double) v2 * v2;
      n3 += (double) v3 * v3;
    }
  for (; f < d; f++)
    {
      const float v = center[f] - (shift ? shift[f] : 0.0f);

      to[f] = v;
      n0 += (double) v * v;
    }
  return (n0 + n1) + (n2 + n3);
}

/* The GPU shape's full pass without bounds: the matrix product and
 * kmeans_nearest, or the tiles. */
static gboolean
enqueue_full_pass (LatentKmeansCl *kcl,
                   guint           n,
                   guint           k,
                   float           cnmax,
                   cl_int          keep_lowers,
                   GCancellable   *cancellable,
                   GError        **error)
{
  const gsize tiles_global = (gsize) kcl->assign_groups * kcl->assign_local;
  cl_kernel kernel = kcl->gemm ? kcl->nearest : kcl->tiles;
  const char *name = kcl->gemm ? "kmeans_nearest" : "kmeans_assign_tiles";
  cl_int err;

  if (kcl->gemm)
    {
      if (!latent_gemm_run (kcl->gemm, kcl->queue, FALSE, TRUE, n, kcl->kp, kcl->dp, 1.0f, kcl->x, kcl->dp,
                            kcl->centers, kcl->dp, 0.0f, kcl->dots, kcl->kp, cancellable, error) ||
          !latent_cl_set_args (kernel, name, error,
                     LATENT_CL_ARG (kcl->x), LATENT_CL_ARG (kcl->xnorm), LATENT_CL_ARG (kcl->centers), LATENT_CL_ARG (kcl->cnorm),
                     LATENT_CL_ARG (kcl->dots), LATENT_CL_ARG (kcl->labels), LATENT_CL_ARG (kcl->dist), LATENT_CL_ARG (kcl->upper),
                     LATENT_CL_ARG (kcl->lower), LATENT_CL_ARG (kcl->lowers), LATENT_CL_ARG (kcl->partial_inertia),
                     LATENT_CL_ARG (n), LATENT_CL_ARG (k), LATENT_CL_ARG (kcl->kp), LATENT_CL_ARG (kcl->kl),
                     LATENT_CL_ARG (kcl->dp), LATENT_CL_ARG (cnmax), LATENT_CL_ARG (keep_lowers), LATENT_CL_ARG_END))
        return FALSE;
    }
  else if (!latent_cl_set_args (kernel, name, error,
                     LATENT_CL_ARG (kcl->x), LATENT_CL_ARG (kcl->xnorm), LATENT_CL_ARG (kcl->centers), LATENT_CL_ARG (kcl->cnorm),
                     LATENT_CL_ARG (kcl->labels), LATENT_CL_ARG (kcl->dist), LATENT_CL_ARG (kcl->upper), LATENT_CL_ARG (kcl->lower),
                     LATENT_CL_ARG (kcl->lowers), LATENT_CL_ARG (kcl->partial_inertia), LATENT_CL_ARG (n), LATENT_CL_ARG (k),
                     LATENT_CL_ARG (kcl->kl), LATENT_CL_ARG (kcl->dp), LATENT_CL_ARG (cnmax), LATENT_CL_ARG (keep_lowers),
                     LATENT_CL_ARG_END))
    return FALSE;
  err = clEnqueueNDRangeKernel (kcl->queue, kernel, 1, NULL, &tiles_global, &kcl->assign_local, 0, NULL, NULL);
  return latent_cl_check (err, "clEnqueueNDRangeKernel", name, error);
}

/* The GPU shape's per-cluster sums, counts and Σ|x|² from the labels:
 * columns × chunks of rows × blocks of clusters, then the chunks summed,
 * so they come back reduced. */
static gboolean
enqueue_sums (LatentKmeansCl *kcl,
              guint           n,
              guint           k,
              GCancellable   *cancellable,
              GError        **error)
{
  const cl_uint sum_size = k * kcl->dp, counts_at = kcl->assign_groups + k;
  const gsize sums_local[3] = { kcl->sum_columns, 1, 1 };
  const gsize sums_global[3] = { (kcl->dp + kcl->sum_columns - 1) / kcl->sum_columns * kcl->sum_columns, kcl->chunks,
                                 (k + kcl->sum_clusters - 1) / kcl->sum_clusters };
  const gsize chunks_global = (MAX (sum_size, k) + kcl->local - 1) / kcl->local * kcl->local;
  cl_int err;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (!latent_cl_set_args (kcl->sums_kernel, "kmeans_sums", error,
                 LATENT_CL_ARG (kcl->x), LATENT_CL_ARG (kcl->xnorm), LATENT_CL_ARG (kcl->labels),
                 LATENT_CL_ARG (kcl->partial_sums), LATENT_CL_ARG (kcl->partial_counts), LATENT_CL_ARG (kcl->partial_sqnorm),
                 LATENT_CL_ARG (n), LATENT_CL_ARG (k), LATENT_CL_ARG (kcl->dp), LATENT_CL_ARG_END))
    return FALSE;
  err = clEnqueueNDRangeKernel (kcl->queue, kcl->sums_kernel, 3, NULL, sums_global, sums_local, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_sums", error) ||
      !latent_cl_set_args (kcl->reduce_chunks, "kmeans_reduce_chunks", error,
                 LATENT_CL_ARG (kcl->partial_sums), LATENT_CL_ARG (kcl->partial_counts), LATENT_CL_ARG (kcl->partial_sqnorm),
                 LATENT_CL_ARG (kcl->sums), LATENT_CL_ARG (kcl->counts), LATENT_CL_ARG (kcl->sqnorm),
                 LATENT_CL_ARG (kcl->partial_inertia), LATENT_CL_ARG (counts_at),
                 LATENT_CL_ARG (kcl->chunks), LATENT_CL_ARG (k), LATENT_CL_ARG (sum_size), LATENT_CL_ARG_END))
    return FALSE;
  err = clEnqueueNDRangeKernel (kcl->queue, kcl->reduce_chunks, 1, NULL, &chunks_global, &kcl->local, 0, NULL, NULL);
  return latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_reduce_chunks", error);
}

/* Cluster C's sums from the device (host_sums, less the shift) into
 * PASS's, in the host's frame. */
static void
sums_to_host (LatentKmeansCl   *kcl,
              LatentKmeans     *self,
              LatentKmeansPass *pass,
              guint             c)
{
  const guint d = self->d;
  double *to = pass->sums + (gsize) c * d;
  const float *from = kcl->host_sums + (gsize) c * kcl->dp;

  for (guint f = 0; f < d; f++)
    to[f] = from[f];
  if (kcl->shift)
    for (guint f = 0; f < d; f++)
      to[f] += (double) pass->counts[c] * kcl->shift[f];
}

gboolean
latent_kmeans_cl_assign (LatentKmeansCl       *kcl,
                         LatentKmeans         *self,
                         LatentKmeansPass     *pass,
                         LatentKmeansPassKind  kind,
                         GCancellable         *cancellable,
                         GError              **error)
{
  const guint n = self->n, k = self->k, d = self->d, dp = kcl->dp;
  const cl_uint dv = dp / kcl->vec;
  const cl_uint size = k * dv;
  const gboolean bounded = kind == LATENT_KMEANS_ACCUMULATE && kcl->bounds_valid;
  const cl_int accumulate = kind != LATENT_KMEANS_LABELS;
  const cl_int keep_lowers = accumulate && kcl->use_bounds && kcl->use_elkan;
  gsize global = kcl->items, local = kcl->local;
  /* Figures per work-item in the CPU shape; per group in the GPU shape,
   * whose counts come reduced. */
  const guint results = !kcl->gpu ? kcl->items : bounded ? kcl->items / kcl->local : kcl->assign_groups;
  const guint slices = kcl->gpu ? 1 : kcl->items;
  float cnmax = 0, move_max, move_second;
  cl_int move_argmax;
  cl_int rebase = FALSE;
  cl_int err = CL_SUCCESS;

  /* The pass starts from the host's centers. */
  if (!latent_kmeans_cl_pull (kcl, self, pass, error))
    return FALSE;
  for (guint c = 0; c < k; c++)
    {
      kcl->host_cnorm[c] = center_row (kcl->host_centers + (gsize) c * dp, self->centers + (gsize) c * d,
                                       kcl->shift, d);
      cnmax = MAX (cnmax, kcl->host_cnorm[c]);
    }

  /* The host's share of a bounded pass comes first: the commands then go
   * out together, and the device's threads run them back to back instead
   * of taking turns with this one for the cores. */
  if (bounded)
    {
      float *drift = kcl->host_move + kcl->kl, drift_max = 0;

      prepare_moves (kcl, self, &move_max, &move_second, &move_argmax);
      /* How far each center has moved since Elkan's bounds were last
       * stored as they are (kernels/kmeans.cl), rounded up. Halves lose
       * precision as the stored bound plus drift grows: past half the
       * data's spread, this pass stores them as they are again. */
      for (guint c = 0; c < k; c++)
        {
          drift[c] = nextafterf (drift[c] + kcl->host_move[c], INFINITY);
          drift_max = MAX (drift_max, drift[c]);
        }
      rebase = drift_max > 0.5 * sqrt (self->variance);
      quantize_centers (kcl, k);
    }

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  err = clEnqueueWriteBuffer (kcl->queue, kcl->centers, CL_FALSE, 0,
                              (gsize) kcl->kp * dp * sizeof (float), kcl->host_centers, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueWriteBuffer (kcl->queue, kcl->cnorm, CL_FALSE, 0, kcl->kp * sizeof (float),
                                kcl->host_cnorm, 0, NULL, NULL);
  if (err == CL_SUCCESS && bounded)
    err = clEnqueueWriteBuffer (kcl->queue, kcl->move, CL_FALSE, 0, 2 * kcl->kl * sizeof (float),
                                kcl->host_move, 0, NULL, NULL);
  if (err == CL_SUCCESS && bounded)
    err = clEnqueueWriteBuffer (kcl->queue, kcl->centers_q, CL_FALSE, 0, (gsize) k * dp * sizeof (float),
                                kcl->host_centers_q, 0, NULL, NULL);
  if (err == CL_SUCCESS && bounded)
    err = clEnqueueWriteBuffer (kcl->queue, kcl->centers_i, CL_FALSE, 0, (gsize) k * dp * sizeof (gint16),
                                kcl->host_centers_i, 0, NULL, NULL);
  if (err == CL_SUCCESS && bounded)
    err = clEnqueueWriteBuffer (kcl->queue, kcl->cinfo, CL_FALSE, 0, k * sizeof (cl_float2),
                                kcl->host_cinfo, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueWriteBuffer", "kmeans", error))
    return FALSE;
  if (bounded)
    {
      /* One center per work-item, spread over the groups like the rows. */
      gsize gaps_global = (k + kcl->local - 1) / kcl->local * kcl->local;
      cl_uint kl = kcl->kl;

      if (!latent_cl_set_args (kcl->gaps, "kmeans_center_gaps", error, LATENT_CL_ARG (kcl->centers), LATENT_CL_ARG (kcl->center_dist),
                     LATENT_CL_ARG (kcl->half), LATENT_CL_ARG (k), LATENT_CL_ARG (kl), LATENT_CL_ARG (dv), LATENT_CL_ARG_END))
        return FALSE;
      err = clEnqueueNDRangeKernel (kcl->queue, kcl->gaps, 1, NULL, &gaps_global, &local, 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_center_gaps", error))
        return FALSE;
    }
  if (bounded && kcl->use_elkan)
    {
      if (!latent_cl_set_args (kcl->elkan, "kmeans_elkan", error,
                     LATENT_CL_ARG (kcl->x), LATENT_CL_ARG (kcl->xq), LATENT_CL_ARG (kcl->centers_q),
                     LATENT_CL_ARG (kcl->centers_i), LATENT_CL_ARG (kcl->cinfo), LATENT_CL_ARG (kcl->xerr),
                     LATENT_CL_ARG (kcl->copy_step),
                     LATENT_CL_ARG (kcl->xnorm), LATENT_CL_ARG (kcl->centers), LATENT_CL_ARG (kcl->move), LATENT_CL_ARG (kcl->half),
                     LATENT_CL_ARG (kcl->center_dist), LATENT_CL_ARG (kcl->labels), LATENT_CL_ARG (kcl->upper),
                     LATENT_CL_ARG (kcl->lowers), LATENT_CL_ARG (kcl->partial_sums), LATENT_CL_ARG (kcl->partial_counts),
                     LATENT_CL_ARG (kcl->partial_sqnorm), LATENT_CL_ARG (kcl->partial_visited), LATENT_CL_ARG (n), LATENT_CL_ARG (k),
                     LATENT_CL_ARG (kcl->kl), LATENT_CL_ARG (dv), LATENT_CL_ARG (kcl->rows_per_item),
                     LATENT_CL_ARG (rebase), LATENT_CL_ARG_END))
        return FALSE;
      err = clEnqueueNDRangeKernel (kcl->queue, kcl->elkan, 1, NULL, &global, &local, 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_elkan", error))
        return FALSE;
    }
  else if (bounded)
    {
      if (!latent_cl_set_args (kcl->hamerly, "kmeans_hamerly", error,
                     LATENT_CL_ARG (kcl->x), LATENT_CL_ARG (kcl->xq), LATENT_CL_ARG (kcl->centers_q),
                     LATENT_CL_ARG (kcl->centers_i), LATENT_CL_ARG (kcl->cinfo), LATENT_CL_ARG (kcl->xerr),
                     LATENT_CL_ARG (kcl->copy_step),
                     LATENT_CL_ARG (kcl->xnorm), LATENT_CL_ARG (kcl->centers), LATENT_CL_ARG (kcl->cnorm), LATENT_CL_ARG (kcl->move),
                     LATENT_CL_ARG (kcl->half), LATENT_CL_ARG (kcl->labels), LATENT_CL_ARG (kcl->upper), LATENT_CL_ARG (kcl->lower),
                     LATENT_CL_ARG (kcl->partial_sums), LATENT_CL_ARG (kcl->partial_counts),
                     LATENT_CL_ARG (kcl->partial_sqnorm), LATENT_CL_ARG (kcl->partial_visited), LATENT_CL_ARG (n), LATENT_CL_ARG (k),
                     LATENT_CL_ARG (dv), LATENT_CL_ARG (kcl->rows_per_item), LATENT_CL_ARG (cnmax), LATENT_CL_ARG (move_max),
                     LATENT_CL_ARG (move_second), LATENT_CL_ARG (move_argmax), LATENT_CL_ARG_END))
        return FALSE;
      err = clEnqueueNDRangeKernel (kcl->queue, kcl->hamerly, 1, NULL, &global, &local, 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_hamerly", error))
        return FALSE;
    }
  else if (kcl->gpu)
    {
      if (!enqueue_full_pass (kcl, n, k, cnmax, keep_lowers, cancellable, error))
        return FALSE;
    }
  else if (kcl->use_lanes)
    {
      if (!latent_cl_set_args (kcl->lanes, "kmeans_assign_lanes", error,
                     LATENT_CL_ARG (kcl->x), LATENT_CL_ARG (kcl->xnorm), LATENT_CL_ARG (kcl->centers),
                     LATENT_CL_ARG (kcl->labels), LATENT_CL_ARG (kcl->dist), LATENT_CL_ARG (kcl->partial_sums),
                     LATENT_CL_ARG (kcl->partial_counts), LATENT_CL_ARG (kcl->partial_sqnorm),
                     LATENT_CL_ARG (kcl->partial_inertia), LATENT_CL_ARG (n), LATENT_CL_ARG (k),
                     LATENT_CL_ARG (kcl->rows_per_item), LATENT_CL_ARG (accumulate), LATENT_CL_ARG_END))
        return FALSE;
      err = clEnqueueNDRangeKernel (kcl->queue, kcl->lanes, 1, NULL, &global, &local, 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_assign_lanes", error))
        return FALSE;
    }
  else
    {
      if (!latent_cl_set_args (kcl->assign, "kmeans_assign", error,
                     LATENT_CL_ARG (kcl->x), LATENT_CL_ARG (kcl->xnorm), LATENT_CL_ARG (kcl->centers), LATENT_CL_ARG (kcl->cnorm),
                     LATENT_CL_ARG (kcl->labels), LATENT_CL_ARG (kcl->dist), LATENT_CL_ARG (kcl->upper), LATENT_CL_ARG (kcl->lower),
                     LATENT_CL_ARG (kcl->lowers), LATENT_CL_ARG (kcl->partial_sums), LATENT_CL_ARG (kcl->partial_counts),
                     LATENT_CL_ARG (kcl->partial_sqnorm), LATENT_CL_ARG (kcl->partial_inertia), LATENT_CL_ARG (n), LATENT_CL_ARG (k),
                     LATENT_CL_ARG (kcl->kl), LATENT_CL_ARG (dv), LATENT_CL_ARG (kcl->rows_per_item), LATENT_CL_ARG (cnmax),
                     LATENT_CL_ARG (accumulate), LATENT_CL_ARG (keep_lowers), LATENT_CL_ARG_END))
        return FALSE;
      err = clEnqueueNDRangeKernel (kcl->queue, kcl->assign, 1, NULL, &global, &local, 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_assign", error))
        return FALSE;
    }

  if (accumulate && kcl->gpu)
    {
      if (!enqueue_sums (kcl, n, k, cancellable, error))
        return FALSE;
      err = clEnqueueReadBuffer (kcl->queue, kcl->sums, CL_FALSE, 0, (gsize) k * dp * sizeof (float),
                                 kcl->host_sums, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer (kcl->queue, kcl->counts, CL_FALSE, 0, k * sizeof (gint32), kcl->host_counts,
                                   0, NULL, NULL);
      /* Σ|x|² per cluster is for a bounded pass's inertia (below). */
      if (err == CL_SUCCESS && bounded)
        err = clEnqueueReadBuffer (kcl->queue, kcl->sqnorm, CL_FALSE, 0, k * sizeof (float), kcl->host_sqnorm,
                                   0, NULL, NULL);
    }
  else if (accumulate)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!latent_cl_set_args (kcl->reduce, "kmeans_reduce", error,
                     LATENT_CL_ARG (kcl->partial_sums), LATENT_CL_ARG (kcl->sums), LATENT_CL_ARG (kcl->items), LATENT_CL_ARG (size),
                     LATENT_CL_ARG_END))
        return FALSE;
      {
        const gsize reduce_global = (size + kcl->reduce_local - 1) / kcl->reduce_local * kcl->reduce_local;

        err = clEnqueueNDRangeKernel (kcl->queue, kcl->reduce, 1, NULL, &reduce_global, &kcl->reduce_local,
                                      0, NULL, NULL);
      }
      if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_reduce", error))
        return FALSE;
      err = clEnqueueReadBuffer (kcl->queue, kcl->sums, CL_FALSE, 0, (gsize) k * dp * sizeof (float),
                                 kcl->host_sums, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer (kcl->queue, kcl->partial_counts, CL_FALSE, 0,
                                   (gsize) kcl->items * k * sizeof (gint32), kcl->host_counts, 0, NULL, NULL);
      if (err == CL_SUCCESS && bounded)
        err = clEnqueueReadBuffer (kcl->queue, kcl->partial_sqnorm, CL_FALSE, 0,
                                   (gsize) kcl->items * k * sizeof (float), kcl->host_sqnorm, 0, NULL, NULL);
    }
  /* A bounded pass leaves the labels on the device until they are asked
   * for (latent_kmeans_cl_pull): 4 bytes a row a pass, which the step
   * itself does not need. */
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer (kcl->queue, bounded ? kcl->partial_visited : kcl->partial_inertia, bounded, 0,
                               results * sizeof (float), bounded ? (gpointer) kcl->host_visited
                                                                 : (gpointer) kcl->host_inertia,
                               0, NULL, NULL);
  /* Every row's distance is for re-seeding empty clusters, which asks for
   * it (kind EXACT): 4 bytes a row copied on every pass would be a seventh
   * of a pass over a photo's pixels. */
  if (err == CL_SUCCESS && kind == LATENT_KMEANS_EXACT)
    err = clEnqueueReadBuffer (kcl->queue, kcl->dist, CL_FALSE, 0, n * sizeof (float),
                               self->dist, 0, NULL, NULL);
  if (err == CL_SUCCESS && !bounded)
    err = clEnqueueReadBuffer (kcl->queue, kcl->labels, CL_TRUE, 0, n * sizeof (gint32),
                               self->labels, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "kmeans", error))
    return FALSE;
  kcl->labels_behind = bounded;

  pass->full = !bounded;
  pass->dist_exact = kind == LATENT_KMEANS_EXACT;
  pass->inertia = 0;
  pass->visited = bounded ? 0 : (guint64) n * k;
  for (guint g = 0; g < results; g++)
    {
      if (bounded)
        pass->visited += kcl->host_visited[g];
      else
        pass->inertia += kcl->host_inertia[g];
    }
  if (accumulate)
    {
      for (guint c = 0; c < k; c++)
        {
          double sqnorm = 0, dot = 0;

          pass->counts[c] = 0;
          for (guint g = 0; g < slices; g++)
            {
              pass->counts[c] += kcl->host_counts[(gsize) g * k + c];
              if (bounded)
                sqnorm += kcl->host_sqnorm[(gsize) g * k + c];
            }
          sums_to_host (kcl, self, pass, c);
          /* A bounded pass skips rows, so its inertia comes from the
           * per-cluster statistics: Σ|x − c|² = Σ|x|² − 2 c·Σx + n|c|².
           * (A chain of double additions, so only where it is needed.) */
          if (bounded)
            {
              for (guint f = 0; f < d; f++)
                dot += (double) kcl->host_sums[(gsize) c * dp + f] * kcl->host_centers[(gsize) c * dp + f];
              pass->inertia += MAX (0.0, sqnorm - 2 * dot + pass->counts[c] * (double) kcl->host_cnorm[c]);
            }
        }
      if (kcl->previous)
        memcpy (kcl->previous, self->centers, sizeof (double) * k * d);
    }
  /* A full pass stores the bounds as they are, and so does a rebase. */
  if (!bounded || rebase)
    memset (kcl->host_move + kcl->kl, 0, kcl->kl * sizeof (float));
  /* A labels-only pass leaves the device sums behind the labels. */
  kcl->bounds_valid = accumulate && kcl->use_bounds;
  kcl->sums_ready = accumulate && kcl->gpu && !kcl->use_bounds;
  return TRUE;
}

/* Whether the next step may move the centers on the device: the GPU shape
 * without bounds, after a pass that left its sums there. */
gboolean
latent_kmeans_cl_can_update (LatentKmeansCl *kcl)
{
  return kcl->sums_ready;
}

/* Lloyd's step on the device: the centers move to the means of the last
 * pass's clusters (kmeans_update), then a full pass assigns the rows and
 * sums them. Reads back, in one copy (figures_size), the inertia, the
 * counts and *SHIFT, the centers' squared moves summed; the host's
 * centers, sums and labels stay behind until latent_kmeans_cl_pull. */
gboolean
latent_kmeans_cl_update_assign (LatentKmeansCl   *kcl,
                                LatentKmeans     *self,
                                LatentKmeansPass *pass,
                                double           *shift,
                                GCancellable     *cancellable,
                                GError          **error)
{
  const guint n = self->n, k = self->k;
  const gsize update_global = (gsize) k * UPDATE_GROUP, update_local = UPDATE_GROUP;
  const cl_uint moved_at = kcl->assign_groups;
  const float *figures = kcl->host_inertia;
  cl_int err;

  g_return_val_if_fail (latent_kmeans_cl_can_update (kcl), FALSE);

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !latent_cl_set_args (kcl->update, "kmeans_update", error, LATENT_CL_ARG (kcl->sums), LATENT_CL_ARG (kcl->counts),
                           LATENT_CL_ARG (kcl->centers), LATENT_CL_ARG (kcl->cnorm),
                           LATENT_CL_ARG (kcl->partial_inertia), LATENT_CL_ARG (moved_at),
                           LATENT_CL_ARG (kcl->dp), LATENT_CL_ARG_END))
    return FALSE;
  err = clEnqueueNDRangeKernel (kcl->queue, kcl->update, 1, NULL, &update_global, &update_local, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_update", error))
    return FALSE;
  kcl->ahead = TRUE;
  /* Without bounds the rows' lower bounds are not read: any |c|² will do. */
  if (!enqueue_full_pass (kcl, n, k, 0.0f, FALSE, cancellable, error) ||
      !enqueue_sums (kcl, n, k, cancellable, error))
    return FALSE;
  err = clEnqueueReadBuffer (kcl->queue, kcl->partial_inertia, CL_TRUE, 0, figures_size (kcl, k) * sizeof (float),
                             kcl->host_inertia, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "kmeans", error))
    return FALSE;

  pass->full = TRUE;
  pass->dist_exact = FALSE;
  pass->visited = (guint64) n * k;
  pass->inertia = 0;
  for (guint g = 0; g < kcl->assign_groups; g++)
    pass->inertia += kcl->host_inertia[g];
  *shift = 0;
  for (guint c = 0; c < k; c++)
    {
      gint32 count;

      memcpy (&count, figures + moved_at + k + c, sizeof count);
      pass->counts[c] = count;
      *shift += figures[moved_at + c];
    }
  return TRUE;
}

/* Brings the host's centers, PASS's sums and the labels up to the device's,
 * where steps moved the centers there. */
gboolean
latent_kmeans_cl_pull (LatentKmeansCl   *kcl,
                       LatentKmeans     *self,
                       LatentKmeansPass *pass,
                       GError          **error)
{
  const guint k = self->k, d = self->d;
  cl_int err;

  if (!kcl->ahead)
    {
      if (!kcl->labels_behind)
        return TRUE;
      err = clEnqueueReadBuffer (kcl->queue, kcl->labels, CL_TRUE, 0, self->n * sizeof (gint32), self->labels,
                                 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueReadBuffer", "labels", error))
        return FALSE;
      kcl->labels_behind = FALSE;
      return TRUE;
    }
  err = clEnqueueReadBuffer (kcl->queue, kcl->centers, CL_FALSE, 0, (gsize) k * kcl->dp * sizeof (float),
                             kcl->host_centers, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer (kcl->queue, kcl->sums, CL_FALSE, 0, (gsize) k * kcl->dp * sizeof (float),
                               kcl->host_sums, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer (kcl->queue, kcl->labels, CL_TRUE, 0, self->n * sizeof (gint32), self->labels,
                               0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "kmeans", error))
    return FALSE;
  for (guint c = 0; c < k; c++)
    {
      for (guint f = 0; f < d; f++)
        self->centers[(gsize) c * d + f] = kcl->host_centers[(gsize) c * kcl->dp + f] + (kcl->shift ? kcl->shift[f] : 0.0);
      sums_to_host (kcl, self, pass, c);
    }
  kcl->ahead = FALSE;
  kcl->labels_behind = FALSE;
  return TRUE;
}
