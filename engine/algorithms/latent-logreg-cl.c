/* latent-logreg-cl.c — logistic regression's steps on an OpenCL device
 *
 * The rows of the dataset (and of its test set), the model and the
 * optimiser's memory stay on the device for the whole run. The test rows
 * are standardised once at the start; with one batch of all rows, so are
 * the training rows. Otherwise a step gathers its rows from the epoch's
 * order, uploaded once an epoch. A step reads back one partial sum per
 * group of rows (loss and right predictions) and one per run of weights
 * (their squares, for the penalty): the loss the history records every
 * step and that stops a run that diverges at the step it does. The products
 * are latent-gemm's; the rest is kernels/logreg.cl. For L-BFGS the host
 * owns the point: an evaluation writes it to the device and reads back the
 * gradient.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-logreg"

#include "latent-logreg-private.h"

#include <glib/gi18n-lib.h>

#include "latent-gemm.h"

enum { K_GATHER, K_SOFTMAX, K_UPDATE, K_GRADIENT, N_KERNELS };

static const char * const kernel_names[N_KERNELS] = {
  "logreg_gather", "logreg_softmax", "logreg_update", "logreg_gradient",
};

/* Kernel constants the host's launch arithmetic shares: rows per softmax
 * group (its LOGREG_WG, passed as a build option) and columns per
 * work-item (its VEC). */
#define SOFTMAX_WG 64
#define VEC 16

struct _LatentLogregCl
{
  LatentLogreg     *self;       /* borrowed: the state that owns this */
  LatentCl         *cl;
  LatentGemm       *gemm;
  cl_command_queue  queue;
  cl_kernel         k[N_KERNELS];
  cl_mem            data, labels, test_data, test_labels;
  cl_mem            order, test_rows, mean, scale;
  cl_mem            x, y, xt, yt, z, pred, partial_loss, partial_right, gw, sq;
  cl_mem            w, b, vw, vb, sw, sb;
  cl_mem            grad;       /* L-BFGS: the gradient, n_params */
  guint             blocks;     /* of VEC weights */
  gboolean          full;       /* one batch of all training rows, gathered once */
  gboolean          gathered;
  float            *loss_host, *sq_host, *grad_host;
  guint            *right_host;
};

void
latent_logreg_cl_free (LatentLogregCl *lcl)
{
  if (lcl == NULL)
    return;

  cl_mem *buffers[] = { &lcl->data, &lcl->labels, &lcl->test_data, &lcl->test_labels, &lcl->order,
                        &lcl->test_rows, &lcl->mean, &lcl->scale, &lcl->x, &lcl->y, &lcl->xt, &lcl->yt,
                        &lcl->z, &lcl->pred, &lcl->partial_loss, &lcl->partial_right, &lcl->gw, &lcl->sq,
                        &lcl->w, &lcl->b, &lcl->vw, &lcl->vb, &lcl->sw, &lcl->sb, &lcl->grad };
  if (lcl->queue)
    clFinish (lcl->queue);
  for (guint i = 0; i < N_KERNELS; i++)
    if (lcl->k[i])
      clReleaseKernel (lcl->k[i]);
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    g_clear_pointer (buffers[i], clReleaseMemObject);
  if (lcl->queue)
    clReleaseCommandQueue (lcl->queue);
  g_clear_pointer (&lcl->gemm, latent_gemm_free);
  g_clear_object (&lcl->cl);
  g_free (lcl->loss_host);
  g_free (lcl->sq_host);
  g_free (lcl->grad_host);
  g_free (lcl->right_host);
  g_free (lcl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentLogregCl, latent_logreg_cl_free)

static gboolean
enqueue (LatentLogregCl  *lcl,
         guint            kernel,
         guint            dims,
         const gsize     *global,
         const gsize     *local,
         GError         **error)
{
  return latent_cl_check (clEnqueueNDRangeKernel (lcl->queue, lcl->k[kernel], dims, NULL, global, local,
                                                  0, NULL, NULL),
                          "clEnqueueNDRangeKernel", kernel_names[kernel], error);
}


static gboolean
gather (LatentLogregCl  *lcl,
        cl_mem           data,
        cl_mem           labels,
        cl_mem           rows_of,
        guint            first,
        guint            rows,
        cl_mem           x,
        cl_mem           y,
        GError         **error)
{
  const cl_uint first_row = first, n_rows = rows, d = lcl->self->d;
  const gsize global[2] = { (d + VEC - 1) / VEC, rows };

  return latent_cl_set_args (lcl->k[K_GATHER], kernel_names[K_GATHER], error,
                             LATENT_CL_ARG (data), LATENT_CL_ARG (labels), LATENT_CL_ARG (rows_of),
                             LATENT_CL_ARG (first_row), LATENT_CL_ARG (n_rows), LATENT_CL_ARG (d),
                             LATENT_CL_ARG (lcl->mean), LATENT_CL_ARG (lcl->scale), LATENT_CL_ARG (x),
                             LATENT_CL_ARG (y), LATENT_CL_ARG_END) &&
         enqueue (lcl, K_GATHER, 2, global, NULL, error);
}

LatentLogregCl *
latent_logreg_cl_new (LatentLogreg  *self,
                      LatentCl      *cl,
                      GError       **error)
{
  g_autoptr(LatentLogregCl) lcl = g_new0 (LatentLogregCl, 1);
  const LatentSplit *split = self->split;
  const gsize d = self->d, c = self->c, cd = c * d;
  const gsize most = MAX (self->batch, self->n_test), groups = (most + SOFTMAX_WG - 1) / SOFTMAX_WG;
  const cl_mem_flags copy = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
  g_autofree char *options = g_strdup_printf ("-DLOGREG_WG=%d", SOFTMAX_WG);

  lcl->self = self;
  lcl->cl = g_object_ref (cl);
  lcl->blocks = (cd + VEC - 1) / VEC;
  lcl->full = self->batch >= self->n_train;
  lcl->loss_host = g_new (float, groups);
  lcl->right_host = g_new (guint, groups);
  lcl->sq_host = g_new (float, lcl->blocks);
  if (!(lcl->gemm = latent_gemm_new (cl, error)) || !(lcl->queue = latent_cl_create_queue (cl, error)))
    return NULL;
  for (guint i = 0; i < N_KERNELS; i++)
    if (!(lcl->k[i] = latent_cl_create_kernel (cl, "logreg", options, kernel_names[i], error)))
      return NULL;
  if (!latent_classify_upload_rows (lcl->cl, self->rows, &lcl->data, &lcl->labels, error) ||
      (self->test_source != self->rows &&
       !latent_classify_upload_rows (lcl->cl, self->test_source, &lcl->test_data, &lcl->test_labels, error)) ||
      !latent_cl_create_buffer (cl, &lcl->order, CL_MEM_READ_ONLY, self->n_train * sizeof (gint32), NULL,
                                "row order", error) ||
      !latent_cl_create_buffer (cl, &lcl->test_rows, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                self->n_test * sizeof (gint32), split->test_rows, "test rows", error) ||
      !latent_cl_create_buffer (cl, &lcl->mean, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d * sizeof (float),
                                self->mean, "standardisation", error) ||
      !latent_cl_create_buffer (cl, &lcl->scale, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d * sizeof (float),
                                self->scale, "standardisation", error) ||
      !latent_cl_create_buffer (cl, &lcl->x, CL_MEM_READ_WRITE, self->batch * d * sizeof (float), NULL,
                                "mini-batch", error) ||
      !latent_cl_create_buffer (cl, &lcl->y, CL_MEM_READ_WRITE, self->batch * sizeof (gint32), NULL,
                                "mini-batch classes", error) ||
      !latent_cl_create_buffer (cl, &lcl->xt, CL_MEM_READ_WRITE, self->n_test * d * sizeof (float), NULL,
                                "test rows", error) ||
      !latent_cl_create_buffer (cl, &lcl->yt, CL_MEM_READ_WRITE, self->n_test * sizeof (gint32), NULL,
                                "test classes", error) ||
      !latent_cl_create_buffer (cl, &lcl->z, CL_MEM_READ_WRITE, most * c * sizeof (float), NULL,
                                "scores", error) ||
      !latent_cl_create_buffer (cl, &lcl->pred, CL_MEM_READ_WRITE, most * sizeof (gint32), NULL,
                                "predictions", error) ||
      !latent_cl_create_buffer (cl, &lcl->partial_loss, CL_MEM_READ_WRITE, groups * sizeof (float), NULL,
                                "losses", error) ||
      !latent_cl_create_buffer (cl, &lcl->partial_right, CL_MEM_READ_WRITE, groups * sizeof (guint), NULL,
                                "right predictions", error) ||
      !latent_cl_create_buffer (cl, &lcl->gw, CL_MEM_READ_WRITE, cd * sizeof (float), NULL,
                                "weight gradient", error) ||
      !latent_cl_create_buffer (cl, &lcl->sq, CL_MEM_READ_WRITE, lcl->blocks * sizeof (float), NULL,
                                "penalty", error) ||
      !latent_cl_create_buffer (cl, &lcl->w, copy, cd * sizeof (float), self->w, "weights", error) ||
      !latent_cl_create_buffer (cl, &lcl->b, copy, c * sizeof (float), self->b, "biases", error) ||
      !latent_cl_create_buffer (cl, &lcl->vw, copy, cd * sizeof (float), self->vw, "optimiser memory", error) ||
      !latent_cl_create_buffer (cl, &lcl->vb, copy, c * sizeof (float), self->vb, "optimiser memory", error) ||
      (self->adam &&
       (!latent_cl_create_buffer (cl, &lcl->sw, copy, cd * sizeof (float), self->sw, "optimiser memory", error) ||
        !latent_cl_create_buffer (cl, &lcl->sb, copy, c * sizeof (float), self->sb, "optimiser memory", error))) ||
      (self->lbfgs &&
       !latent_cl_create_buffer (cl, &lcl->grad, CL_MEM_READ_WRITE, self->n_params * sizeof (float), NULL,
                                 "gradient", error)))
    return NULL;
  if (self->lbfgs)
    lcl->grad_host = g_new (float, self->n_params);
  /* The test rows once, standardised, for every epoch's predictions. */
  if (!gather (lcl, lcl->test_data ? lcl->test_data : lcl->data, lcl->test_labels ? lcl->test_labels : lcl->labels,
               lcl->test_rows, 0, self->n_test, lcl->xt, lcl->yt, error) ||
      !latent_cl_check (clFinish (lcl->queue), "clFinish", "logreg_gather", error))
    return NULL;
  return g_steal_pointer (&lcl);
}

gboolean
latent_logreg_cl_set_order (LatentLogregCl  *lcl,
                            GError         **error)
{
  LatentLogreg *self = lcl->self;

  lcl->gathered = FALSE;
  /* Blocking: the host reshuffles its copy next epoch. */
  return latent_cl_check (clEnqueueWriteBuffer (lcl->queue, lcl->order, CL_TRUE, 0,
                                                self->n_train * sizeof (gint32), self->order, 0, NULL, NULL),
                          "clEnqueueWriteBuffer", "row order", error);
}

/* Scores of @rows rows of @x, their softmax (in place as E with @grad),
 * predictions and the groups' partial sums, read back without waiting. */
static gboolean
forward (LatentLogregCl  *lcl,
         cl_mem           x,
         cl_mem           y,
         guint            rows,
         gboolean         grad,
         GCancellable    *cancellable,
         GError         **error)
{
  LatentLogreg *self = lcl->self;
  const cl_uint n_rows = rows, c = self->c, with_grad = grad;
  const cl_float inv_rows = 1.0f / rows;
  const gsize groups = (rows + SOFTMAX_WG - 1) / SOFTMAX_WG;
  const gsize global[1] = { groups * SOFTMAX_WG }, local[1] = { SOFTMAX_WG };

  return latent_gemm_run (lcl->gemm, lcl->queue, FALSE, TRUE, rows, self->c, self->d, 1.0f, x, self->d,
                          lcl->w, self->d, 0.0f, lcl->z, self->c, cancellable, error) &&
         latent_cl_set_args (lcl->k[K_SOFTMAX], kernel_names[K_SOFTMAX], error,
                             LATENT_CL_ARG (lcl->z), LATENT_CL_ARG (lcl->b), LATENT_CL_ARG (y),
                             LATENT_CL_ARG (n_rows), LATENT_CL_ARG (c), LATENT_CL_ARG (inv_rows),
                             LATENT_CL_ARG (with_grad), LATENT_CL_ARG (lcl->pred),
                             LATENT_CL_ARG (lcl->partial_loss), LATENT_CL_ARG (lcl->partial_right),
                             LATENT_CL_ARG_END) &&
         enqueue (lcl, K_SOFTMAX, 1, global, local, error) &&
         latent_cl_check (clEnqueueReadBuffer (lcl->queue, lcl->partial_loss, CL_FALSE, 0, groups * sizeof (float),
                                               lcl->loss_host, 0, NULL, NULL),
                          "clEnqueueReadBuffer", "losses", error) &&
         latent_cl_check (clEnqueueReadBuffer (lcl->queue, lcl->partial_right, CL_FALSE, 0,
                                               groups * sizeof (guint), lcl->right_host, 0, NULL, NULL),
                          "clEnqueueReadBuffer", "right predictions", error);
}

/* The mean loss of @rows rows from the groups' partial sums, and their
 * right predictions. */
static double
finish_loss (LatentLogregCl *lcl,
             guint           rows,
             guint          *right)
{
  const guint groups = (rows + SOFTMAX_WG - 1) / SOFTMAX_WG;
  double sum = 0;

  *right = 0;
  for (guint g = 0; g < groups; g++)
    {
      sum += lcl->loss_host[g];
      *right += lcl->right_host[g];
    }
  return sum / rows;
}

gboolean
latent_logreg_cl_step (LatentLogregCl  *lcl,
                       guint            first,
                       guint            rows,
                       double          *loss,
                       guint           *right,
                       GCancellable    *cancellable,
                       GError         **error)
{
  LatentLogreg *self = lcl->self;
  const cl_uint cd = self->c * self->d, c = self->c, n_rows = rows, adam = self->adam;
  const gsize global[1] = { lcl->blocks + self->c };
  /* Unused arguments still take a buffer: momentum's own. */
  cl_mem sw = adam ? lcl->sw : lcl->vw, sb = adam ? lcl->sb : lcl->vb;
  LatentOptimiserStep step;
  cl_float l2 = self->l2, lr, mu, eps;
  double sq = 0;

  latent_optimiser_prepare (&step, adam, self->learning_rate, self->momentum, self->adam_t);
  lr = step.lr, mu = step.mu, eps = step.eps;
  if ((!lcl->gathered &&
       !gather (lcl, lcl->data, lcl->labels, lcl->order, first, rows, lcl->x, lcl->y, error)) ||
      !forward (lcl, lcl->x, lcl->y, rows, TRUE, cancellable, error) ||
      !latent_gemm_run (lcl->gemm, lcl->queue, TRUE, FALSE, self->c, self->d, rows, 1.0f, lcl->z, self->c,
                        lcl->x, self->d, 0.0f, lcl->gw, self->d, cancellable, error) ||
      !latent_cl_set_args (lcl->k[K_UPDATE], kernel_names[K_UPDATE], error,
                           LATENT_CL_ARG (lcl->w), LATENT_CL_ARG (lcl->vw), LATENT_CL_ARG (sw),
                           LATENT_CL_ARG (lcl->gw), LATENT_CL_ARG (lcl->b), LATENT_CL_ARG (lcl->vb),
                           LATENT_CL_ARG (sb), LATENT_CL_ARG (lcl->z), LATENT_CL_ARG (lcl->sq),
                           LATENT_CL_ARG (cd), LATENT_CL_ARG (c), LATENT_CL_ARG (n_rows), LATENT_CL_ARG (l2),
                           LATENT_CL_ARG (lr), LATENT_CL_ARG (mu), LATENT_CL_ARG (eps), LATENT_CL_ARG (adam),
                           LATENT_CL_ARG_END) ||
      !enqueue (lcl, K_UPDATE, 1, global, NULL, error) ||
      !latent_cl_check (clEnqueueReadBuffer (lcl->queue, lcl->sq, CL_FALSE, 0, lcl->blocks * sizeof (float),
                                             lcl->sq_host, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "penalty", error) ||
      !latent_cl_check (clFinish (lcl->queue), "clFinish", "logreg", error))
    {
      clFinish (lcl->queue);
      return FALSE;
    }
  /* All rows stay where they are until the order changes. */
  lcl->gathered = lcl->full;
  for (guint i = 0; i < lcl->blocks; i++)
    sq += lcl->sq_host[i];
  *loss = finish_loss (lcl, rows, right) + 0.5 * self->l2 * sq;
  return TRUE;
}

gboolean
latent_logreg_cl_test (LatentLogregCl  *lcl,
                       GCancellable    *cancellable,
                       GError         **error)
{
  LatentLogreg *self = lcl->self;
  guint right;

  if (!forward (lcl, lcl->xt, lcl->yt, self->n_test, FALSE, cancellable, error) ||
      !latent_cl_check (clEnqueueReadBuffer (lcl->queue, lcl->pred, CL_FALSE, 0, self->n_test * sizeof (gint32),
                                             self->test_predictions, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "predictions", error) ||
      !latent_cl_check (clFinish (lcl->queue), "clFinish", "logreg", error))
    {
      clFinish (lcl->queue);
      return FALSE;
    }
  self->test_loss = finish_loss (lcl, self->n_test, &right);
  return TRUE;
}

gboolean
latent_logreg_cl_read (LatentLogregCl  *lcl,
                       gboolean         optimiser,
                       GError         **error)
{
  LatentLogreg *self = lcl->self;
  const gsize cd = (gsize) self->c * self->d * sizeof (float), c = self->c * sizeof (float);

#define READ(buf, host, size) \
  latent_cl_check (clEnqueueReadBuffer (lcl->queue, buf, CL_FALSE, 0, size, host, 0, NULL, NULL), \
                   "clEnqueueReadBuffer", "weights", error)
  if (!READ (lcl->w, self->w, cd) || !READ (lcl->b, self->b, c) ||
      (optimiser && (!READ (lcl->vw, self->vw, cd) || !READ (lcl->vb, self->vb, c))) ||
      (optimiser && self->adam && (!READ (lcl->sw, self->sw, cd) || !READ (lcl->sb, self->sb, c))) ||
      !latent_cl_check (clFinish (lcl->queue), "clFinish", "logreg", error))
    {
      clFinish (lcl->queue);
      return FALSE;
    }
#undef READ
  return TRUE;
}

gboolean
latent_logreg_cl_write (LatentLogregCl  *lcl,
                        GError         **error)
{
  LatentLogreg *self = lcl->self;

  /* Blocking: the host moves its point on as soon as this returns. */
  return latent_cl_check (clEnqueueWriteBuffer (lcl->queue, lcl->w, CL_TRUE, 0,
                                                (gsize) self->c * self->d * sizeof (float), self->w,
                                                0, NULL, NULL),
                          "clEnqueueWriteBuffer", "weights", error) &&
         latent_cl_check (clEnqueueWriteBuffer (lcl->queue, lcl->b, CL_TRUE, 0, self->c * sizeof (float),
                                                self->b, 0, NULL, NULL),
                          "clEnqueueWriteBuffer", "biases", error);
}

gboolean
latent_logreg_cl_evaluate (LatentLogregCl  *lcl,
                           double          *loss,
                           guint           *right,
                           double          *g,
                           GCancellable    *cancellable,
                           GError         **error)
{
  LatentLogreg *self = lcl->self;
  const cl_uint cd = self->c * self->d, c = self->c, n_rows = self->n_train;
  const gsize global[1] = { lcl->blocks + self->c };
  cl_float l2 = self->l2;
  double sq = 0;

  g_return_val_if_fail (self->lbfgs, FALSE);

  if (!latent_logreg_cl_write (lcl, error) ||
      (!lcl->gathered &&
       !gather (lcl, lcl->data, lcl->labels, lcl->order, 0, self->n_train, lcl->x, lcl->y, error)) ||
      !forward (lcl, lcl->x, lcl->y, self->n_train, TRUE, cancellable, error) ||
      !latent_gemm_run (lcl->gemm, lcl->queue, TRUE, FALSE, self->c, self->d, self->n_train, 1.0f, lcl->z,
                        self->c, lcl->x, self->d, 0.0f, lcl->gw, self->d, cancellable, error) ||
      !latent_cl_set_args (lcl->k[K_GRADIENT], kernel_names[K_GRADIENT], error,
                           LATENT_CL_ARG (lcl->w), LATENT_CL_ARG (lcl->gw), LATENT_CL_ARG (lcl->z),
                           LATENT_CL_ARG (lcl->grad), LATENT_CL_ARG (lcl->sq), LATENT_CL_ARG (cd),
                           LATENT_CL_ARG (c), LATENT_CL_ARG (n_rows), LATENT_CL_ARG (l2), LATENT_CL_ARG_END) ||
      !enqueue (lcl, K_GRADIENT, 1, global, NULL, error) ||
      !latent_cl_check (clEnqueueReadBuffer (lcl->queue, lcl->sq, CL_FALSE, 0, lcl->blocks * sizeof (float),
                                             lcl->sq_host, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "penalty", error) ||
      !latent_cl_check (clEnqueueReadBuffer (lcl->queue, lcl->grad, CL_FALSE, 0, self->n_params * sizeof (float),
                                             lcl->grad_host, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "gradient", error) ||
      !latent_cl_check (clFinish (lcl->queue), "clFinish", "logreg", error))
    {
      clFinish (lcl->queue);
      return FALSE;
    }
  /* The rows stay gathered: L-BFGS takes them all, in one order. */
  lcl->gathered = TRUE;
  for (guint i = 0; i < lcl->blocks; i++)
    sq += lcl->sq_host[i];
  for (gsize i = 0; i < self->n_params; i++)
    g[i] = lcl->grad_host[i];
  *loss = finish_loss (lcl, self->n_train, right) + 0.5 * self->l2 * sq;
  return TRUE;
}
