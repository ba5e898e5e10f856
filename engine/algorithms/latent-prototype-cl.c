/* latent-prototype-cl.c — class means and nearest prototypes on an OpenCL
 * device
 *
 * The training and the test rows go to the device once (one buffer when
 * the test rows are held-out rows of the same dataset). A call uploads its
 * list of rows (and their slots, or the prototypes) and reads back the
 * per-work-item class sums, or a score per row and prototype; the host adds
 * the sums in double and picks each row's best prototype, deciding the
 * close calls again in double (latent-prototype-private.h says why). The
 * kernels are kernels/prototype.cl: a dedicated scoring kernel rather than
 * latent-gemm's ‖x‖² − 2x·p + ‖p‖², because with ten prototypes the
 * product is a thin one that a tiled GEMM fills poorly, and the
 * differences do not cancel, so fewer rows are close calls.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-prototype"

#include "latent-prototype-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Rows per work-item of prototype_scores (the kernel's ROWS). */
#define SCORE_ROWS 4

typedef struct {
  cl_mem *mem;
  gsize   size;   /* bytes it holds */
} Growing;

struct _LatentPrototypeCl
{
  LatentCl         *cl;
  cl_command_queue  queue;
  cl_kernel         sums, euclidean, cosine, dot;
  LatentPrototypeDistance distance;
  guint             d, vec, dp, dv;
  guint             items;         /* work-items a class sum is split over */
  gsize             sums_local;    /* their work-group size, 0: the driver's choice */
  guint64           max_alloc;
  LatentDataset    *train, *test;  /* borrowed from the state's split */
  cl_mem            x_train, x_test;   /* x_test NULL: the rows are x_train's */
  cl_mem            rows, slots, protos, norms, partial, scores;
  gsize             rows_size, slots_size, protos_size, norms_size, partial_size, scores_size;
};

void
latent_prototype_cl_free (LatentPrototypeCl *pcl)
{
  cl_mem *buffers[] = { &pcl->x_train, &pcl->x_test, &pcl->rows, &pcl->slots, &pcl->protos,
                        &pcl->norms, &pcl->partial, &pcl->scores };
  cl_kernel *kernels[] = { &pcl->sums, &pcl->euclidean, &pcl->cosine, &pcl->dot };

  if (pcl == NULL)
    return;
  if (pcl->queue)
    clFinish (pcl->queue);
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    g_clear_pointer (buffers[i], clReleaseMemObject);
  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    g_clear_pointer (kernels[i], clReleaseKernel);
  if (pcl->queue)
    clReleaseCommandQueue (pcl->queue);
  g_clear_object (&pcl->cl);
  g_free (pcl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentPrototypeCl, latent_prototype_cl_free)

static gboolean
check_size (LatentPrototypeCl  *pcl,
            guint64             bytes,
            const char         *what,
            GError            **error)
{
  if (bytes <= pcl->max_alloc)
    return TRUE;
  g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
               _("Nearest prototype: the %s need %llu MiB, more than one buffer of %s may hold (%llu MiB)"),
               what, (unsigned long long) (bytes >> 20),
               latent_cl_get_info (pcl->cl)->name, (unsigned long long) (pcl->max_alloc >> 20));
  return FALSE;
}

/* A scratch buffer of at least @bytes, grown as calls need. */
static gboolean
ensure (LatentPrototypeCl  *pcl,
        cl_mem             *mem,
        gsize              *size,
        gsize               bytes,
        const char         *what,
        GError            **error)
{
  if (*mem && *size >= bytes)
    return TRUE;
  g_clear_pointer (mem, clReleaseMemObject);
  *size = 0;
  bytes = MAX (bytes, 64);
  if (!check_size (pcl, bytes, what, error) ||
      !latent_cl_create_buffer (pcl->cl, mem, CL_MEM_READ_WRITE, bytes, NULL, what, error))
    return FALSE;
  *size = bytes;
  return TRUE;
}

/* The rows of @dataset on the device, padded to dp columns. */
static gboolean
upload (LatentPrototypeCl  *pcl,
        LatentDataset      *dataset,
        cl_mem             *mem,
        GError            **error)
{
  const guint n = latent_dataset_get_n_rows (dataset), d = pcl->d;
  const guint64 bytes = (guint64) n * pcl->dp * sizeof (float);
  const float *x = latent_dataset_get_data (dataset);
  g_autofree float *padded = NULL;

  if (!check_size (pcl, bytes, "rows", error))
    return FALSE;
  /* The kernels load whole vectors, aligned: rows a file maps in place (an
   * uncompressed .npz member) may start anywhere, and crashed them. Those,
   * and rows that need padding, go to the device as a copy. */
  if (pcl->dp != d || (guintptr) x % (pcl->vec * sizeof (float)) != 0)
    {
      padded = g_new0 (float, (gsize) n * pcl->dp);
      for (guint i = 0; i < n; i++)
        memcpy (padded + (gsize) i * pcl->dp, x + (gsize) i * d, d * sizeof (float));
    }
  /* Unpadded, aligned rows in place: the dataset outlives this. */
  return latent_cl_create_buffer (pcl->cl, mem, CL_MEM_READ_ONLY | (padded ? CL_MEM_COPY_HOST_PTR : CL_MEM_USE_HOST_PTR),
                                  bytes, padded ? padded : (gpointer) x, "rows", error);
}

LatentPrototypeCl *
latent_prototype_cl_new (LatentPrototype  *self,
                         LatentCl         *cl,
                         GError          **error)
{
  g_autoptr(LatentPrototypeCl) pcl = g_new0 (LatentPrototypeCl, 1);
  const LatentClDeviceInfo *info = latent_cl_get_info (cl);
  g_autofree char *euclidean = NULL;
  g_autofree char *cosine = NULL;
  g_autofree char *dot = NULL;

  pcl->cl = g_object_ref (cl);
  pcl->d = self->d;
  pcl->distance = self->distance;
  /* Short rows waste less padding with narrower vectors. */
  pcl->vec = self->d >= 48 ? 16 : self->d > 4 ? 8 : 4;
  pcl->dp = (self->d + pcl->vec - 1) / pcl->vec * pcl->vec;
  pcl->dv = pcl->dp / pcl->vec;
  pcl->max_alloc = info->max_alloc;
  /* A CPU device runs a work-group on one thread: a few sums per core keep
   * the cores busy; a GPU wants many more. */
  pcl->items = info->type & CL_DEVICE_TYPE_CPU ? MAX (4, 8 * info->compute_units)
                                               : 64 * MAX (1, info->compute_units);
  /* PoCL runs a work-group on one thread: with a group of one item the
   * sums spread over every core. */
  pcl->sums_local = info->type & CL_DEVICE_TYPE_CPU ? 1 : 0;
  euclidean = g_strdup_printf ("-DVEC=%u -DROWS=%u -DCOSINE=0", pcl->vec, SCORE_ROWS);
  cosine = g_strdup_printf ("-DVEC=%u -DROWS=%u -DCOSINE=1", pcl->vec, SCORE_ROWS);
  dot = g_strdup_printf ("-DVEC=%u -DROWS=%u -DDOT=1", pcl->vec, SCORE_ROWS);
  if (!(pcl->sums = latent_cl_create_kernel (cl, "prototype", euclidean, "prototype_sums", error)) ||
      !(pcl->euclidean = latent_cl_create_kernel (cl, "prototype", euclidean, "prototype_scores", error)) ||
      !(pcl->cosine = latent_cl_create_kernel (cl, "prototype", cosine, "prototype_scores", error)) ||
      !(pcl->dot = latent_cl_create_kernel (cl, "prototype", dot, "prototype_scores", error)) ||
      !(pcl->queue = latent_cl_create_queue (cl, error)))
    return NULL;
  pcl->train = self->split->train;
  pcl->test = self->split->test;
  if (!upload (pcl, pcl->train, &pcl->x_train, error) ||
      (pcl->test != pcl->train && !upload (pcl, pcl->test, &pcl->x_test, error)))
    return NULL;
  return g_steal_pointer (&pcl);
}

static cl_mem
rows_of (LatentPrototypeCl *pcl,
         LatentDataset     *dataset)
{
  g_return_val_if_fail (dataset == pcl->train || dataset == pcl->test, NULL);
  return dataset == pcl->train || pcl->x_test == NULL ? pcl->x_train : pcl->x_test;
}

static gboolean
write_ints (LatentPrototypeCl  *pcl,
            cl_mem             *mem,
            gsize              *size,
            const gint32       *values,
            guint               n,
            const char         *what,
            GError            **error)
{
  const gsize bytes = (gsize) n * sizeof (gint32);

  /* Blocking: @values belong to the caller, who may free them next. */
  return ensure (pcl, mem, size, bytes, what, error) &&
         latent_cl_check (clEnqueueWriteBuffer (pcl->queue, *mem, CL_TRUE, 0, bytes, values, 0, NULL, NULL),
                          "clEnqueueWriteBuffer", what, error);
}

gboolean
latent_prototype_cl_means (LatentPrototypeCl  *pcl,
                           LatentDataset      *dataset,
                           const gint32       *rows,
                           const gint32       *slots,
                           guint               n,
                           guint               n_slots,
                           float              *means,
                           GCancellable       *cancellable,
                           GError            **error)
{
  const guint d = pcl->d, dp = pcl->dp;
  const cl_uint per = MAX (1u, (n + pcl->items - 1) / pcl->items);
  const gsize items = MAX (1u, (n + per - 1) / per);
  const gsize slice = (gsize) n_slots * dp;
  cl_mem x = rows_of (pcl, dataset);
  const cl_uint dv = pcl->dv, count = n, slot_count = n_slots;
  g_autofree float *partial = g_new (float, items * slice);
  g_autofree double *sums = g_new0 (double, slice);
  g_autofree guint *counts = g_new0 (guint, n_slots);

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !write_ints (pcl, &pcl->rows, &pcl->rows_size, rows, n, "row list", error) ||
      !write_ints (pcl, &pcl->slots, &pcl->slots_size, slots, n, "class of each row", error) ||
      !ensure (pcl, &pcl->partial, &pcl->partial_size, items * slice * sizeof (float), "class sums", error) ||
      !latent_cl_set_args (pcl->sums, "prototype_sums", error, LATENT_CL_ARG (x), LATENT_CL_ARG (dv),
                           LATENT_CL_ARG (pcl->rows), LATENT_CL_ARG (pcl->slots), LATENT_CL_ARG (count),
                           LATENT_CL_ARG (per), LATENT_CL_ARG (slot_count), LATENT_CL_ARG (pcl->partial),
                           LATENT_CL_ARG_END) ||
      !latent_cl_check (clEnqueueNDRangeKernel (pcl->queue, pcl->sums, 1, NULL, &items,
                                                pcl->sums_local ? &pcl->sums_local : NULL, 0, NULL, NULL),
                        "clEnqueueNDRangeKernel", "prototype_sums", error) ||
      !latent_cl_check (clEnqueueReadBuffer (pcl->queue, pcl->partial, CL_TRUE, 0, items * slice * sizeof (float),
                                             partial, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "class sums", error))
    return FALSE;

  /* Each work-item's sums ran over `per` rows in float; across them, in
   * double. */
  for (gsize g = 0; g < items; g++)
    for (gsize j = 0; j < slice; j++)
      sums[j] += partial[g * slice + j];
  for (guint i = 0; i < n; i++)
    counts[slots[i]]++;
  for (guint c = 0; c < n_slots; c++)
    for (guint f = 0; f < d; f++)
      means[(gsize) c * d + f] = counts[c] ? (float) (sums[(gsize) c * dp + f] / counts[c]) : 0.0f;
  return TRUE;
}

gboolean
latent_prototype_cl_scores (LatentPrototypeCl  *pcl,
                            LatentDataset      *dataset,
                            const gint32       *rows,
                            guint               n,
                            const float        *prototypes,
                            guint               n_slots,
                            float              *scores,
                            GCancellable       *cancellable,
                            GError            **error)
{
  const guint d = pcl->d, dp = pcl->dp;
  const gboolean cosine = pcl->distance == LATENT_PROTOTYPE_COSINE;
  cl_kernel kernel = cosine ? pcl->cosine : pcl->distance == LATENT_PROTOTYPE_DOT ? pcl->dot : pcl->euclidean;
  cl_mem x = rows_of (pcl, dataset);
  const cl_uint dv = pcl->dv, count = n, slot_count = n_slots;
  const gsize global = MAX (1u, (n + SCORE_ROWS - 1) / SCORE_ROWS);
  const gsize proto_bytes = (gsize) n_slots * dp * sizeof (float);
  const gsize score_bytes = (gsize) n * n_slots * sizeof (float);
  g_autofree float *padded = g_new0 (float, (gsize) n_slots * dp);
  g_autofree float *norms = g_new (float, n_slots);

  for (guint c = 0; c < n_slots; c++)
    {
      double s = 0;

      for (guint f = 0; f < d; f++)
        {
          float v = prototypes[(gsize) c * d + f];

          padded[(gsize) c * dp + f] = v;
          s += (double) v * v;
        }
      norms[c] = sqrt (s);
    }
  if (n == 0)
    return TRUE;
  return !g_cancellable_set_error_if_cancelled (cancellable, error) &&
         write_ints (pcl, &pcl->rows, &pcl->rows_size, rows, n, "row list", error) &&
         ensure (pcl, &pcl->protos, &pcl->protos_size, proto_bytes, "prototypes", error) &&
         ensure (pcl, &pcl->norms, &pcl->norms_size, n_slots * sizeof (float), "prototype norms", error) &&
         ensure (pcl, &pcl->scores, &pcl->scores_size, score_bytes, "scores", error) &&
         latent_cl_check (clEnqueueWriteBuffer (pcl->queue, pcl->protos, CL_TRUE, 0, proto_bytes, padded,
                                                0, NULL, NULL),
                          "clEnqueueWriteBuffer", "prototypes", error) &&
         latent_cl_check (clEnqueueWriteBuffer (pcl->queue, pcl->norms, CL_TRUE, 0, n_slots * sizeof (float),
                                                norms, 0, NULL, NULL),
                          "clEnqueueWriteBuffer", "prototype norms", error) &&
         latent_cl_set_args (kernel, "prototype_scores", error, LATENT_CL_ARG (x), LATENT_CL_ARG (dv),
                             LATENT_CL_ARG (pcl->rows), LATENT_CL_ARG (count), LATENT_CL_ARG (pcl->protos),
                             LATENT_CL_ARG (pcl->norms), LATENT_CL_ARG (slot_count), LATENT_CL_ARG (pcl->scores),
                             LATENT_CL_ARG_END) &&
         latent_cl_check (clEnqueueNDRangeKernel (pcl->queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL),
                          "clEnqueueNDRangeKernel", "prototype_scores", error) &&
         latent_cl_check (clEnqueueReadBuffer (pcl->queue, pcl->scores, CL_TRUE, 0, score_bytes, scores,
                                               0, NULL, NULL),
                          "clEnqueueReadBuffer", "scores", error);
}

gboolean
latent_prototype_cl_classify (LatentPrototypeCl  *pcl,
                              LatentDataset      *dataset,
                              const gint32       *rows,
                              guint               n,
                              const float        *prototypes,
                              guint               n_slots,
                              gint32             *slot_of_row,
                              guint              *rechecked,
                              GCancellable       *cancellable,
                              GError            **error)
{
  const gboolean cosine = pcl->distance == LATENT_PROTOTYPE_COSINE;
  g_autofree float *scores = g_new (float, (gsize) MAX (n, 1u) * n_slots);
  g_autofree double *exact = g_new (double, n_slots);
  guint close = 0;

  if (rechecked)
    *rechecked = 0;
  if (!latent_prototype_cl_scores (pcl, dataset, rows, n, prototypes, n_slots, scores, cancellable, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const float *s = scores + (gsize) i * n_slots;
      guint best = 0;
      float second = -INFINITY;

      /* The best as the reference picks it (ties to the lower slot), and
       * the runner-up. */
      for (guint c = 1; c < n_slots; c++)
        if (s[c] > s[best])
          {
            second = s[best];
            best = c;
          }
        else
          second = MAX (second, s[c]);
      /* A close call (the device's rounding could have swapped the two):
       * the reference's double scores decide. */
      if (n_slots > 1 &&
          (double) s[best] - second <= LATENT_PROTOTYPE_CLOSE * (cosine ? 1.0 : fabs ((double) second)))
        {
          latent_prototype_scores (latent_dataset_get_row (dataset, rows[i]), pcl->d, prototypes, n_slots,
                                   pcl->distance, exact);
          best = latent_prototype_best (exact, n_slots);
          close++;
        }
      slot_of_row[i] = best;
    }
  if (rechecked)
    *rechecked = close;
  return TRUE;
}
