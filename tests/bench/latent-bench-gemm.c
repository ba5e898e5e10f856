/* latent-bench-gemm.c — time the OpenCL matrix product, print JSON lines
 *
 * Not a test: bench-gemm.py runs it beside NumPy's float32 matmul. Cases:
 * ata (AᵀA, A 60,000 × 784: the PCA covariance), square (2048³, or
 * --size³), narrow
 * (784 × 784 · 784 × 50) and project (60,000 × 784 · 784 × 50). Each
 * ata-pairs is ata on 8-bit data through the products of row pairs, where
 * the device has them (latent_gemm_syrk_pairs; "instruction" says which
 * form). Each
 * case runs once to warm up (program build, first touch of the buffers),
 * then REPEAT times; the best time counts. GFLOP/s is the nominal 2·m·n·k
 * for every case, also for AᵀA where only half of it is computed, as
 * NumPy's X.T @ X (a SYRK in OpenBLAS) is counted the same way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-bench-gemm"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "latent-gemm.h"

static void
emit (const char *name,
      guint       m,
      guint       n,
      guint       k,
      double      seconds,
      const char *device,
      const char *instruction)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "impl");
  json_builder_add_string_value (b, "latent-opencl");
  json_builder_set_member_name (b, "case");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "m");
  json_builder_add_int_value (b, m);
  json_builder_set_member_name (b, "n");
  json_builder_add_int_value (b, n);
  json_builder_set_member_name (b, "k");
  json_builder_add_int_value (b, k);
  json_builder_set_member_name (b, "seconds");
  json_builder_add_double_value (b, seconds);
  json_builder_set_member_name (b, "gflops");
  json_builder_add_double_value (b, 2.0 * m * n * k / seconds * 1e-9);
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, device);
  if (instruction != NULL)
    {
      json_builder_set_member_name (b, "instruction");
      json_builder_add_string_value (b, instruction);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  puts (text);
  fflush (stdout);
}

/* 24 bits from a fixed LCG. */
static guint32
lcg24 (guint64 *seed)
{
  *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return *seed >> 40;
}

/* A buffer of COUNT 4-byte values from a fixed LCG: floats uniform in
 * [-1, 1), or with PAIRS row pairs of integers in [-255, 255]. */
static cl_mem
random_buffer (LatentCl  *cl,
               gsize      count,
               guint64    seed,
               gboolean   pairs,
               GError   **error)
{
  g_autofree guint32 *v = g_new (guint32, count);
  cl_mem mem = NULL;

  for (gsize i = 0; i < count; i++)
    {
      if (pairs)
        {
          const guint32 even = (guint16) (gint16) (lcg24 (&seed) % 511 - 255);

          v[i] = even | (guint32) (guint16) (gint16) (lcg24 (&seed) % 511 - 255) << 16;
        }
      else
        {
          const float x = (float) (lcg24 (&seed) * (2.0 / 16777216.0) - 1.0);

          memcpy (&v[i], &x, sizeof x);
        }
    }
  if (!latent_cl_create_buffer (cl, &mem, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                count * sizeof (guint32), v, "bench", error))
    return NULL;
  return mem;
}

typedef enum { PRODUCT, SYRK, SYRK_PAIRS, SYRK_QUADS } Kind;

static gboolean
run_case (LatentCl     *cl,
          LatentGemm   *gemm,
          const char   *name,
          Kind          kind,
          guint         m,
          guint         n,
          guint         k,
          int           repeat,
          const char   *device,
          GError      **error)
{
  cl_command_queue queue = latent_cl_get_queue (cl);
  cl_mem a = NULL, b = NULL, c = NULL;
  double best = G_MAXDOUBLE;
  gboolean ok = FALSE;

  /* AᵀA: A is k × n (k / 2 × n pairs). The product: A m × k, B k × n. */
  if ((kind == SYRK_PAIRS && !latent_gemm_has_pairs (gemm)) || (kind == SYRK_QUADS && !latent_gemm_has_quads (gemm)))
    return TRUE;
  /* Quads: any 4 bytes are 4 values; C holds int64, twice the floats. */
  if (!(a = kind == SYRK_PAIRS ? random_buffer (cl, (gsize) (k + 1) / 2 * n, 1, TRUE, error)
          : kind == SYRK_QUADS ? random_buffer (cl, (gsize) (k + 3) / 4 * n, 1, FALSE, error)
                               : random_buffer (cl, kind == SYRK ? (gsize) k * n : (gsize) m * k, 1, FALSE, error)) ||
      (kind == PRODUCT && !(b = random_buffer (cl, (gsize) k * n, 2, FALSE, error))) ||
      !(c = random_buffer (cl, (gsize) m * n * (kind == SYRK_QUADS ? 2 : 1), 3, FALSE, error)))
    goto out;
  for (int r = 0; r <= repeat; r++)
    {
      gint64 start = g_get_monotonic_time ();
      gboolean done;

      if (kind == SYRK)
        done = latent_gemm_syrk (gemm, queue, n, k, 1.0f, a, n, 0.0f, c, n, NULL, error);
      else if (kind == SYRK_PAIRS)
        done = latent_gemm_syrk_pairs (gemm, queue, n, (k + 1) / 2, 1.0f, a, n, 0.0f, c, n, NULL, error);
      else if (kind == SYRK_QUADS)
        done = latent_gemm_syrk_quads (gemm, queue, n, (k + 3) / 4, a, n, c, n, NULL, error);
      else
        done = latent_gemm_run (gemm, queue, FALSE, FALSE, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n, NULL, error);
      if (!done || !latent_cl_check (clFinish (queue), "clFinish", name, error))
        goto out;
      if (r > 0)
        best = MIN (best, (g_get_monotonic_time () - start) * 1e-6);
    }
  emit (name, m, n, k, best, device,
        kind == SYRK_PAIRS ? latent_gemm_pairs_form (gemm) : kind == SYRK_QUADS ? "vnni" : NULL);
  ok = TRUE;

out:
  if (a)
    clReleaseMemObject (a);
  if (b)
    clReleaseMemObject (b);
  if (c)
    clReleaseMemObject (c);
  return ok;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *device = NULL;
  g_autofree char *only = NULL;
  int repeat = 3;
  int size = 2048;
  const GOptionEntry entries[] = {
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, "auto, cpu or gpu", "DEVICE" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Timed runs per case (the best counts)", "R" },
    { "size", 0, 0, G_OPTION_ARG_INT, &size, "Rows, columns and depth of the square case (2048)", "N" },
    { "case", 0, 0, G_OPTION_ARG_STRING, &only, "Only this case: ata, ata-pairs, ata-quads, square, narrow or project", "CASE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— time the OpenCL matrix product");
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(LatentGemm) gemm = NULL;
  g_autofree char *description = NULL;
  LatentDeviceChoice choice;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      !latent_device_choice_parse (device, &choice, &error))
    {
      g_printerr ("latent-bench-gemm: %s\n", error->message);
      return 2;
    }
  if (repeat < 1 || size < 1)
    {
      g_printerr ("latent-bench-gemm: --repeat and --size must be at least 1\n");
      return 2;
    }
  if (!(cl = latent_cl_new (choice, &error)) ||
      !(gemm = latent_gemm_new (cl, &error)))
    {
      g_printerr ("latent-bench-gemm: %s\n", error->message);
      return 1;
    }
  description = latent_cl_describe (cl);
  if (((only == NULL || g_str_equal (only, "ata")) &&
       !run_case (cl, gemm, "ata", SYRK, 784, 784, 60000, repeat, description, &error)) ||
      ((only == NULL || g_str_equal (only, "ata-pairs")) &&
       !run_case (cl, gemm, "ata-pairs", SYRK_PAIRS, 784, 784, 60000, repeat, description, &error)) ||
      ((only == NULL || g_str_equal (only, "ata-quads")) &&
       !run_case (cl, gemm, "ata-quads", SYRK_QUADS, 784, 784, 60000, repeat, description, &error)) ||
      ((only == NULL || g_str_equal (only, "square")) &&
       !run_case (cl, gemm, "square", PRODUCT, size, size, size, repeat, description, &error)) ||
      ((only == NULL || g_str_equal (only, "narrow")) &&
       !run_case (cl, gemm, "narrow", PRODUCT, 784, 50, 784, repeat, description, &error)) ||
      ((only == NULL || g_str_equal (only, "project")) &&
       !run_case (cl, gemm, "project", PRODUCT, 60000, 50, 784, repeat, description, &error)))
    {
      g_printerr ("latent-bench-gemm: %s\n", error->message);
      return 1;
    }
  return 0;
}
