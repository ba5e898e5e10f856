/* test-gemm.c — the OpenCL matrix product against a double-precision triple loop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-gemm"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "latent-gemm.h"
#include "latent-test-util.h"

static LatentCl *cl;
static LatentGemm *gemm;

typedef struct {
  gboolean trans_a, trans_b;
  guint m, n, k;
  guint pad;         /* extra elements per row beyond the width */
  float alpha, beta;
} Case;

static cl_mem
upload (const float *host,
        gsize        count)
{
  g_autoptr(GError) error = NULL;
  cl_mem mem = NULL;

  g_assert_true (latent_cl_create_buffer (cl, &mem, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                          MAX (count, 1) * sizeof (float), (gpointer) host, "test", &error));
  g_assert_no_error (error);
  return mem;
}

static float *
random_matrix (guint    rows,
               guint    ld,
               guint64 *state)
{
  float *x = g_new (float, MAX ((gsize) rows * ld, 1));

  /* The padding holds values too: reading it would show. */
  for (gsize i = 0; i < (gsize) rows * ld; i++)
    x[i] = 2 * test_uniform (state) - 1;
  return x;
}

/* Checks one product: every element of C within 1e-5 · sqrt(k) of the
 * size of its terms, and C's padding untouched. */
static void
check_case (const Case *tc,
            gboolean    syrk)
{
  const guint a_rows = tc->trans_a ? tc->k : tc->m, a_cols = tc->trans_a ? tc->m : tc->k;
  const guint b_rows = tc->trans_b ? tc->n : tc->k, b_cols = tc->trans_b ? tc->k : tc->n;
  const guint lda = a_cols + tc->pad, ldb = b_cols + tc->pad + 1, ldc = tc->n + tc->pad + 2;
  guint64 state = tc->m * 7919u + tc->n * 104729u + tc->k + tc->pad;
  g_autofree float *a = random_matrix (a_rows, lda, &state);
  g_autofree float *b = syrk ? NULL : random_matrix (b_rows, ldb, &state);
  g_autofree float *c = random_matrix (tc->m, ldc, &state);
  g_autofree float *out = g_new (float, (gsize) tc->m * ldc);
  g_autoptr(GError) error = NULL;
  cl_command_queue queue = latent_cl_get_queue (cl);
  cl_mem da, db = NULL, dc;
  double worst = 0;
  gboolean ok;

  /* beta = 0 must not read C: NaN there would show. */
  if (tc->beta == 0)
    for (guint i = 0; i < tc->m; i++)
      for (guint j = 0; j < tc->n; j++)
        c[(gsize) i * ldc + j] = NAN;
  da = upload (a, (gsize) a_rows * lda);
  dc = upload (c, (gsize) tc->m * ldc);
  if (syrk)
    ok = latent_gemm_syrk (gemm, queue, tc->n, tc->k, tc->alpha, da, lda, tc->beta, dc, ldc, NULL, &error);
  else
    {
      db = upload (b, (gsize) b_rows * ldb);
      ok = latent_gemm_run (gemm, queue, tc->trans_a, tc->trans_b, tc->m, tc->n, tc->k, tc->alpha,
                            da, lda, db, ldb, tc->beta, dc, ldc, NULL, &error);
    }
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpint (clEnqueueReadBuffer (queue, dc, CL_TRUE, 0, (gsize) tc->m * ldc * sizeof (float), out,
                                        0, NULL, NULL), ==, CL_SUCCESS);

  for (guint i = 0; i < tc->m; i++)
    {
      for (guint j = 0; j < tc->n; j++)
        {
          /* SYRK computes the upper triangle and mirrors it down. */
          double c0 = syrk ? c[(gsize) MIN (i, j) * ldc + MAX (i, j)] : c[(gsize) i * ldc + j];
          double sum = 0, scale = 0, want, got = out[(gsize) i * ldc + j];

          for (guint p = 0; p < tc->k; p++)
            {
              double x = tc->trans_a ? a[(gsize) p * lda + i] : a[(gsize) i * lda + p];
              double y;

              if (syrk)
                y = a[(gsize) p * lda + j];
              else
                y = tc->trans_b ? b[(gsize) j * ldb + p] : b[(gsize) p * ldb + j];
              sum += x * y;
              scale += fabs (x * y);
            }
          if (tc->beta == 0)
            c0 = 0;
          want = tc->alpha * sum + tc->beta * c0;
          scale = fabs (tc->alpha) * scale + fabs (tc->beta * c0) + 1e-30;
          worst = MAX (worst, fabs (got - want) / scale);
        }
      for (guint j = tc->n; j < ldc; j++)
        g_assert_cmpfloat (out[(gsize) i * ldc + j], ==, c[(gsize) i * ldc + j]);
    }
  g_assert_cmpfloat (worst, <=, 1e-5 * sqrt (MAX (tc->k, 1)));

  clReleaseMemObject (da);
  if (db)
    clReleaseMemObject (db);
  clReleaseMemObject (dc);
}

/* Sizes off every tile and group size of both shapes, one row, one column. */
static const guint shapes[][3] = {
  { 1, 1, 1 }, { 17, 5, 3 }, { 64, 64, 64 }, { 100, 37, 513 }, { 49, 129, 2 }, { 200, 50, 784 },
  { 7, 65, 130 }, { 130, 7, 65 }, { 65, 130, 1 }, { 1, 200, 130 }, { 129, 1, 17 }, { 257, 131, 33 },
};

static void
test_shapes (void)
{
  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (guint t = 0; t < 4; t++)
      for (guint pad = 0; pad <= 3; pad += 3)
        {
          Case tc = { t & 1, t >> 1, shapes[s][0], shapes[s][1], shapes[s][2], pad, 0.75f, -0.5f };

          g_test_message ("m %u n %u k %u trans %d%d pad %u", tc.m, tc.n, tc.k, tc.trans_a, tc.trans_b, pad);
          check_case (&tc, FALSE);
        }
}

/* The PCA-sized case: deep enough to take several launches over depth slices. */
static void
test_large (void)
{
  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint t = 0; t < 4; t++)
    {
      Case tc = { t & 1, t >> 1, 784, 784, 1000, 1, 1.5f, 0.25f };

      check_case (&tc, FALSE);
    }
}

/* Deep and narrow: 30 rows of C but a depth of many slices. */
static void
test_deep (void)
{
  Case tc = { TRUE, FALSE, 30, 45, 20000, 0, 2.0f, 1.0f };

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  check_case (&tc, FALSE);
}

/* beta = 0 must not read C, even when it holds NaN; k = 0 only scales. */
static void
test_beta_zero_and_empty (void)
{
  const float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 1, 0, 0, 1, 1, 1 };
  float c[4] = { NAN, NAN, NAN, NAN }, out[4];
  g_autoptr(GError) error = NULL;
  cl_command_queue queue;
  cl_mem da, db, dc;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  queue = latent_cl_get_queue (cl);
  da = upload (a, 6);
  db = upload (b, 6);
  dc = upload (c, 4);
  /* [1 2 3; 4 5 6] · [1 0; 0 1; 1 1] = [4 5; 10 11] */
  g_assert_true (latent_gemm_run (gemm, queue, FALSE, FALSE, 2, 2, 3, 2.0f, da, 3, db, 2, 0.0f, dc, 2, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (clEnqueueReadBuffer (queue, dc, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), ==, CL_SUCCESS);
  g_assert_cmpfloat (out[0], ==, 8);
  g_assert_cmpfloat (out[1], ==, 10);
  g_assert_cmpfloat (out[2], ==, 20);
  g_assert_cmpfloat (out[3], ==, 22);

  g_assert_true (latent_gemm_run (gemm, queue, FALSE, FALSE, 2, 2, 0, 2.0f, da, 3, db, 2, 0.5f, dc, 2, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (clEnqueueReadBuffer (queue, dc, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL), ==, CL_SUCCESS);
  g_assert_cmpfloat (out[0], ==, 4);
  g_assert_cmpfloat (out[3], ==, 11);

  clReleaseMemObject (da);
  clReleaseMemObject (db);
  clReleaseMemObject (dc);
}

static void
test_syrk (void)
{
  const guint sizes[][2] = {
    { 1, 1 }, { 7, 3 }, { 33, 100 }, { 200, 513 }, { 784, 3000 }, { 130, 65 }, { 65, 1 }, { 129, 7 }, { 257, 40 },
  };

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      Case tc = { TRUE, FALSE, sizes[s][0], sizes[s][0], sizes[s][1], s % 2 * 5, 0.5f, 2.0f };

      check_case (&tc, TRUE);
    }
}

/* The Gram product of integers in [-255, 255] given as row pairs, N × N
 * from a depth of K rows: within float rounding of the double sums, and
 * exact where every sum is an integer below 2^24 (EXACT). */
static void
check_pairs (LatentGemm *g,
             guint       n,
             guint       k,
             guint       pad,
             float       alpha,
             float       beta,
             gboolean    exact)
{
  const guint kp = (k + 1) / 2, ldp = n + pad, ldc = n + pad + 2;
  guint64 state = n * 7919u + k + pad;
  g_autofree gint16 *x = g_new (gint16, MAX ((gsize) k * n, 1));
  g_autofree gint32 *p = g_new (gint32, MAX ((gsize) kp * ldp, 1));
  g_autofree float *c = random_matrix (n, ldc, &state);
  g_autofree float *out = g_new (float, (gsize) n * ldc);
  g_autoptr(GError) error = NULL;
  cl_command_queue queue = latent_cl_get_queue (cl);
  cl_mem dp = NULL, dc = upload (c, (gsize) n * ldc);
  double worst = 0;

  for (gsize i = 0; i < (gsize) k * n; i++)
    x[i] = (gint16) floor (511 * test_uniform (&state)) - 255;
  for (guint q = 0; q < kp; q++)
    for (guint j = 0; j < ldp; j++)
      {
        /* The padding holds values too: reading it would show. */
        const guint32 even = j < n ? (guint16) x[(gsize) 2 * q * n + j] : 0x7fff;
        const guint32 odd = j < n && 2 * q + 1 < k ? (guint16) x[(gsize) (2 * q + 1) * n + j] : j < n ? 0 : 0x7fff;

        p[(gsize) q * ldp + j] = (gint32) (even | odd << 16);
      }
  g_assert_true (latent_cl_create_buffer (cl, &dp, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                          MAX ((gsize) kp * ldp, 1) * sizeof (gint32), p, "test", &error));
  g_assert_true (latent_gemm_syrk_pairs (g, queue, n, kp, alpha, dp, ldp, beta, dc, ldc, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (clEnqueueReadBuffer (queue, dc, CL_TRUE, 0, (gsize) n * ldc * sizeof (float), out, 0, NULL, NULL),
                   ==, CL_SUCCESS);
  for (guint i = 0; i < n; i++)
    {
      for (guint j = 0; j < n; j++)
        {
          const double c0 = beta == 0 ? 0 : c[(gsize) MIN (i, j) * ldc + MAX (i, j)];
          double sum = 0, scale = 0, want;

          for (guint r = 0; r < k; r++)
            {
              sum += x[(gsize) r * n + i] * x[(gsize) r * n + j];
              scale += fabs ((double) x[(gsize) r * n + i] * x[(gsize) r * n + j]);
            }
          want = alpha * sum + beta * c0;
          if (exact)
            g_assert_cmpfloat (out[(gsize) i * ldc + j], ==, want);
          scale = fabs (alpha) * scale + fabs (beta * c0) + 1e-30;
          worst = MAX (worst, fabs (out[(gsize) i * ldc + j] - want) / scale);
        }
      for (guint j = n; j < ldc; j++)
        g_assert_cmpfloat (out[(gsize) i * ldc + j], ==, c[(gsize) i * ldc + j]);
    }
  g_assert_cmpfloat (worst, <=, 1e-6 * sqrt (MAX (k, 1)));
  clReleaseMemObject (dp);
  clReleaseMemObject (dc);
}

/* A product built with LATENT_GEMM_PAIRS=MODE ("" for the device's own choice). */
static LatentGemm *
gemm_in_mode (const char *mode)
{
  g_autoptr(GError) error = NULL;
  LatentGemm *g;

  g_setenv ("LATENT_GEMM_PAIRS", mode, TRUE);
  g = latent_gemm_new (cl, &error);
  g_setenv ("LATENT_GEMM_PAIRS", "", TRUE);
  g_assert_no_error (error);
  return g;
}

/* Row pairs: the kernel the device has (a CPU with AVX-512BW, with VNNI
 * where the processor has it), then pmaddwd and the portable form forced;
 * odd depths leave the last pair half empty, and depths past one block (KC
 * pairs) add blocks in float. The GPU shape has none. */
static void
test_syrk_pairs (void)
{
  static const guint sizes[][2] = {
    { 1, 1 }, { 7, 3 }, { 33, 100 }, { 200, 513 }, { 300, 3001 }, { 65, 1 }, { 129, 7 }, { 257, 40 }, { 40, 769 },
  };
  static const char *const modes[] = { "", "pmaddwd", "generic" };
  g_autoptr(GError) error = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint form = 0; form < G_N_ELEMENTS (modes); form++)
    {
      g_autoptr(LatentGemm) g = gemm_in_mode (modes[form]);

      if (latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU)
        {
          g_assert_false (latent_gemm_has_pairs (g));
          continue;
        }
      if (form == 2)
        g_assert_cmpstr (latent_gemm_pairs_form (g), ==, "generic");
      if (!latent_gemm_has_pairs (g))
        {
          g_test_message ("no native products of row pairs on this device");
          continue;
        }
#if defined(__x86_64__) && defined(__GNUC__)
      /* This processor's VNNI is used when the device is the processor. */
      if (form == 0 && __builtin_cpu_supports ("avx512vnni") &&
          latent_cl_get_info (cl)->type == CL_DEVICE_TYPE_CPU)
        g_assert_cmpstr (latent_gemm_pairs_form (g), ==, "vnni");
#endif
      if (form == 1)
        g_assert_cmpstr (latent_gemm_pairs_form (g), ==, "pmaddwd");
      g_test_message ("%s form", latent_gemm_pairs_form (g));
      /* One block, every sum below 2^24: exact. */
      check_pairs (g, 50, 200, 1, 1.0f, 0.0f, TRUE);
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        check_pairs (g, sizes[s][0], sizes[s][1], s % 2 * 5, 0.5f, s % 3 == 0 ? 0.0f : 2.0f, FALSE);
    }
}

/* Row quads: N × N from a depth of KQ quads of random signed bytes (the
 * padding columns hold bytes too), exact in int64 against the host's sums
 * of s_i (s_j + 128) on and above the diagonal, nothing written past the
 * last column. */
static void
check_quads (LatentGemm *g,
             guint       n,
             guint       kq,
             guint       pad)
{
  const guint ldq = n + pad, ldc = n + pad + 1;
  guint64 state = n * 7919u + kq + pad;
  g_autofree guint8 *bytes = g_new0 (guint8, MAX ((gsize) kq * ldq * 4, 4));
  g_autofree gint64 *c = g_new (gint64, (gsize) n * ldc);
  cl_command_queue queue = latent_cl_get_queue (cl);
  g_autoptr(GError) error = NULL;
  cl_mem dq = NULL, dc = NULL;

  for (gsize i = 0; i < (gsize) kq * ldq * 4; i++)
    bytes[i] = (guint8) floor (256 * test_uniform (&state));
  for (gsize i = 0; i < (gsize) n * ldc; i++)
    c[i] = G_MININT64 + (gint64) i;
  g_assert_true (latent_cl_create_buffer (cl, &dq, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                          MAX ((gsize) kq * ldq * 4, 4), bytes, "test", &error));
  g_assert_true (latent_cl_create_buffer (cl, &dc, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                          (gsize) n * ldc * sizeof (gint64), c, "test", &error));
  g_assert_true (latent_gemm_syrk_quads (g, queue, n, kq, dq, ldq, dc, ldc, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (clEnqueueReadBuffer (queue, dc, CL_TRUE, 0, (gsize) n * ldc * sizeof (gint64), c, 0, NULL, NULL),
                   ==, CL_SUCCESS);
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < ldc; j++)
      {
        gint64 want = G_MININT64 + (gint64) i * ldc + j;

        /* Below the diagonal, the tiles that touch it write too. */
        if (j < i)
          continue;
        if (j < n)
          {
            want = 0;
            for (gsize r = 0; r < (gsize) kq * 4; r++)
              {
                /* Byte r % 4 of quad r / 4, column i. */
                const gint8 si = (gint8) bytes[(r / 4 * ldq + i) * 4 + r % 4];
                const gint8 sj = (gint8) bytes[(r / 4 * ldq + j) * 4 + r % 4];

                want += si * (sj + 128);
              }
          }
        g_assert_cmpint (c[(gsize) i * ldc + j], ==, want);
      }
  clReleaseMemObject (dq);
  clReleaseMemObject (dc);
}

/* Row quads: the VNNI form where the processor has it, and the portable
 * one; depths past one block (KC quads) and past one launch's slice. */
static void
test_syrk_quads (void)
{
  static const guint sizes[][2] = {
    { 1, 1 }, { 7, 3 }, { 33, 100 }, { 65, 129 }, { 200, 257 }, { 300, 6000 }, { 40, 0 },
  };
  static const char *const modes[] = { "", "generic" };
  g_autoptr(GError) error = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint form = 0; form < G_N_ELEMENTS (modes); form++)
    {
      g_autoptr(LatentGemm) g = gemm_in_mode (modes[form]);

      if (latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU)
        {
          g_assert_false (latent_gemm_has_quads (g));
          continue;
        }
#if defined(__x86_64__) && defined(__GNUC__)
      if (form == 0 && __builtin_cpu_supports ("avx512vnni") &&
          latent_cl_get_info (cl)->type == CL_DEVICE_TYPE_CPU)
        g_assert_true (latent_gemm_has_quads (g));
#endif
      if (form == 1)
        g_assert_true (latent_gemm_has_quads (g));
      if (!latent_gemm_has_quads (g))
        {
          g_test_message ("no VNNI row quads on this device");
          continue;
        }
      g_test_message ("%s form", form == 0 ? "vnni" : "generic");
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        check_quads (g, sizes[s][0], sizes[s][1], s % 2 * 3);
    }
}

/* Products of every kind with another LatentGemm, built after the tunables
 * of "gemm" were set to VALUES (NAMES[i] = VALUES[i], NULL-ended). */
static void
check_with_tunables (const char *const *names,
                     const int          *values)
{
  static const Case cases[] = {
    { FALSE, FALSE, 130, 65, 300, 1, 0.75f, -0.5f },
    { TRUE, FALSE, 7, 200, 517, 0, 1.0f, 0.0f },
    { FALSE, TRUE, 1, 33, 1000, 2, -1.5f, 2.0f },
    { TRUE, TRUE, 65, 1, 260, 3, 0.5f, 1.0f },
    { FALSE, FALSE, 300, 129, 2, 0, 1.0f, 0.5f },
  };
  static const Case syrk_cases[] = {
    { TRUE, FALSE, 200, 200, 3000, 1, 0.5f, 2.0f },
    { TRUE, FALSE, 65, 65, 1000, 0, 1.0f, 0.0f },
  };
  LatentGemm *saved = gemm;
  g_autoptr(LatentGemm) other = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; names[i]; i++)
    latent_cl_set_tunable (cl, "gemm", names[i], values[i]);
  other = latent_gemm_new (cl, &error);
  g_assert_no_error (error);
  gemm = other;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i], FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (syrk_cases); i++)
    check_case (&syrk_cases[i], TRUE);
  gemm = saved;
  latent_cl_clear_tunables (cl, "gemm");
}

/* The GPU shape splits a deep product over its depth when C has few tiles
 * (SPLIT groups per compute unit): forced here on every product, the
 * slices added up by gemm_sum, with beta, and with SYRK's upper triangle.
 * The CPU shape ignores SPLIT and must give the same. */
static void
test_split (void)
{
  const char *const names[] = { "SPLIT", NULL };
  const int values[] = { 64 };

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  check_with_tunables (names, values);
}

/* Candidate tiles a tuner may try, in each shape: every one must give the
 * product. In the GPU shape also one the kernel refuses (TSM 96), which
 * falls back to the defaults; likewise MR 0 in the CPU shape. */
static void
test_tiles (void)
{
  const char *const gpu_names[] = {
    "TSM", "TSN", "TSK", "WPTM", "WPTN", "VW", "PREFETCH", "SPLIT", "MIRROR_TILE", NULL,
  };
  const int gpu_values[][9] = {
    { 64, 64, 16, 4, 4, 4, 0, 0, 8 },
    { 64, 128, 8, 4, 8, 2, 1, 2, 16 },
    { 128, 64, 32, 8, 4, 1, 0, 0, 32 },
    { 32, 32, 16, 2, 2, 2, 1, 8, 8 },
    { 128, 128, 8, 8, 8, 4, 1, 0, 16 },
    { 128, 128, 32, 8, 8, 4, 0, 0, 16 },
    { 96, 128, 16, 8, 8, 4, 0, 0, 16 },
  };
  const char *const cpu_names[] = { "MR", "KC", NULL };
  const int cpu_values[][2] = { { 4, 64 }, { 8, 256 }, { 6, 32 }, { 0, 128 } };

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  if (latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU)
    for (guint i = 0; i < G_N_ELEMENTS (gpu_values); i++)
      {
        const int *v = gpu_values[i];

        g_test_message ("TSM %d TSN %d TSK %d WPTM %d WPTN %d VW %d PREFETCH %d SPLIT %d MIRROR_TILE %d",
                        v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
        check_with_tunables (gpu_names, v);
      }
  else
    for (guint i = 0; i < G_N_ELEMENTS (cpu_values); i++)
      {
        g_test_message ("MR %d KC %d", cpu_values[i][0], cpu_values[i][1]);
        check_with_tunables (cpu_names, cpu_values[i]);
      }
}

/* A few small products of each kind, small enough for oclgrind: odd
 * sizes, every transpose, beta 0 and not, SYRK, and a split depth. */
static void
test_small (void)
{
  static const Case cases[] = {
    { FALSE, FALSE, 7, 65, 33, 1, 0.75f, -0.5f },
    { TRUE, FALSE, 65, 7, 17, 0, 1.0f, 0.0f },
    { FALSE, TRUE, 1, 130, 5, 2, -1.5f, 2.0f },
    { TRUE, TRUE, 33, 1, 40, 3, 0.5f, 1.0f },
  };
  static const Case syrk_case = { TRUE, FALSE, 20, 20, 30, 1, 0.5f, 2.0f };
  static const Case split_cases[] = {
    { FALSE, TRUE, 9, 7, 300, 1, 1.5f, 0.25f },
    { TRUE, FALSE, 20, 20, 300, 0, 1.0f, 0.0f },
  };
  LatentGemm *saved = gemm;
  g_autoptr(LatentGemm) split = NULL;
  g_autoptr(GError) error = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i], FALSE);
  check_case (&syrk_case, TRUE);

  /* The GPU shape's default tiles, then small double-buffered ones with
   * VW 2 (for oclgrind); the CPU shape ignores these. */
  for (guint t = 0; t < 2; t++)
    {
      latent_cl_set_tunable (cl, "gemm", "SPLIT", 64);
      if (t == 1)
        {
          latent_cl_set_tunable (cl, "gemm", "TSM", 32);
          latent_cl_set_tunable (cl, "gemm", "TSN", 64);
          latent_cl_set_tunable (cl, "gemm", "TSK", 8);
          latent_cl_set_tunable (cl, "gemm", "WPTM", 4);
          latent_cl_set_tunable (cl, "gemm", "WPTN", 4);
          latent_cl_set_tunable (cl, "gemm", "VW", 2);
          latent_cl_set_tunable (cl, "gemm", "PREFETCH", 1);
        }
      split = latent_gemm_new (cl, &error);
      g_assert_no_error (error);
      gemm = split;
      if (t == 1)
        {
          for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
            check_case (&cases[i], FALSE);
          check_case (&syrk_case, TRUE);
        }
      check_case (&split_cases[0], FALSE);
      check_case (&split_cases[1], TRUE);
      gemm = saved;
      g_clear_pointer (&split, latent_gemm_free);
      latent_cl_clear_tunables (cl, "gemm");
    }
}

/* Mistakes a caller can make come back as errors naming the parameter. */
static void
test_errors (void)
{
  const float x[4] = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  cl_command_queue queue;
  cl_mem d;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  queue = latent_cl_get_queue (cl);
  d = upload (x, 4);
  g_assert_false (latent_gemm_run (gemm, queue, FALSE, FALSE, 2, 2, 2, 1, d, 1, d, 2, 0, d, 2, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "lda"));
  g_clear_error (&error);

  g_assert_false (latent_gemm_run (gemm, queue, FALSE, FALSE, 3, 2, 2, 1, d, 2, d, 2, 0, d, 2, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "A (3 × 2"));
  g_clear_error (&error);

  g_cancellable_cancel (cancellable);
  g_assert_false (latent_gemm_syrk (gemm, queue, 2, 2, 1, d, 2, 0, d, 2, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  clReleaseMemObject (d);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  /* Set before the driver's threads start and only overwritten later
   * (empty: the device's own choice), so the environment is never moved
   * under them. */
  g_setenv ("LATENT_GEMM_PAIRS", "", TRUE);
  cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  if (cl != NULL)
    {
      gemm = latent_gemm_new (cl, &error);
      g_assert_no_error (error);
    }
  g_test_add_func ("/gemm/small", test_small);
  g_test_add_func ("/gemm/shapes", test_shapes);
  g_test_add_func ("/gemm/large", test_large);
  g_test_add_func ("/gemm/deep", test_deep);
  g_test_add_func ("/gemm/beta-zero-and-empty", test_beta_zero_and_empty);
  g_test_add_func ("/gemm/syrk", test_syrk);
  g_test_add_func ("/gemm/syrk-pairs", test_syrk_pairs);
  g_test_add_func ("/gemm/syrk-quads", test_syrk_quads);
  g_test_add_func ("/gemm/split", test_split);
  g_test_add_func ("/gemm/tiles", test_tiles);
  g_test_add_func ("/gemm/errors", test_errors);
  status = g_test_run ();
  g_clear_pointer (&gemm, latent_gemm_free);
  g_clear_object (&cl);
  return status;
}
