/* latent-mlp-cl.c — the multilayer perceptron's steps on an OpenCL device
 *
 * The rows (and the test set's), every layer and the optimiser's memory
 * stay on the device for the run, each layer's weights (and their
 * optimiser's memory) transposed, in × out: the forward product A Wᵀ then
 * needs no transposed copy of W, nor does the gradient, Aᵀ E; only the
 * error sent below, E W, reads Wᵀ transposed, and the first layer sends
 * none. A step gathers its mini-batch from the epoch's order (uploaded once
 * an epoch), runs the layers forward (each a latent-gemm product, then
 * mlp_activate), the softmax and its error (logreg_softmax), and back: per
 * layer the weight gradient and the error for the layer below, then
 * mlp_backward for the slope, and logistic regression's update for the
 * layer (its bias gradient is the column sums of E, which that kernel
 * takes). The step
 * reads back one partial loss per group of rows and one sum of squared
 * weights per run of them, for the loss the history records every step.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-mlp"

#include "latent-mlp-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "latent-gemm.h"

enum { K_GATHER, K_SOFTMAX, K_UPDATE, K_ACTIVATE, K_BACKWARD, N_KERNELS };

static const char * const kernel_names[N_KERNELS] = {
  "logreg_gather", "logreg_softmax", "logreg_update", "mlp_activate", "mlp_backward",
};

/* logreg.cl's rows per softmax group and values per work-item. */
#define SOFTMAX_WG 64
#define VEC 16
/* Test rows run forward at a time, at least. */
#define TEST_CHUNK 2048

struct _LatentMlpCl
{
  LatentMlp        *self;       /* borrowed: the state that owns this */
  LatentCl         *cl;
  LatentGemm       *gemm;
  cl_command_queue  queue;
  cl_kernel         k[N_KERNELS];
  cl_mem            data, labels, test_data, test_labels, order, test_rows, mean, scale;
  cl_mem            y, pred, partial_loss, partial_right, gw;
  cl_mem            a[LATENT_MLP_MAX_LAYERS];   /* layer inputs: a[0] the batch */
  cl_mem            e[2];                       /* errors, by turns */
  cl_mem            w[LATENT_MLP_MAX_LAYERS], b[LATENT_MLP_MAX_LAYERS];
  cl_mem            vw[LATENT_MLP_MAX_LAYERS], vb[LATENT_MLP_MAX_LAYERS];
  cl_mem            sw[LATENT_MLP_MAX_LAYERS], sb[LATENT_MLP_MAX_LAYERS];
  cl_mem            sq[LATENT_MLP_MAX_LAYERS];
  guint             most;       /* rows the buffers hold */
  float            *loss_host, *sq_host;
  guint            *right_host;
};

static guint
blocks (LatentMlp *self,
        guint      l)
{
  return (latent_mlp_weights (self, l) + VEC - 1) / VEC;
}

void
latent_mlp_cl_free (LatentMlpCl *mcl)
{
  cl_mem *singles[] = { &mcl->data, &mcl->labels, &mcl->test_data, &mcl->test_labels, &mcl->order,
                        &mcl->test_rows, &mcl->mean, &mcl->scale, &mcl->y, &mcl->pred, &mcl->partial_loss,
                        &mcl->partial_right, &mcl->gw, &mcl->e[0], &mcl->e[1] };
  cl_mem *layers[] = { mcl->a, mcl->w, mcl->b, mcl->vw, mcl->vb, mcl->sw, mcl->sb, mcl->sq };

  if (mcl->queue)
    clFinish (mcl->queue);
  for (guint i = 0; i < N_KERNELS; i++)
    if (mcl->k[i])
      clReleaseKernel (mcl->k[i]);
  for (guint i = 0; i < G_N_ELEMENTS (singles); i++)
    g_clear_pointer (singles[i], clReleaseMemObject);
  for (guint i = 0; i < G_N_ELEMENTS (layers); i++)
    for (guint l = 0; l < LATENT_MLP_MAX_LAYERS; l++)
      g_clear_pointer (&layers[i][l], clReleaseMemObject);
  if (mcl->queue)
    clReleaseCommandQueue (mcl->queue);
  g_clear_pointer (&mcl->gemm, latent_gemm_free);
  g_clear_object (&mcl->cl);
  g_free (mcl->loss_host);
  g_free (mcl->sq_host);
  g_free (mcl->right_host);
  g_free (mcl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentMlpCl, latent_mlp_cl_free)

static gboolean
enqueue (LatentMlpCl  *mcl,
         guint         kernel,
         guint         dims,
         const gsize  *global,
         const gsize  *local,
         GError      **error)
{
  return latent_cl_check (clEnqueueNDRangeKernel (mcl->queue, mcl->k[kernel], dims, NULL, global, local,
                                                  0, NULL, NULL),
                          "clEnqueueNDRangeKernel", kernel_names[kernel], error);
}


/* @src (rows × cols) into @dst as cols × rows. */
static void
transpose (const float *src,
           float       *dst,
           guint        rows,
           guint        cols)
{
  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c < cols; c++)
      dst[(gsize) c * rows + r] = src[(gsize) r * cols + c];
}

/* A layer's weights, or their optimiser's memory, on the device as in × out. */
static gboolean
create_transposed (LatentMlpCl  *mcl,
                   cl_mem       *buffer,
                   guint         l,
                   const float  *values,
                   const char   *what,
                   GError      **error)
{
  LatentMlp *self = mcl->self;
  g_autofree float *t = g_new (float, latent_mlp_weights (self, l));

  transpose (values, t, self->sizes[l + 1], self->sizes[l]);
  return latent_cl_create_buffer (mcl->cl, buffer, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  latent_mlp_weights (self, l) * sizeof (float), t, what, error);
}

static gboolean
create (LatentMlpCl  *mcl,
        cl_mem       *buffer,
        gsize         floats,
        gpointer      copy_of,
        const char   *what,
        GError      **error)
{
  return latent_cl_create_buffer (mcl->cl, buffer,
                                  CL_MEM_READ_WRITE | (copy_of ? CL_MEM_COPY_HOST_PTR : 0),
                                  MAX (floats, 1) * sizeof (float), copy_of, what, error);
}

LatentMlpCl *
latent_mlp_cl_new (LatentMlp  *self,
                   LatentCl   *cl,
                   GError    **error)
{
  g_autoptr(LatentMlpCl) mcl = g_new0 (LatentMlpCl, 1);
  g_autofree char *options = g_strdup_printf ("-DLOGREG_WG=%d", SOFTMAX_WG);
  gsize widest = 0, largest = 0, groups, all_blocks = 0;

  mcl->self = self;
  mcl->cl = g_object_ref (cl);
  mcl->most = MAX (self->batch, MIN (self->n_test, TEST_CHUNK));
  groups = (mcl->most + SOFTMAX_WG - 1) / SOFTMAX_WG;
  for (guint l = 0; l < self->n_layers; l++)
    {
      widest = MAX (widest, self->sizes[l + 1]);
      largest = MAX (largest, latent_mlp_weights (self, l));
      all_blocks += blocks (self, l);
    }
  mcl->loss_host = g_new (float, groups);
  mcl->right_host = g_new (guint, groups);
  mcl->sq_host = g_new (float, all_blocks);
  if (!(mcl->gemm = latent_gemm_new (cl, error)) || !(mcl->queue = latent_cl_create_queue (cl, error)))
    return NULL;
  for (guint i = 0; i < N_KERNELS; i++)
    if (!(mcl->k[i] = latent_cl_create_kernel (cl, i < K_ACTIVATE ? "logreg" : "mlp", i < K_ACTIVATE ? options : NULL,
                                               kernel_names[i], error)))
      return NULL;
  if (!latent_classify_upload_rows (mcl->cl, self->rows, &mcl->data, &mcl->labels, error) ||
      (self->test_source != self->rows &&
       !latent_classify_upload_rows (mcl->cl, self->test_source, &mcl->test_data, &mcl->test_labels, error)) ||
      !latent_cl_create_buffer (cl, &mcl->order, CL_MEM_READ_ONLY, self->n_train * sizeof (gint32), NULL,
                                "row order", error) ||
      !latent_cl_create_buffer (cl, &mcl->test_rows, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                MAX (self->n_test, 1u) * sizeof (gint32), self->split->test_rows, "test rows", error) ||
      !latent_cl_create_buffer (cl, &mcl->mean, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, self->d * sizeof (float),
                                self->mean, "standardisation", error) ||
      !latent_cl_create_buffer (cl, &mcl->scale, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, self->d * sizeof (float),
                                self->scale, "standardisation", error) ||
      !latent_cl_create_buffer (cl, &mcl->y, CL_MEM_READ_WRITE, mcl->most * sizeof (gint32), NULL,
                                "mini-batch classes", error) ||
      !latent_cl_create_buffer (cl, &mcl->pred, CL_MEM_READ_WRITE, mcl->most * sizeof (gint32), NULL,
                                "predictions", error) ||
      !latent_cl_create_buffer (cl, &mcl->partial_loss, CL_MEM_READ_WRITE, groups * sizeof (float), NULL,
                                "losses", error) ||
      !latent_cl_create_buffer (cl, &mcl->partial_right, CL_MEM_READ_WRITE, groups * sizeof (guint), NULL,
                                "right predictions", error) ||
      !create (mcl, &mcl->gw, largest, NULL, "weight gradient", error) ||
      !create (mcl, &mcl->e[0], mcl->most * widest, NULL, "errors", error) ||
      !create (mcl, &mcl->e[1], mcl->most * widest, NULL, "errors", error))
    return NULL;
  for (guint l = 0; l < self->n_layers; l++)
    {
      const gsize out = self->sizes[l + 1];

      if (!create (mcl, &mcl->a[l], (gsize) mcl->most * self->sizes[l], NULL, "activations", error) ||
          !create_transposed (mcl, &mcl->w[l], l, self->w[l], "weights", error) ||
          !create (mcl, &mcl->b[l], out, self->b[l], "biases", error) ||
          !create_transposed (mcl, &mcl->vw[l], l, self->vw[l], "optimiser", error) ||
          !create (mcl, &mcl->vb[l], out, self->vb[l], "optimiser", error) ||
          !create (mcl, &mcl->sq[l], blocks (self, l), NULL, "penalty", error) ||
          (self->adam && (!create_transposed (mcl, &mcl->sw[l], l, self->sw[l], "optimiser", error) ||
                          !create (mcl, &mcl->sb[l], out, self->sb[l], "optimiser", error))))
        return NULL;
    }
  return g_steal_pointer (&mcl);
}

gboolean
latent_mlp_cl_set_order (LatentMlpCl  *mcl,
                         GError      **error)
{
  LatentMlp *self = mcl->self;

  /* Blocking: the host reshuffles its copy next epoch. */
  return latent_cl_check (clEnqueueWriteBuffer (mcl->queue, mcl->order, CL_TRUE, 0,
                                                self->n_train * sizeof (gint32), self->order, 0, NULL, NULL),
                          "clEnqueueWriteBuffer", "row order", error);
}

static gboolean
gather (LatentMlpCl  *mcl,
        cl_mem        data,
        cl_mem        labels,
        cl_mem        rows_of,
        guint         first,
        guint         rows,
        GError      **error)
{
  const cl_uint first_row = first, n_rows = rows, d = mcl->self->d;
  const gsize global[2] = { (d + VEC - 1) / VEC, rows };

  return latent_cl_set_args (mcl->k[K_GATHER], kernel_names[K_GATHER], error,
                             LATENT_CL_ARG (data), LATENT_CL_ARG (labels), LATENT_CL_ARG (rows_of),
                             LATENT_CL_ARG (first_row), LATENT_CL_ARG (n_rows), LATENT_CL_ARG (d),
                             LATENT_CL_ARG (mcl->mean), LATENT_CL_ARG (mcl->scale), LATENT_CL_ARG (mcl->a[0]),
                             LATENT_CL_ARG (mcl->y), LATENT_CL_ARG_END) &&
         enqueue (mcl, K_GATHER, 2, global, NULL, error);
}

/* One of the hidden-layer kernels on @rows rows of layer @l's outputs. */
static gboolean
hidden_kernel (LatentMlpCl  *mcl,
               guint         kernel,
               cl_mem        target,
               cl_mem        other,
               guint         l,
               guint         rows,
               gboolean      train,
               GError      **error)
{
  LatentMlp *self = mcl->self;
  const cl_uint n_rows = rows, units = self->sizes[l + 1], use_tanh = self->tanh;
  const cl_uint seed = (guint32) self->seed, step = self->iteration, layer = l;
  const cl_uint threshold = train ? latent_mlp_threshold (self) : 0;
  const cl_float keep_scale = threshold ? 1 / (1 - (float) self->dropout) : 1;
  const gsize global[2] = { units, rows };

  return latent_cl_set_args (mcl->k[kernel], kernel_names[kernel], error,
                             LATENT_CL_ARG (target), LATENT_CL_ARG (other), LATENT_CL_ARG (n_rows),
                             LATENT_CL_ARG (units), LATENT_CL_ARG (use_tanh), LATENT_CL_ARG (seed),
                             LATENT_CL_ARG (step), LATENT_CL_ARG (layer), LATENT_CL_ARG (threshold),
                             LATENT_CL_ARG (keep_scale), LATENT_CL_ARG_END) &&
         enqueue (mcl, kernel, 2, global, NULL, error);
}

/* The gathered rows a[0] through every layer: hidden outputs into a[l],
 * the scores' softmax into e[0] (as E with @train), the predictions and
 * the groups' partial sums read back without waiting. */
static gboolean
forward (LatentMlpCl   *mcl,
         guint          rows,
         gboolean       train,
         GCancellable  *cancellable,
         GError       **error)
{
  LatentMlp *self = mcl->self;
  const guint L = self->n_layers;
  const cl_uint n_rows = rows, c = self->c, with_grad = train;
  const cl_float inv_rows = 1.0f / rows;
  const gsize groups = (rows + SOFTMAX_WG - 1) / SOFTMAX_WG;
  const gsize global[1] = { groups * SOFTMAX_WG }, local[1] = { SOFTMAX_WG };

  for (guint l = 0; l < L; l++)
    {
      const guint in = self->sizes[l], out = self->sizes[l + 1];
      cl_mem to = l + 1 < L ? mcl->a[l + 1] : mcl->e[0];

      if (!latent_gemm_run (mcl->gemm, mcl->queue, FALSE, FALSE, rows, out, in, 1.0f, mcl->a[l], in,
                            mcl->w[l], out, 0.0f, to, out, cancellable, error) ||
          (l + 1 < L && !hidden_kernel (mcl, K_ACTIVATE, to, mcl->b[l], l, rows, train, error)))
        return FALSE;
    }
  return latent_cl_set_args (mcl->k[K_SOFTMAX], kernel_names[K_SOFTMAX], error,
                             LATENT_CL_ARG (mcl->e[0]), LATENT_CL_ARG (mcl->b[L - 1]), LATENT_CL_ARG (mcl->y),
                             LATENT_CL_ARG (n_rows), LATENT_CL_ARG (c), LATENT_CL_ARG (inv_rows),
                             LATENT_CL_ARG (with_grad), LATENT_CL_ARG (mcl->pred),
                             LATENT_CL_ARG (mcl->partial_loss), LATENT_CL_ARG (mcl->partial_right),
                             LATENT_CL_ARG_END) &&
         enqueue (mcl, K_SOFTMAX, 1, global, local, error) &&
         latent_cl_check (clEnqueueReadBuffer (mcl->queue, mcl->partial_loss, CL_FALSE, 0, groups * sizeof (float),
                                               mcl->loss_host, 0, NULL, NULL),
                          "clEnqueueReadBuffer", "losses", error) &&
         latent_cl_check (clEnqueueReadBuffer (mcl->queue, mcl->partial_right, CL_FALSE, 0,
                                               groups * sizeof (guint), mcl->right_host, 0, NULL, NULL),
                          "clEnqueueReadBuffer", "right predictions", error);
}

/* The summed loss of @rows rows from the groups' partial sums, and their
 * right predictions. */
static double
finish_loss (LatentMlpCl *mcl,
             guint        rows,
             guint       *right)
{
  const guint groups = (rows + SOFTMAX_WG - 1) / SOFTMAX_WG;
  double sum = 0;

  *right = 0;
  for (guint g = 0; g < groups; g++)
    {
      sum += mcl->loss_host[g];
      *right += mcl->right_host[g];
    }
  return sum;
}

/* Layer @l's update from its weight gradient in gw and its error @e,
 * the sums of squares of its weights before the step into sq[l]. */
static gboolean
update (LatentMlpCl                *mcl,
        guint                       l,
        cl_mem                      e,
        guint                       rows,
        const LatentOptimiserStep  *step,
        GError                    **error)
{
  LatentMlp *self = mcl->self;
  const cl_uint cd = latent_mlp_weights (self, l), c = self->sizes[l + 1], n_rows = rows, adam = self->adam;
  const cl_float l2 = self->l2, lr = step->lr, mu = step->mu, eps = step->eps;
  const gsize global[1] = { blocks (self, l) + c };
  /* Unused arguments still take a buffer: momentum's own. */
  cl_mem sw = adam ? mcl->sw[l] : mcl->vw[l], sb = adam ? mcl->sb[l] : mcl->vb[l];

  return latent_cl_set_args (mcl->k[K_UPDATE], kernel_names[K_UPDATE], error,
                             LATENT_CL_ARG (mcl->w[l]), LATENT_CL_ARG (mcl->vw[l]), LATENT_CL_ARG (sw),
                             LATENT_CL_ARG (mcl->gw), LATENT_CL_ARG (mcl->b[l]), LATENT_CL_ARG (mcl->vb[l]),
                             LATENT_CL_ARG (sb), LATENT_CL_ARG (e), LATENT_CL_ARG (mcl->sq[l]),
                             LATENT_CL_ARG (cd), LATENT_CL_ARG (c), LATENT_CL_ARG (n_rows), LATENT_CL_ARG (l2),
                             LATENT_CL_ARG (lr), LATENT_CL_ARG (mu), LATENT_CL_ARG (eps), LATENT_CL_ARG (adam),
                             LATENT_CL_ARG_END) &&
         enqueue (mcl, K_UPDATE, 1, global, NULL, error);
}

gboolean
latent_mlp_cl_step (LatentMlpCl   *mcl,
                    guint          first,
                    guint          rows,
                    double        *loss,
                    guint         *right,
                    GCancellable  *cancellable,
                    GError       **error)
{
  LatentMlp *self = mcl->self;
  const guint L = self->n_layers;
  LatentOptimiserStep step;
  float *sq_host = mcl->sq_host;
  double sq = 0;
  guint e = 0;

  latent_optimiser_prepare (&step, self->adam, self->learning_rate, self->momentum, self->adam_t);
  if (!gather (mcl, mcl->data, mcl->labels, mcl->order, first, rows, error) ||
      !forward (mcl, rows, TRUE, cancellable, error))
    goto fail;
  for (guint l = L; l-- > 0;)
    {
      const guint in = self->sizes[l], out = self->sizes[l + 1];

      /* ∂Wᵀ = Aᵀ E; the error below, E W, through the weights before their step. */
      if (!latent_gemm_run (mcl->gemm, mcl->queue, TRUE, FALSE, in, out, rows, 1.0f, mcl->a[l], in,
                            mcl->e[e], out, 0.0f, mcl->gw, out, cancellable, error) ||
          (l > 0 && !latent_gemm_run (mcl->gemm, mcl->queue, FALSE, TRUE, rows, in, out, 1.0f, mcl->e[e], out,
                                      mcl->w[l], out, 0.0f, mcl->e[!e], in, cancellable, error)) ||
          !update (mcl, l, mcl->e[e], rows, &step, error) ||
          !latent_cl_check (clEnqueueReadBuffer (mcl->queue, mcl->sq[l], CL_FALSE, 0,
                                                 blocks (self, l) * sizeof (float), sq_host, 0, NULL, NULL),
                            "clEnqueueReadBuffer", "penalty", error))
        goto fail;
      sq_host += blocks (self, l);
      if (l > 0)
        {
          if (!hidden_kernel (mcl, K_BACKWARD, mcl->e[!e], mcl->a[l], l - 1, rows, TRUE, error))
            goto fail;
          e = !e;
        }
    }
  if (!latent_cl_check (clFinish (mcl->queue), "clFinish", "mlp", error))
    goto fail;
  for (float *at = mcl->sq_host; at < sq_host; at++)
    sq += *at;
  *loss = finish_loss (mcl, rows, right) / rows + 0.5 * self->l2 * sq;
  return TRUE;

fail:
  clFinish (mcl->queue);
  return FALSE;
}

gboolean
latent_mlp_cl_test (LatentMlpCl   *mcl,
                    GCancellable  *cancellable,
                    GError       **error)
{
  LatentMlp *self = mcl->self;
  cl_mem data = mcl->test_data ? mcl->test_data : mcl->data;
  cl_mem labels = mcl->test_labels ? mcl->test_labels : mcl->labels;
  double total = 0;

  for (guint first = 0; first < self->n_test; first += mcl->most)
    {
      const guint rows = MIN (mcl->most, self->n_test - first);
      guint right;

      if (!gather (mcl, data, labels, mcl->test_rows, first, rows, error) ||
          !forward (mcl, rows, FALSE, cancellable, error) ||
          !latent_cl_check (clEnqueueReadBuffer (mcl->queue, mcl->pred, CL_FALSE, 0, rows * sizeof (gint32),
                                                 self->test_predictions + first, 0, NULL, NULL),
                            "clEnqueueReadBuffer", "predictions", error) ||
          !latent_cl_check (clFinish (mcl->queue), "clFinish", "mlp", error))
        {
          clFinish (mcl->queue);
          return FALSE;
        }
      total += finish_loss (mcl, rows, &right);
    }
  self->test_loss = self->n_test ? total / self->n_test : NAN;
  return TRUE;
}

gboolean
latent_mlp_cl_read (LatentMlpCl  *mcl,
                    gboolean      optimiser,
                    GError      **error)
{
  LatentMlp *self = mcl->self;

  /* The transposed weights come back into one scratch each, turned on the host. */
  float *scratch[3 * LATENT_MLP_MAX_LAYERS] = { NULL };
  float **host[3] = { self->w, self->vw, self->sw };
  cl_mem *device[3] = { mcl->w, mcl->vw, mcl->sw };
  const guint kinds = !optimiser ? 1 : self->adam ? 3 : 2;
  gboolean ok = TRUE;

#define READ(buf, host, count) \
  latent_cl_check (clEnqueueReadBuffer (mcl->queue, buf, CL_FALSE, 0, (count) * sizeof (float), host, \
                                        0, NULL, NULL), "clEnqueueReadBuffer", "weights", error)
  for (guint l = 0; ok && l < self->n_layers; l++)
    {
      const gsize out = self->sizes[l + 1];

      for (guint k = 0; ok && k < kinds; k++)
        {
          scratch[k * LATENT_MLP_MAX_LAYERS + l] = g_new (float, latent_mlp_weights (self, l));
          ok = READ (device[k][l], scratch[k * LATENT_MLP_MAX_LAYERS + l], latent_mlp_weights (self, l));
        }
      ok = ok && READ (mcl->b[l], self->b[l], out) && (!optimiser || READ (mcl->vb[l], self->vb[l], out)) &&
           (!optimiser || !self->adam || READ (mcl->sb[l], self->sb[l], out));
    }
#undef READ
  ok = ok && latent_cl_check (clFinish (mcl->queue), "clFinish", "mlp", error);
  if (!ok)
    clFinish (mcl->queue);
  for (guint l = 0; l < self->n_layers; l++)
    for (guint k = 0; k < kinds; k++)
      {
        float *t = scratch[k * LATENT_MLP_MAX_LAYERS + l];

        if (ok && t)
          transpose (t, host[k][l], self->sizes[l], self->sizes[l + 1]);
        g_free (t);
      }
  return ok;
}
