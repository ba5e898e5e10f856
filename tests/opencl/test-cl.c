/* test-cl.c — the OpenCL runtime: names, device choice, builds, the binary cache
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-cl"

#include "latent-algorithm.h"
#include "latent-cl.h"
#include "latent-registry.h"
#include "latent-synthetic.h"
#include "latent-tune.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define N_VALUES 1000

/* Uses common.h's LATENT_RESTRICT, so it also checks the prefix is there. */
static const char vadd_source[] =
  "#ifndef SCALE\n"
  "#define SCALE 1.0f\n"
  "#endif\n"
  "__kernel void vadd (__global const float *LATENT_RESTRICT a,\n"
  "                    __global const float *LATENT_RESTRICT b,\n"
  "                    __global float *LATENT_RESTRICT c,\n"
  "                    const uint n)\n"
  "{\n"
  "  const size_t i = get_global_id (0);\n"
  "  if (i >= n)\n"
  "    return;\n"
  "  c[i] = a[i] + b[i] * SCALE;\n"
  "}\n";

/* The undeclared identifier sits on line 3 of "broken.cl". */
static const char broken_source[] =
  "__kernel void broken (__global float *x)\n"
  "{\n"
  "  x[0] = undeclared_thing * 2.0f;\n"
  "}\n";

static char *cache_root;

/* PoCL keeps its LLVM context in a global it never frees; under
 * AddressSanitizer that shows up as a leak at exit. LeakSanitizer asks for
 * this hook when present and it is inert in a normal build. */
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:libpocl.so\n"
         "leak:libLLVM\n";
}

static LatentCl *
new_cl_or_skip (void)
{
  g_autoptr(GError) error = NULL;
  LatentCl *cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);

  if (cl == NULL)
    {
      g_autofree char *message = NULL;

      g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_NO_DEVICE);
      message = g_strdup_printf ("no OpenCL device: %s", error->message);
      g_test_skip (message);
    }
  return cl;
}

/* Several ranks of an MPI job on one machine: rank r takes the wanted
 * devices' r-th, modulo their count, so every rank has one. */
static void
test_device_offset (void)
{
  g_autoptr(GPtrArray) all = latent_cl_list_devices (NULL);
  g_autoptr(LatentCl) first = new_cl_or_skip ();
  guint cpus = 0;

  if (first == NULL)
    return;
  for (guint i = 0; all && i < all->len; i++)
    cpus += (((LatentClDeviceInfo *) g_ptr_array_index (all, i))->type & CL_DEVICE_TYPE_CPU) != 0;
  for (guint offset = 1; offset < 5; offset++)
    {
      g_autoptr(LatentCl) cl = NULL;

      latent_cl_set_device_offset (offset);
      cl = latent_cl_new (LATENT_DEVICE_CPU, NULL);
      g_assert_nonnull (cl);
      /* One CPU device (PoCL here): every offset lands on it. */
      if (cpus == 1)
        g_assert_cmpstr (latent_cl_get_info (cl)->name, ==, latent_cl_get_info (first)->name);
    }
  latent_cl_set_device_offset (0);
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  if (d == NULL)
    return 0;
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

/* The one file in DIR (asserts there is exactly one). */
static char *
only_file (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  name = g_dir_read_name (d);
  g_assert_nonnull (name);
  g_assert_true (g_str_has_suffix (name, ".bin"));
  g_assert_cmpstr (g_dir_read_name (d), ==, NULL);
  return g_build_filename (dir, name, NULL);
}

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) d = g_dir_open (path, 0, NULL);
      const char *name;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    {
      g_unlink (path);
    }
}

/* Runs KERNEL_NAME(a, b, c, n) from PROGRAM over N_VALUES floats into OUT.
 * The global size is rounded up so the bounds check in the kernel matters. */
static void
run_binary_kernel (LatentCl   *cl,
                   cl_program  program,
                   const char *kernel_name,
                   float      *out)
{
  cl_context context = latent_cl_get_context (cl);
  cl_command_queue queue = latent_cl_get_queue (cl);
  float a[N_VALUES], b[N_VALUES];
  cl_mem mem_a, mem_b, mem_c;
  cl_kernel kernel;
  cl_event event = NULL;
  cl_uint n = N_VALUES;
  size_t global = 1024;
  cl_int err = CL_SUCCESS;

  for (guint i = 0; i < N_VALUES; i++)
    {
      a[i] = i * 0.5f;
      b[i] = 1000.0f - i;
      out[i] = -12345.0f;
    }

  mem_a = clCreateBuffer (context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  g_assert_cmpint (err, ==, CL_SUCCESS);
  mem_b = clCreateBuffer (context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
  g_assert_cmpint (err, ==, CL_SUCCESS);
  mem_c = clCreateBuffer (context, CL_MEM_WRITE_ONLY, sizeof a, NULL, &err);
  g_assert_cmpint (err, ==, CL_SUCCESS);

  kernel = clCreateKernel (program, kernel_name, &err);
  g_assert_cmpint (err, ==, CL_SUCCESS);
  g_assert_cmpint (clSetKernelArg (kernel, 0, sizeof mem_a, &mem_a), ==, CL_SUCCESS);
  g_assert_cmpint (clSetKernelArg (kernel, 1, sizeof mem_b, &mem_b), ==, CL_SUCCESS);
  g_assert_cmpint (clSetKernelArg (kernel, 2, sizeof mem_c, &mem_c), ==, CL_SUCCESS);
  g_assert_cmpint (clSetKernelArg (kernel, 3, sizeof n, &n), ==, CL_SUCCESS);

  err = clEnqueueNDRangeKernel (queue, kernel, 1, NULL, &global, NULL, 0, NULL, &event);
  g_assert_cmpint (err, ==, CL_SUCCESS);
  err = clEnqueueReadBuffer (queue, mem_c, CL_TRUE, 0, N_VALUES * sizeof (float), out, 0, NULL, NULL);
  g_assert_cmpint (err, ==, CL_SUCCESS);

  /* The queue has profiling on, so a finished kernel has a time. */
  g_assert_cmpfloat (latent_cl_event_ms (event), >=, 0.0);

  clReleaseEvent (event);
  clReleaseKernel (kernel);
  clReleaseMemObject (mem_a);
  clReleaseMemObject (mem_b);
  clReleaseMemObject (mem_c);
}

static void
check_vadd (const float *out,
            float        scale)
{
  for (guint i = 0; i < N_VALUES; i++)
    {
      /* Exact: every value and product here is representable in float. */
      float expected = i * 0.5f + (1000.0f - i) * scale;
      g_assert_cmpfloat (out[i], ==, expected);
    }
}

/* ---- names and errors -------------------------------------------------- */

static void
test_error_names (void)
{
  g_assert_cmpstr (latent_cl_error_name (-5), ==, "CL_OUT_OF_RESOURCES");
  g_assert_cmpstr (latent_cl_error_name (CL_SUCCESS), ==, "CL_SUCCESS");
  g_assert_cmpstr (latent_cl_error_name (CL_BUILD_PROGRAM_FAILURE), ==, "CL_BUILD_PROGRAM_FAILURE");
  g_assert_cmpstr (latent_cl_error_name (-30), ==, "CL_INVALID_VALUE");
  g_assert_cmpstr (latent_cl_error_name (-68), ==, "CL_INVALID_DEVICE_PARTITION_COUNT");
  g_assert_cmpstr (latent_cl_error_name (-1001), ==, "CL_PLATFORM_NOT_FOUND_KHR");
  g_assert_cmpstr (latent_cl_error_name (-9999), ==, "CL_UNKNOWN_ERROR");
  g_assert_cmpstr (latent_cl_error_name (-25), ==, "CL_UNKNOWN_ERROR");
  g_assert_cmpstr (latent_cl_error_name (7), ==, "CL_UNKNOWN_ERROR");

  /* Every OpenCL 1.2 code has a name of its own. */
  for (cl_int code = -68; code <= 0; code++)
    {
      gboolean defined = code >= -19 || code <= -30;

      if (defined)
        g_assert_cmpstr (latent_cl_error_name (code), !=, "CL_UNKNOWN_ERROR");
      else
        g_assert_cmpstr (latent_cl_error_name (code), ==, "CL_UNKNOWN_ERROR");
    }
}

static void
test_check (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (latent_cl_check (CL_SUCCESS, "clFinish", NULL, &error));
  g_assert_no_error (error);

  g_assert_false (latent_cl_check (-5, "clEnqueueNDRangeKernel", "assign", &error));
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL);
  g_assert_cmpstr (error->message, ==, "clEnqueueNDRangeKernel (assign): CL_OUT_OF_RESOURCES (-5)");
  g_clear_error (&error);

  g_assert_false (latent_cl_check (CL_INVALID_VALUE, "clFinish", NULL, &error));
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL);
  g_assert_cmpstr (error->message, ==, "clFinish: CL_INVALID_VALUE (-30)");
  g_clear_error (&error);

  g_assert_false (latent_cl_check (-9999, "clFinish", NULL, &error));
  g_assert_cmpstr (error->message, ==, "clFinish: CL_UNKNOWN_ERROR (-9999)");

  /* A NULL error is allowed. */
  g_assert_false (latent_cl_check (-5, "clFinish", NULL, NULL));
}

/* ---- device choice ----------------------------------------------------- */

static void
test_choice_parse (void)
{
  static const struct { const char *text; LatentDeviceChoice choice; } good[] = {
    { "auto", LATENT_DEVICE_AUTO }, { "cpu", LATENT_DEVICE_CPU },
    { "gpu", LATENT_DEVICE_GPU }, { "off", LATENT_DEVICE_OFF },
    { "GPU", LATENT_DEVICE_GPU }, { "Off", LATENT_DEVICE_OFF },
  };
  static const char *bad[] = { "bogus", "", "cpu ", "gpu0", "none" };
  LatentDeviceChoice choice;

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;

      choice = -1;
      g_assert_true (latent_device_choice_parse (good[i].text, &choice, &error));
      g_assert_no_error (error);
      g_assert_cmpint (choice, ==, good[i].choice);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *quoted = g_strdup_printf ("“%s”", bad[i]);

      choice = LATENT_DEVICE_GPU;
      g_assert_false (latent_device_choice_parse (bad[i], &choice, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, quoted));
      g_assert_nonnull (strstr (error->message, "--device"));
      g_assert_nonnull (strstr (error->message, "expected auto, cpu, gpu or off"));
      /* A failed parse leaves the old value alone. */
      g_assert_cmpint (choice, ==, LATENT_DEVICE_GPU);
    }
}

static void
test_choice_env (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("LATENT_OPENCL"));
  g_autoptr(GError) error = NULL;
  LatentDeviceChoice choice = -1;

  g_unsetenv ("LATENT_OPENCL");
  g_assert_true (latent_device_choice_parse (NULL, &choice, &error));
  g_assert_no_error (error);
  g_assert_cmpint (choice, ==, LATENT_DEVICE_AUTO);

  g_setenv ("LATENT_OPENCL", "cpu", TRUE);
  g_assert_true (latent_device_choice_parse (NULL, &choice, &error));
  g_assert_cmpint (choice, ==, LATENT_DEVICE_CPU);

  g_setenv ("LATENT_OPENCL", "off", TRUE);
  g_assert_true (latent_device_choice_parse (NULL, &choice, &error));
  g_assert_cmpint (choice, ==, LATENT_DEVICE_OFF);

  /* An explicit value wins over the environment. */
  g_assert_true (latent_device_choice_parse ("gpu", &choice, &error));
  g_assert_cmpint (choice, ==, LATENT_DEVICE_GPU);

  g_setenv ("LATENT_OPENCL", "", TRUE);
  g_assert_true (latent_device_choice_parse (NULL, &choice, &error));
  g_assert_cmpint (choice, ==, LATENT_DEVICE_AUTO);

  g_setenv ("LATENT_OPENCL", "nonsense", TRUE);
  g_assert_false (latent_device_choice_parse (NULL, &choice, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "“nonsense”"));
  g_assert_nonnull (strstr (error->message, "LATENT_OPENCL"));
  g_assert_null (strstr (error->message, "--device"));
  g_assert_cmpint (choice, ==, LATENT_DEVICE_AUTO);

  if (saved != NULL)
    g_setenv ("LATENT_OPENCL", saved, TRUE);
  else
    g_unsetenv ("LATENT_OPENCL");
}

static void
test_choice_to_string (void)
{
  for (LatentDeviceChoice c = LATENT_DEVICE_AUTO; c <= LATENT_DEVICE_OFF; c++)
    {
      LatentDeviceChoice back = -1;

      g_assert_true (latent_device_choice_parse (latent_device_choice_to_string (c), &back, NULL));
      g_assert_cmpint (back, ==, c);
    }
  g_assert_cmpstr (latent_device_choice_to_string (LATENT_DEVICE_CPU), ==, "cpu");
}

static void
test_off (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) cl = latent_cl_new (LATENT_DEVICE_OFF, &error);

  g_assert_null (cl);
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_NO_DEVICE);
  g_assert_cmpstr (error->message, ==, "OpenCL is switched off");
}

/* The interactive variant gives the same device and a working context, and
 * leaves the caller's own priority alone. */
static void
test_background (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) off = latent_cl_new_background (LATENT_DEVICE_OFF, &error);
  g_autoptr(LatentCl) plain = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_autofree char *dir = g_build_filename (cache_root, "background", NULL);
  int nice_before = getpriority (PRIO_PROCESS, 0);
  float out[N_VALUES];
  cl_program program;

  g_assert_null (off);
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_NO_DEVICE);
  g_clear_error (&error);

  plain = new_cl_or_skip ();
  if (plain == NULL)
    return;
  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  cl = latent_cl_new_background (LATENT_DEVICE_AUTO, &error);
  g_assert_no_error (error);
  g_assert_true (latent_cl_get_device (cl) == latent_cl_get_device (plain));
  g_assert_cmpint (getpriority (PRIO_PROCESS, 0), ==, nice_before);
  program = latent_cl_build_source (cl, "vadd", vadd_source, NULL, &error);
  g_assert_no_error (error);
  run_binary_kernel (cl, program, "vadd", out);
  check_vadd (out, 1.0f);
}

/* ---- devices ----------------------------------------------------------- */

static void
test_list_devices (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) devices = latent_cl_list_devices (&error);

  g_assert_no_error (error);
  g_assert_nonnull (devices);
  if (devices->len == 0)
    {
      g_test_skip ("no OpenCL device: no platform or device is installed");
      return;
    }

  for (guint i = 0; i < devices->len; i++)
    {
      const LatentClDeviceInfo *info = g_ptr_array_index (devices, i);

      g_test_message ("device %u: %s (%s) on %s [%s], driver %s, %u units",
                      i, info->name, info->vendor, info->platform_name,
                      info->platform_version, info->driver_version, info->compute_units);
      g_assert_nonnull (info->platform);
      g_assert_nonnull (info->device);
      g_assert_cmpstr (info->name, !=, "");
      g_assert_cmpstr (info->platform_name, !=, "");
      g_assert_true (g_str_has_prefix (info->version, "OpenCL "));
      g_assert_true (g_str_has_prefix (info->platform_version, "OpenCL "));
      g_assert_cmpuint (info->type, !=, 0);
      g_assert_cmpuint (info->compute_units, >, 0);
      g_assert_cmpuint (info->global_mem_size, >, 0);
      g_assert_cmpuint (info->local_mem_size, >, 0);
      g_assert_cmpuint (info->max_alloc, >, 0);
      g_assert_cmpuint (info->max_alloc, <=, info->global_mem_size);
      g_assert_cmpuint (info->max_work_group_size, >, 0);
    }
}

static void
test_new_auto (void)
{
  g_autoptr(LatentCl) cl = new_cl_or_skip ();
  g_autoptr(GError) error = NULL;
  g_autofree char *description = NULL;
  const LatentClDeviceInfo *info;
  cl_command_queue queue;

  if (cl == NULL)
    return;

  info = latent_cl_get_info (cl);
  g_assert_nonnull (info);
  g_assert_true (info->available);
  g_assert_true (info->compiler_available);
  g_assert_true (info->type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU));
  g_assert_nonnull (latent_cl_get_context (cl));
  g_assert_nonnull (latent_cl_get_queue (cl));
  g_assert_true (latent_cl_get_device (cl) == info->device);
  g_assert_cmpuint (latent_cl_get_cache_hits (cl), ==, 0);

  description = latent_cl_describe (cl);
  g_test_message ("device: %s", description);
  g_assert_nonnull (strstr (description, info->name));
  g_assert_nonnull (strstr (description, " · "));
  g_assert_true (strstr (description, "(CPU, ") != NULL || strstr (description, "(GPU, ") != NULL);
  g_assert_true (g_str_has_suffix (description, "unit)") || g_str_has_suffix (description, "units)"));
  if (g_str_equal (info->platform_name, "Portable Computing Language"))
    g_assert_true (g_str_has_prefix (description, "PoCL "));

  queue = latent_cl_create_queue (cl, &error);
  g_assert_no_error (error);
  g_assert_nonnull (queue);
  g_assert_true (queue != latent_cl_get_queue (cl));
  g_assert_cmpint (clFinish (queue), ==, CL_SUCCESS);
  clReleaseCommandQueue (queue);
}

/* A device type this machine does not have must fail with NO_DEVICE and say
 * what it found instead. */
static void
test_new_missing_type (void)
{
  g_autoptr(GPtrArray) devices = latent_cl_list_devices (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) cl = NULL;
  gboolean has_gpu = FALSE;

  g_assert_nonnull (devices);
  if (devices->len == 0)
    {
      g_test_skip ("no OpenCL device: no platform or device is installed");
      return;
    }
  for (guint i = 0; i < devices->len; i++)
    has_gpu |= (((LatentClDeviceInfo *) g_ptr_array_index (devices, i))->type & CL_DEVICE_TYPE_GPU) != 0;
  if (has_gpu)
    {
      g_test_skip ("this machine has a GPU");
      return;
    }

  cl = latent_cl_new (LATENT_DEVICE_GPU, &error);
  g_assert_null (cl);
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (error->message, "GPU"));
  g_assert_nonnull (strstr (error->message,
                            ((LatentClDeviceInfo *) g_ptr_array_index (devices, 0))->name));
}

/* ---- programs ---------------------------------------------------------- */

static void
test_program_vadd (void)
{
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (cache_root, "vadd", NULL);
  float out[N_VALUES];
  cl_program program, again, scaled;

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  cl = new_cl_or_skip ();
  if (cl == NULL)
    return;

  program = latent_cl_build_source (cl, "vadd", vadd_source, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (program);
  run_binary_kernel (cl, program, "vadd", out);
  check_vadd (out, 1.0f);

  /* Kept in memory: the same request gives the same program. */
  again = latent_cl_build_source (cl, "vadd", vadd_source, "", &error);
  g_assert_no_error (error);
  g_assert_true (again == program);

  /* Other options are another program. */
  scaled = latent_cl_build_source (cl, "vadd", vadd_source, "-D SCALE=2.0f", &error);
  g_assert_no_error (error);
  g_assert_true (scaled != program);
  run_binary_kernel (cl, scaled, "vadd", out);
  check_vadd (out, 2.0f);

  /* -cl-std=CL1.2 is what the runtime prepends, so spelling it out is the
   * same program: an explicit -cl-std is kept, not doubled. */
  again = latent_cl_build_source (cl, "vadd", vadd_source, "-cl-std=CL1.2 -D SCALE=2.0f", &error);
  g_assert_no_error (error);
  g_assert_true (again == scaled);

  g_assert_cmpuint (count_files (dir), ==, 2);
  g_assert_cmpuint (latent_cl_get_cache_hits (cl), ==, 0);
  g_assert_cmpfloat (latent_cl_event_ms (NULL), ==, 0.0);
}

/* Products below FLT_MIN: a CPU device computes them as subnormals, slowly
 * on Intel cores, unless the program flushes them (every program does). */
static const char tiny_source[] =
  "__kernel void tiny (__global const float *LATENT_RESTRICT a,\n"
  "                    __global const float *LATENT_RESTRICT b,\n"
  "                    __global float *LATENT_RESTRICT c,\n"
  "                    const uint n)\n"
  "{\n"
  "  const size_t i = get_global_id (0);\n"
  "  if (i >= n)\n"
  "    return;\n"
  "  c[i] = (a[i] * 1e-30f) * (b[i] * 1e-12f);\n"
  "}\n";

static void
test_program_denormals (void)
{
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(GError) error = NULL;
  float out[N_VALUES];
  guint subnormal = 0;
  cl_program program;

  cl = new_cl_or_skip ();
  if (cl == NULL)
    return;
  /* -cl-denorms-are-zero is a hint the standard lets a device ignore;
   * PoCL's CPU device follows it. */
  if (!g_str_equal (latent_cl_get_info (cl)->platform_name, "Portable Computing Language"))
    {
      g_test_skip ("flushing is up to the device; checked on PoCL");
      return;
    }

  program = latent_cl_build_source (cl, "tiny", tiny_source, NULL, &error);
  g_assert_no_error (error);
  run_binary_kernel (cl, program, "tiny", out);
  for (guint i = 0; i < N_VALUES; i++)
    {
      /* a = i / 2, b = 1000 − i, as run_binary_kernel fills them. */
      double exact = (i * 0.5) * (1000.0 - i) * 1e-42;

      if (exact < FLT_MIN)
        {
          g_assert_cmpfloat (out[i], ==, 0.0f);
          subnormal += exact > 0.0;
        }
      else
        g_assert_cmpfloat_with_epsilon (out[i], exact, exact * 1e-5);
    }
  g_assert_cmpuint (subnormal, >, 0);
}

static void
test_program_broken (void)
{
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (cache_root, "broken", NULL);
  float out[N_VALUES];
  cl_program program;

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  cl = new_cl_or_skip ();
  if (cl == NULL)
    return;

  program = latent_cl_build_source (cl, "broken", broken_source, NULL, &error);
  g_assert_null (program);
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_BUILD);
  g_test_message ("build error: %s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "broken.cl: build failed:\n"));
  g_assert_nonnull (strstr (error->message, "undeclared_thing"));
  /* The #line after common.h makes the log point at the line in broken.cl. */
  if (g_str_equal (latent_cl_get_info (cl)->platform_name, "Portable Computing Language"))
    g_assert_nonnull (strstr (error->message, "broken.cl:3:"));
  g_clear_error (&error);

  /* Nothing is cached for a failed build, and it is not remembered either:
   * asking again reports the error again. */
  g_assert_cmpuint (count_files (dir), ==, 0);
  program = latent_cl_build_source (cl, "broken", broken_source, NULL, &error);
  g_assert_null (program);
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_BUILD);
  g_clear_error (&error);

  /* Bad options are a build failure too. */
  program = latent_cl_build_source (cl, "vadd", vadd_source, "-cl-no-such-option", &error);
  g_assert_null (program);
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_BUILD);
  g_assert_true (g_str_has_prefix (error->message, "vadd.cl: build failed"));
  g_clear_error (&error);

  /* The runtime is still fine afterwards. */
  program = latent_cl_build_source (cl, "vadd", vadd_source, NULL, &error);
  g_assert_no_error (error);
  run_binary_kernel (cl, program, "vadd", out);
  check_vadd (out, 1.0f);
}

static void
test_program_names (void)
{
  g_autoptr(LatentCl) cl = new_cl_or_skip ();
  g_autoptr(GError) error = NULL;
  cl_kernel kernel;

  if (cl == NULL)
    return;

  g_assert_null (latent_cl_get_program (cl, "no-such-program", NULL, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "no-such-program.cl: "));
  g_clear_error (&error);

  g_assert_null (latent_cl_create_kernel (cl, "no-such-program", NULL, "main", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  g_assert_null (latent_cl_build_source (cl, "../evil", vadd_source, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_null (latent_cl_build_source (cl, "", vadd_source, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* A kernel missing from a real program is a CALL error naming the kernel. */
  if (!g_resources_get_info ("/org/latent/Latent/kernels/kmeans.cl", 0, NULL, NULL, NULL))
    {
      g_test_message ("kmeans.cl is not in the resource yet; not checking kernel names");
      return;
    }
  /* kmeans.cl has tests of its own; a build failure there is not this test's business. */
  if (latent_cl_get_program (cl, "kmeans", NULL, &error) == NULL)
    {
      g_test_message ("kmeans.cl does not build; not checking kernel names: %s", error->message);
      return;
    }
  kernel = latent_cl_create_kernel (cl, "kmeans", NULL, "no_such_kernel", &error);
  g_assert_null (kernel);
  g_assert_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL);
  g_assert_cmpstr (error->message, ==, "clCreateKernel (no_such_kernel): CL_INVALID_KERNEL_NAME (-46)");
}

typedef struct {
  LatentCl   *cl;
  cl_program  program;
} BuildJob;

static gpointer
build_in_thread (gpointer data)
{
  BuildJob *job = data;
  g_autoptr(GError) error = NULL;

  job->program = latent_cl_build_source (job->cl, "vadd", vadd_source, "-D SCALE=3.0f", &error);
  g_assert_no_error (error);
  return NULL;
}

/* Threads asking for one program at once all get the one build. */
static void
test_program_threads (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "threads", NULL);
  g_autoptr(LatentCl) cl = NULL;
  BuildJob jobs[4];
  GThread *threads[G_N_ELEMENTS (jobs)];
  float out[N_VALUES];

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  cl = new_cl_or_skip ();
  if (cl == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      jobs[i].cl = cl;
      jobs[i].program = NULL;
      threads[i] = g_thread_new ("build", build_in_thread, &jobs[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    g_thread_join (threads[i]);

  g_assert_nonnull (jobs[0].program);
  for (guint i = 1; i < G_N_ELEMENTS (jobs); i++)
    g_assert_true (jobs[i].program == jobs[0].program);
  g_assert_cmpuint (count_files (dir), ==, 1);
  g_assert_cmpuint (latent_cl_get_cache_hits (cl), ==, 0);

  run_binary_kernel (cl, jobs[0].program, "vadd", out);
  check_vadd (out, 3.0f);
}

/* The window's precompiling: a background thread prepares k-means while
 * a run asks for the same program at the same time; it is built once, the
 * other waits for that build, and later requests build nothing. */
typedef struct {
  LatentCl              *cl;
  LatentDataset         *dataset;
  LatentParams          *params;
  const LatentAlgorithm *algorithm;
  gboolean               ok;
} PrepareJob;

static gpointer
prepare_in_thread (gpointer data)
{
  PrepareJob *job = data;
  g_autoptr(GError) error = NULL;

  job->ok = latent_algorithm_prepare (job->algorithm, job->dataset, job->params, job->cl, NULL, &error);
  g_assert_no_error (error);
  return NULL;
}

static void
count_build (LatentCl   *cl,
             const char *name,
             gpointer    user_data)
{
  g_atomic_int_inc ((gint *) user_data);
}

/* A run stopped while its programs would build: PCA's init says so rather
 * than computing the moments of every row on the CPU, which no cancellable
 * stops, while the window that closed waits for the run. */
static void
test_program_cancelled_init (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "cancelled-init", NULL);
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  const LatentAlgorithm *pca = latent_registry_lookup ("pca", NULL);
  gpointer state;

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  cl = new_cl_or_skip ();
  if (cl == NULL)
    return;
  dataset = latent_synthetic_blobs (500, 8, 3, 7, &error);
  g_assert_no_error (error);
  params = latent_algorithm_new_params (pca);
  g_cancellable_cancel (cancellable);
  g_cancellable_push_current (cancellable);
  state = pca->init (dataset, params, 1, cl, cancellable, &error);
  g_cancellable_pop_current (cancellable);
  g_assert_null (state);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_program_precompile (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "precompile", NULL);
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(LatentCl) later = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(LatentFit) again = NULL;
  g_autoptr(GError) error = NULL;
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  gint notified = 0;
  PrepareJob job;
  GThread *thread;

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  cl = new_cl_or_skip ();
  if (cl == NULL)
    return;
  latent_cl_set_build_notify (cl, count_build, &notified);
  dataset = latent_synthetic_blobs (2000, 20, 3, 7, &error);
  g_assert_no_error (error);
  params = latent_algorithm_new_params (kmeans);
  g_assert_true (latent_params_set_int (params, "k", 3, NULL));
  g_assert_true (latent_params_set_int (params, "max-iterations", 2, NULL));

  job = (PrepareJob) { cl, dataset, params, kmeans, FALSE };
  thread = g_thread_new ("precompile", prepare_in_thread, &job);
  fit = latent_algorithm_fit (kmeans, dataset, params, 1, cl, NULL, NULL, NULL, &error);
  g_thread_join (thread);
  g_assert_no_error (error);
  g_assert_nonnull (fit);
  g_assert_true (job.ok);
  g_assert_cmpstr (fit->snapshot->message, ==, NULL);

  g_assert_cmpuint (latent_cl_get_builds (cl), ==, 1);
  g_assert_cmpint (notified, ==, 1);
  g_assert_cmpuint (latent_cl_get_building (cl), ==, 0);
  g_assert_cmpuint (count_files (dir), ==, 1);

  /* Prepared: the next run builds nothing. */
  again = latent_algorithm_fit (kmeans, dataset, params, 2, cl, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (latent_cl_get_builds (cl), ==, 1);
  g_assert_cmpint (notified, ==, 1);

  /* The next process loads what this one precompiled. */
  later = new_cl_or_skip ();
  g_assert_true (latent_algorithm_prepare (kmeans, dataset, params, later, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (latent_cl_get_builds (later), ==, 0);
  g_assert_cmpuint (latent_cl_get_cache_hits (later), ==, 1);
}

/* An init that notes whether it runs inside latent_algorithm_prepare, and
 * whether its device then counts as building. */
static gboolean probe_saw_preparing;
static guint probe_saw_building;

static gpointer
probe_init (LatentDataset  *dataset,
            LatentParams   *params,
            guint64         seed,
            LatentCl       *cl,
            GCancellable   *cancellable,
            GError        **error)
{
  probe_saw_preparing = latent_algorithm_is_preparing ();
  probe_saw_building = latent_cl_get_building (cl);
  return g_new0 (int, 1);
}

/* Preparing is a flag of the preparing thread only, and only during the
 * init: convolution then builds its programs without timing them, which
 * would otherwise run beside a window's first run of it and spoil its
 * race of the methods (on a cold cache the run timed Direct 2-D at 507 ms
 * a pass against 6.7 ms when alone). And the device counts as building
 * throughout: PoCL compiles a kernel at its first launch, so a run waiting
 * on a preparing thread waits on the compiler (19 s for convolution's
 * four methods on a cold cache), and a window says so. */
static void
test_program_preparing_flag (void)
{
  static const LatentAlgorithm probe = { .id = "probe", .init = probe_init, .free = g_free };
  g_autoptr(LatentCl) cl = new_cl_or_skip ();
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(GError) error = NULL;
  gpointer state;

  if (cl == NULL)
    return;
  dataset = latent_dataset_new ("probe", 4, 2, &error);
  g_assert_no_error (error);
  params = latent_params_new (NULL, 0);
  g_assert_false (latent_algorithm_is_preparing ());
  g_assert_true (latent_algorithm_prepare (&probe, dataset, params, cl, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (probe_saw_preparing);
  g_assert_cmpuint (probe_saw_building, ==, 1);
  g_assert_false (latent_algorithm_is_preparing ());
  g_assert_cmpuint (latent_cl_get_building (cl), ==, 0);
  state = probe.init (dataset, params, 0, cl, NULL, &error);
  g_assert_false (probe_saw_preparing);
  g_assert_cmpuint (probe_saw_building, ==, 0);
  g_free (state);
}

/* ---- the disk cache ---------------------------------------------------- */

static cl_program
build_vadd_with_fresh_cl (LatentCl  **cl_out,
                          guint       expected_hits)
{
  g_autoptr(GError) error = NULL;
  LatentCl *cl = new_cl_or_skip ();
  cl_program program;

  g_assert_nonnull (cl);
  program = latent_cl_build_source (cl, "vadd", vadd_source, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (program);
  g_assert_cmpuint (latent_cl_get_cache_hits (cl), ==, expected_hits);
  *cl_out = cl;
  return program;
}

static void
overwrite (const char   *path,
           const guchar *data,
           gsize         length)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) data, length, &error);
  g_assert_no_error (error);
}

static void
test_cache_disk (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "disk", NULL);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240611);
  g_autoptr(LatentCl) probe = new_cl_or_skip ();
  LatentCl *cl = NULL;
  float first[N_VALUES], out[N_VALUES];
  guchar garbage[4096];
  gsize length = 0;
  cl_program program;

  if (probe == NULL)
    return;
  g_clear_object (&probe);

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);

  /* Cold: built from source and written to the cache. */
  program = build_vadd_with_fresh_cl (&cl, 0);
  run_binary_kernel (cl, program, "vadd", first);
  check_vadd (first, 1.0f);
  g_clear_object (&cl);
  path = only_file (dir);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_true (g_str_has_prefix (contents, "latent-cl-binary 2\n"));
  g_clear_pointer (&contents, g_free);

  /* Warm: a new runtime loads the binary and computes the same numbers. */
  program = build_vadd_with_fresh_cl (&cl, 1);
  run_binary_kernel (cl, program, "vadd", out);
  g_assert_cmpmem (out, sizeof out, first, sizeof first);
  /* A second request is served from memory, not the disk. */
  g_assert_true (latent_cl_build_source (cl, "vadd", vadd_source, NULL, NULL) == program);
  g_assert_cmpuint (latent_cl_get_cache_hits (cl), ==, 1);
  g_clear_object (&cl);

  /* Garbage: ignored, rebuilt, rewritten. */
  for (guint i = 0; i < sizeof garbage; i++)
    garbage[i] = g_rand_int_range (rand, 0, 256);
  overwrite (path, garbage, sizeof garbage);
  program = build_vadd_with_fresh_cl (&cl, 0);
  run_binary_kernel (cl, program, "vadd", out);
  g_assert_cmpmem (out, sizeof out, first, sizeof first);
  g_clear_object (&cl);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_true (g_str_has_prefix (contents, "latent-cl-binary 2\n"));
  g_assert_cmpuint (count_files (dir), ==, 1);

  /* Torn write: a valid header with half the payload. */
  overwrite (path, (const guchar *) contents, length / 2);
  program = build_vadd_with_fresh_cl (&cl, 0);
  run_binary_kernel (cl, program, "vadd", out);
  g_assert_cmpmem (out, sizeof out, first, sizeof first);
  g_clear_object (&cl);

  /* Empty file. */
  overwrite (path, (const guchar *) "", 0);
  program = build_vadd_with_fresh_cl (&cl, 0);
  g_clear_object (&cl);

  /* And after all that the rewritten file is a hit again. */
  program = build_vadd_with_fresh_cl (&cl, 1);
  run_binary_kernel (cl, program, "vadd", out);
  g_assert_cmpmem (out, sizeof out, first, sizeof first);
  g_clear_object (&cl);
}

/* A correctly wrapped file whose payload the driver cannot load (say, after a
 * driver update that kept its version string) must fall back to a build too. */
static void
test_cache_rejected_binary (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "rejected", NULL);
  g_autofree char *path = NULL;
  g_autofree char *sum = NULL;
  g_autofree char *driver = NULL;
  g_autoptr(GString) file = g_string_new ("latent-cl-binary 2\n");
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(LatentCl) probe = new_cl_or_skip ();
  LatentCl *cl = NULL;
  float out[N_VALUES];
  guchar payload[2048];
  cl_program program;

  if (probe == NULL)
    return;
  g_clear_object (&probe);

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  program = build_vadd_with_fresh_cl (&cl, 0);
  driver = g_strdup (latent_cl_get_info (cl)->driver_version);
  g_clear_object (&cl);
  path = only_file (dir);

  for (guint i = 0; i < sizeof payload; i++)
    payload[i] = g_rand_int_range (rand, 0, 256);
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, payload, sizeof payload);
  g_string_append (file, sum);
  g_string_append_printf (file, "\n%" G_GSIZE_FORMAT "\n%s\n", sizeof payload, driver ? driver : "");
  g_string_append_len (file, (const char *) payload, sizeof payload);
  overwrite (path, (const guchar *) file->str, file->len);

  program = build_vadd_with_fresh_cl (&cl, 0);
  run_binary_kernel (cl, program, "vadd", out);
  check_vadd (out, 1.0f);
  g_clear_object (&cl);
}

static void
test_cache_disabled (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "disabled", NULL);
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(GError) error = NULL;
  float out[N_VALUES];
  cl_program program;

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  g_setenv ("LATENT_CL_CACHE", "0", TRUE);
  cl = new_cl_or_skip ();
  if (cl == NULL)
    {
      g_unsetenv ("LATENT_CL_CACHE");
      return;
    }

  program = latent_cl_build_source (cl, "vadd", vadd_source, NULL, &error);
  g_assert_no_error (error);
  run_binary_kernel (cl, program, "vadd", out);
  check_vadd (out, 1.0f);
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (latent_cl_get_cache_hits (cl), ==, 0);

  g_unsetenv ("LATENT_CL_CACHE");
}

/* The payload of the one cache file in DIR, as its program's binary: what
 * follows the header, whatever the header holds. */
static gsize
binary_size (cl_program program)
{
  size_t size = 0;

  g_assert_cmpint (clGetProgramInfo (program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL), ==, CL_SUCCESS);
  g_assert_cmpuint (size, >, 0);
  return size;
}

/* Issue 35, item 2: a binary cut in half under a recomputed checksum must
 * not reach the driver (PoCL asserted, or read past the buffer). */
static void
test_cache_cut_binary (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "cut", NULL);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *sum = NULL;
  g_autoptr(LatentCl) probe = new_cl_or_skip ();
  LatentCl *cl = NULL;
  float out[N_VALUES];
  gsize length = 0, size, header;
  const char *sum_at;
  cl_program program;

  if (probe == NULL)
    return;
  g_clear_object (&probe);

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  program = build_vadd_with_fresh_cl (&cl, 0);
  size = binary_size (program);
  g_clear_object (&cl);
  path = only_file (dir);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpuint (length, >, size);
  header = length - size;

  /* The checksum is the second line: recompute it over the first half. */
  sum_at = strchr (contents, '\n') + 1;
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents + header, size / 2);
  memcpy ((char *) sum_at, sum, 64);
  overwrite (path, (const guchar *) contents, header + size / 2);

  program = build_vadd_with_fresh_cl (&cl, 0);
  run_binary_kernel (cl, program, "vadd", out);
  check_vadd (out, 1.0f);
  g_clear_object (&cl);

  /* Nor a whole binary recorded for another driver version (the fourth line). */
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpuint (length, ==, header + size);
  {
    g_autoptr(GString) file = g_string_new_len (contents, header);
    const char *line = contents;

    for (guint i = 0; i < 3; i++)
      line = strchr (line, '\n') + 1;
    g_string_truncate (file, line - contents);
    g_string_append (file, "another driver\n");
    g_string_append_len (file, contents + header, size);
    overwrite (path, (const guchar *) file->str, file->len);
  }
  program = build_vadd_with_fresh_cl (&cl, 0);
  g_clear_object (&cl);
}

/* Issue 35, item 3: a cache entry that is a FIFO, a link to /dev/zero or
 * a 4 GiB sparse file is passed over without reading it: no hang, no
 * gigabytes. */
static void
test_cache_special_files (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "special", NULL);
  g_autofree char *path = NULL;
  g_autoptr(LatentCl) probe = new_cl_or_skip ();
  LatentCl *cl = NULL;
  float out[N_VALUES];
  cl_program program;
  int fd;

  if (probe == NULL)
    return;
  g_clear_object (&probe);

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  program = build_vadd_with_fresh_cl (&cl, 0);
  g_clear_object (&cl);
  path = only_file (dir);

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  program = build_vadd_with_fresh_cl (&cl, 0);
  run_binary_kernel (cl, program, "vadd", out);
  check_vadd (out, 1.0f);
  g_clear_object (&cl);

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (symlink ("/dev/zero", path), ==, 0);
  program = build_vadd_with_fresh_cl (&cl, 0);
  g_clear_object (&cl);

  g_assert_cmpint (g_unlink (path), ==, 0);
  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 4 << 30), ==, 0);
  g_close (fd, NULL);
  program = build_vadd_with_fresh_cl (&cl, 0);
  g_clear_object (&cl);
  (void) program;
}

/* ~40 kernels of loops and maths: enough for the compiler to take a while. */
static char *
moderate_source (void)
{
  GString *s = g_string_new (vadd_source);

  for (guint k = 0; k < 40; k++)
    {
      g_string_append_printf (s,
        "__kernel void op%u (__global const float *LATENT_RESTRICT a,\n"
        "                   __global const float *LATENT_RESTRICT b,\n"
        "                   __global float *LATENT_RESTRICT c,\n"
        "                   const uint n)\n"
        "{\n"
        "  const size_t i = get_global_id (0);\n"
        "  if (i >= n)\n"
        "    return;\n"
        "  float x = a[i] * %u.0f + b[i];\n"
        "  float4 acc = (float4) (x, x * 0.5f, x * 0.25f, x * 0.125f);\n"
        "  for (int r = 0; r < %u; r++)\n"
        "    {\n"
        "      acc = acc * 0.9f + sin (acc) * %u.0e-3f;\n"
        "      acc.x += cos (acc.w) * exp (-fabs (acc.y));\n"
        "      if (acc.z > 100.0f)\n"
        "        acc.z = sqrt (acc.z);\n"
        "    }\n"
        "  c[i] = acc.x + acc.y + acc.z + acc.w;\n"
        "}\n",
        k, k + 1, 8 + k, k + 1);
    }

  return g_string_free (s, FALSE);
}

static void
test_cache_timing (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "timing", NULL);
  g_autofree char *source = moderate_source ();
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) probe = new_cl_or_skip ();
  float cold_out[N_VALUES], warm_out[N_VALUES];
  double cold_ms = 0.0, warm_ms = 0.0;
  cl_program program;
  gint64 start;

  if (probe == NULL)
    return;
  g_clear_object (&probe);
  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);

  for (guint pass = 0; pass < 2; pass++)
    {
      g_autoptr(LatentCl) cl = new_cl_or_skip ();
      float *out = pass == 0 ? cold_out : warm_out;

      start = g_get_monotonic_time ();
      program = latent_cl_build_source (cl, "moderate", source, NULL, &error);
      g_assert_no_error (error);
      if (pass == 0)
        cold_ms = (g_get_monotonic_time () - start) / 1000.0;
      else
        warm_ms = (g_get_monotonic_time () - start) / 1000.0;
      g_assert_cmpuint (latent_cl_get_cache_hits (cl), ==, pass);
      run_binary_kernel (cl, program, "op17", out);
    }

  for (guint i = 0; i < N_VALUES; i++)
    g_assert_true (isfinite (cold_out[i]));
  g_assert_cmpmem (cold_out, sizeof cold_out, warm_out, sizeof warm_out);
  g_test_message ("moderate program (%zu bytes): cold build %.1f ms, from cache %.1f ms",
                  strlen (source), cold_ms, warm_ms);
}

/* $LATENT_KERNELS picks the shape; the GPU shape reaches the kernels as
 * -D LATENT_GPU=1, and a bad value is refused naming the variable. */
static const char shape_source[] =
  "__kernel void shape (__global int *out)\n"
  "{\n"
  "#ifdef LATENT_GPU\n"
  "  out[0] = 2;\n"
  "#else\n"
  "  out[0] = 1;\n"
  "#endif\n"
  "}\n";

static int
run_shape_kernel (LatentCl *cl)
{
  g_autoptr(GError) error = NULL;
  cl_program program = latent_cl_build_source (cl, "shape", shape_source, NULL, &error);
  cl_kernel kernel;
  cl_mem out;
  cl_int err;
  int value = 0;
  size_t one = 1;

  g_assert_no_error (error);
  kernel = clCreateKernel (program, "shape", &err);
  g_assert_cmpint (err, ==, CL_SUCCESS);
  out = clCreateBuffer (latent_cl_get_context (cl), CL_MEM_WRITE_ONLY, sizeof value, NULL, &err);
  g_assert_cmpint (err, ==, CL_SUCCESS);
  g_assert_cmpint (clSetKernelArg (kernel, 0, sizeof out, &out), ==, CL_SUCCESS);
  g_assert_cmpint (clEnqueueNDRangeKernel (latent_cl_get_queue (cl), kernel, 1, NULL, &one, NULL, 0, NULL, NULL),
                   ==, CL_SUCCESS);
  g_assert_cmpint (clEnqueueReadBuffer (latent_cl_get_queue (cl), out, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL),
                   ==, CL_SUCCESS);
  clReleaseMemObject (out);
  clReleaseKernel (kernel);
  return value;
}

static void
test_shape (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("LATENT_KERNELS"));
  g_autoptr(LatentCl) automatic = NULL;
  g_autoptr(GError) error = NULL;
  LatentKernelShape expected;

  g_unsetenv ("LATENT_KERNELS");
  automatic = new_cl_or_skip ();
  if (automatic == NULL)
    return;
  expected = (latent_cl_get_info (automatic)->type & CL_DEVICE_TYPE_CPU) ? LATENT_KERNEL_SHAPE_CPU
                                                                       : LATENT_KERNEL_SHAPE_GPU;
  g_assert_cmpint (latent_cl_get_shape (automatic), ==, expected);
  g_assert_cmpint (run_shape_kernel (automatic), ==, expected == LATENT_KERNEL_SHAPE_GPU ? 2 : 1);

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(LatentCl) forced = NULL;

      g_setenv ("LATENT_KERNELS", i == 0 ? "gpu" : "CPU", TRUE);
      forced = latent_cl_new (LATENT_DEVICE_AUTO, &error);
      g_assert_no_error (error);
      g_assert_cmpint (latent_cl_get_shape (forced), ==, i == 0 ? LATENT_KERNEL_SHAPE_GPU : LATENT_KERNEL_SHAPE_CPU);
      g_assert_cmpint (run_shape_kernel (forced), ==, i == 0 ? 2 : 1);
    }

  g_setenv ("LATENT_KERNELS", "tpu", TRUE);
  g_assert_null (latent_cl_new (LATENT_DEVICE_AUTO, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "LATENT_KERNELS"));
  g_assert_nonnull (strstr (error->message, "tpu"));

  if (saved != NULL)
    g_setenv ("LATENT_KERNELS", saved, TRUE);
  else
    g_unsetenv ("LATENT_KERNELS");
}

/* A program with parts per shape (kmeans.cl, then kmeans-cpu.cl or
 * kmeans-gpu.cl) is assembled with its shape's part only, each behind its
 * own #line. The source comes back from the driver when the program was
 * built from it, so the disk cache is off. */
static void
test_shape_parts (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("LATENT_KERNELS"));

  g_setenv ("LATENT_CL_CACHE", "0", TRUE);
  for (guint i = 0; i < 2; i++)
    {
      const char *shape = i == 0 ? "cpu" : "gpu";
      const char *other = i == 0 ? "gpu" : "cpu";
      g_autofree char *mine = g_strdup_printf ("#line 1 \"kmeans-%s.cl\"", shape);
      g_autofree char *theirs = g_strdup_printf ("#line 1 \"kmeans-%s.cl\"", other);
      g_autoptr(LatentCl) cl = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *source = NULL;
      cl_program program;
      size_t size = 0;

      g_setenv ("LATENT_KERNELS", shape, TRUE);
      cl = new_cl_or_skip ();
      if (cl == NULL)
        break;
      program = latent_cl_get_program (cl, "kmeans", "-DVEC=16", &error);
      g_assert_no_error (error);
      g_assert_cmpint (clGetProgramInfo (program, CL_PROGRAM_SOURCE, 0, NULL, &size), ==, CL_SUCCESS);
      source = g_malloc0 (size + 1);
      g_assert_cmpint (clGetProgramInfo (program, CL_PROGRAM_SOURCE, size, source, NULL), ==, CL_SUCCESS);
      g_assert_nonnull (strstr (source, "#line 1 \"kmeans.cl\""));
      g_assert_nonnull (strstr (source, mine));
      g_assert_null (strstr (source, theirs));
    }

  g_unsetenv ("LATENT_CL_CACHE");
  if (saved != NULL)
    g_setenv ("LATENT_KERNELS", saved, TRUE);
  else
    g_unsetenv ("LATENT_KERNELS");
}

/* Tuned values survive a new runtime when saved, are per program, and
 * are ignored once the file names another source. */
static void
test_tunables (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "tuning", NULL);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *edited = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(LatentCl) again = NULL;
  g_autoptr(LatentCl) edited_cl = NULL;
  GRegex *regex;

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  cl = new_cl_or_skip ();
  if (cl == NULL)
    return;

  g_assert_cmpint (latent_cl_tunable (cl, "gemm", "MR", 6), ==, 6);
  latent_cl_set_tunable (cl, "gemm", "MR", 8);
  latent_cl_set_tunable (cl, "kmeans", "VEC", 8);
  g_assert_cmpint (latent_cl_tunable (cl, "gemm", "MR", 6), ==, 8);
  g_assert_true (latent_cl_save_tunables (cl, "gemm", &error));
  g_assert_no_error (error);
  latent_cl_clear_tunables (cl, "gemm");
  /* Cleared overrides leave what was saved; kmeans's stays an override. */
  g_assert_cmpint (latent_cl_tunable (cl, "gemm", "MR", 6), ==, 8);
  g_assert_cmpint (latent_cl_tunable (cl, "kmeans", "VEC", 16), ==, 8);

  again = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (latent_cl_tunable (again, "gemm", "MR", 6), ==, 8);
  g_assert_cmpint (latent_cl_tunable (again, "gemm", "KC", 128), ==, 128);
  g_assert_cmpint (latent_cl_tunable (again, "kmeans", "VEC", 16), ==, 16);

  path = latent_cl_get_tunables_path (again);
  g_assert_true (g_str_has_prefix (path, dir));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  regex = g_regex_new ("source=[0-9a-f]+", 0, 0, NULL);
  edited = g_regex_replace_literal (regex, contents, -1, 0, "source=0123", 0, NULL);
  g_regex_unref (regex);
  g_assert_cmpstr (edited, !=, contents);
  g_assert_true (g_file_set_contents (path, edited, -1, NULL));
  edited_cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpint (latent_cl_tunable (edited_cl, "gemm", "MR", 6), ==, 6);

  g_setenv ("LATENT_CL_CACHE_DIR", cache_root, TRUE);
}

static void
collect_trial (const LatentTuneTrial *trial,
               gpointer               user_data)
{
  LatentTuneTrial copy = *trial;

  copy.program = g_strdup (trial->program);
  copy.setting = g_strdup (trial->setting);
  copy.failure = g_strdup (trial->failure);
  g_array_append_val (user_data, copy);
}

static void
clear_trial (gpointer data)
{
  LatentTuneTrial *trial = data;

  g_free ((char *) trial->program);
  g_free ((char *) trial->setting);
  g_free ((char *) trial->failure);
}

/* The tuner times the defaults and each setting, and what it keeps is what
 * a new runtime on the same device reads back. */
static void
test_tune (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "tune", NULL);
  g_autoptr(GArray) trials = g_array_new (FALSE, TRUE, sizeof (LatentTuneTrial));
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(LatentCl) again = NULL;
  g_autoptr(GError) error = NULL;
  const LatentTuneTrial *first, *last;
  gboolean found = FALSE;

  g_array_set_clear_func (trials, clear_trial);
  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  cl = new_cl_or_skip ();
  if (cl == NULL)
    return;

  g_assert_false (latent_tune_run (cl, "fft", TRUE, collect_trial, trials, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "fft"));
  g_assert_nonnull (strstr (error->message, "kmeans"));
  g_clear_error (&error);
  g_assert_cmpuint (trials->len, ==, 0);

  g_assert_true (latent_tune_run (cl, "gemm", TRUE, collect_trial, trials, NULL, &error));
  g_assert_no_error (error);
  /* The defaults, nine settings of MR × KC or twelve of the GPU tiles, then the choice. */
  g_assert_cmpuint (trials->len, >=, 11);
  first = &g_array_index (trials, LatentTuneTrial, 0);
  last = &g_array_index (trials, LatentTuneTrial, trials->len - 1);
  g_assert_cmpstr (first->program, ==, "gemm");
  g_assert_cmpstr (first->setting, ==, "defaults");
  g_assert_true (first->correct);
  g_assert_cmpfloat (first->ms, >, 0);
  g_assert_true (last->correct);
  for (guint i = 1; i + 1 < trials->len; i++)
    {
      const LatentTuneTrial *trial = &g_array_index (trials, LatentTuneTrial, i);

      g_assert_null (trial->failure);
      /* Every setting computes the same product on this device. */
      g_assert_true (trial->correct);
      /* The choice is the trial that ran at its time. */
      found |= g_str_equal (trial->setting, last->setting) && trial->ms == last->ms;
    }
  /* A setting is kept only when it beats the defaults by 3 %. */
  if (g_str_equal (last->setting, "defaults"))
    g_assert_cmpfloat (last->ms, ==, first->ms);
  else
    {
      g_assert_true (found);
      g_assert_cmpfloat (last->ms, <, 0.97 * first->ms);
    }

  /* A new runtime reads the choice back; the defaults leave the fallback. */
  again = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  g_assert_no_error (error);
  {
    const gboolean gpu = latent_cl_get_shape (again) == LATENT_KERNEL_SHAPE_GPU;
    const char *name = gpu ? "TSM" : "MR";

    if (g_str_equal (last->setting, "defaults"))
      g_assert_cmpint (latent_cl_tunable (again, "gemm", name, -1), ==, -1);
    else
      {
        g_autofree char *expected = g_strdup_printf ("%s=%d", name, latent_cl_tunable (again, "gemm", name, -1));

        g_assert_true (g_str_has_prefix (last->setting, expected));
      }
  }

  g_setenv ("LATENT_CL_CACHE_DIR", cache_root, TRUE);
}

/* Issue 35, item 1: a tuning file is trusted only with what the tuner
 * would write; a huge ROWS_SMALL overflowed convolution's sizes. */
static void
test_tunables_bounded (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "tuning-bounded", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(LatentCl) again = NULL;
  int rows;

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  cl = new_cl_or_skip ();
  if (cl == NULL)
    return;

  latent_cl_set_tunable (cl, "convolve", "ROWS_SMALL", G_MAXINT);
  latent_cl_set_tunable (cl, "gemm", "MR", G_MAXINT);
  latent_cl_set_tunable (cl, "gemm", "KC", 1);
  g_assert_true (latent_cl_save_tunables (cl, "convolve", &error));
  g_assert_no_error (error);
  g_assert_true (latent_cl_save_tunables (cl, "gemm", &error));
  g_assert_no_error (error);

  again = latent_cl_new (LATENT_DEVICE_AUTO, &error);
  g_assert_no_error (error);
  rows = latent_cl_tunable (again, "convolve", "ROWS_SMALL", 8);
  g_assert_cmpint (rows, >=, 1);
  g_assert_cmpint (rows, <=, 16);
  g_assert_cmpint (latent_cl_tunable (again, "gemm", "MR", 6), <=, 12);
  g_assert_cmpint (latent_cl_tunable (again, "gemm", "KC", 128), >=, 64);

  /* And convolution runs with it. */
  {
    const LatentAlgorithm *algorithm = latent_registry_lookup ("convolve", &error);
    g_autoptr(LatentDataset) image = NULL;
    g_autoptr(LatentParams) params = NULL;
    g_autoptr(LatentFit) fit = NULL;
    guint failures = latent_cl_get_failures (again);

    g_assert_no_error (error);
    image = latent_synthetic_pattern (64, 48, 0.0, 1, &error);
    g_assert_no_error (error);
    params = latent_algorithm_new_params (algorithm);
    g_assert_true (latent_params_parse (params, "filter=box", &error));
    g_assert_no_error (error);
    fit = latent_algorithm_fit (algorithm, image, params, 1, again, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (fit);
    g_assert_cmpuint (latent_cl_get_failures (again), ==, failures);
  }

  g_setenv ("LATENT_CL_CACHE_DIR", cache_root, TRUE);
}

/* Issue 35, item 3: a tuning file that is a FIFO, a link to /dev/zero or
 * a 4 GiB sparse file leaves the defaults at once. */
static void
test_tunables_special_files (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "tuning-special", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) probe = NULL;

  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  probe = new_cl_or_skip ();
  if (probe == NULL)
    return;
  path = latent_cl_get_tunables_path (probe);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(LatentCl) cl = NULL;

      g_unlink (path);
      if (i == 0)
        g_assert_cmpint (mkfifo (path, 0600), ==, 0);
      else if (i == 1)
        g_assert_cmpint (symlink ("/dev/zero", path), ==, 0);
      else
        {
          int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

          g_assert_cmpint (fd, >=, 0);
          g_assert_cmpint (ftruncate (fd, (off_t) 4 << 30), ==, 0);
          g_close (fd, NULL);
        }
      cl = latent_cl_new (LATENT_DEVICE_AUTO, &error);
      g_assert_no_error (error);
      g_assert_cmpint (latent_cl_tunable (cl, "gemm", "MR", 6), ==, 6);
    }
  g_unlink (path);

  g_setenv ("LATENT_CL_CACHE_DIR", cache_root, TRUE);
}

/* Issue 35, item 13: a program whose shape has nothing to tune says so,
 * and keeps nothing. */
static void
test_tune_nothing (void)
{
  g_autofree char *dir = g_build_filename (cache_root, "tune-nothing", NULL);
  g_autoptr(GArray) trials = g_array_new (FALSE, TRUE, sizeof (LatentTuneTrial));
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = g_strdup (g_getenv ("LATENT_KERNELS"));
  g_autofree char *path = NULL;

  g_array_set_clear_func (trials, clear_trial);
  g_setenv ("LATENT_CL_CACHE_DIR", dir, TRUE);
  g_setenv ("LATENT_KERNELS", "cpu", TRUE);
  cl = new_cl_or_skip ();
  if (cl != NULL)
    {
      g_assert_false (latent_tune_run (cl, "wta", TRUE, collect_trial, trials, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "wta"));
      g_assert_nonnull (strstr (error->message, "cpu"));
      g_assert_cmpuint (trials->len, ==, 0);
      path = latent_cl_get_tunables_path (cl);
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }

  if (saved != NULL)
    g_setenv ("LATENT_KERNELS", saved, TRUE);
  else
    g_unsetenv ("LATENT_KERNELS");
  g_setenv ("LATENT_CL_CACHE_DIR", cache_root, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  /* Our own cache, so earlier runs cannot turn a cold build into a hit. */
  cache_root = g_dir_make_tmp ("latent-test-cl-XXXXXX", &error);
  g_assert_no_error (error);
  g_unsetenv ("LATENT_CL_CACHE");
  g_setenv ("LATENT_CL_CACHE_DIR", cache_root, TRUE);

  g_test_add_func ("/cl/error-names", test_error_names);
  g_test_add_func ("/cl/check", test_check);
  g_test_add_func ("/cl/choice/parse", test_choice_parse);
  g_test_add_func ("/cl/choice/env", test_choice_env);
  g_test_add_func ("/cl/choice/to-string", test_choice_to_string);
  g_test_add_func ("/cl/device-offset", test_device_offset);
  g_test_add_func ("/cl/device/off", test_off);
  g_test_add_func ("/cl/device/background", test_background);
  g_test_add_func ("/cl/device/list", test_list_devices);
  g_test_add_func ("/cl/device/auto", test_new_auto);
  g_test_add_func ("/cl/device/missing-type", test_new_missing_type);
  g_test_add_func ("/cl/program/vadd", test_program_vadd);
  g_test_add_func ("/cl/program/broken", test_program_broken);
  g_test_add_func ("/cl/program/denormals", test_program_denormals);
  g_test_add_func ("/cl/program/names", test_program_names);
  g_test_add_func ("/cl/program/threads", test_program_threads);
  g_test_add_func ("/cl/program/precompile", test_program_precompile);
  g_test_add_func ("/cl/program/cancelled-init", test_program_cancelled_init);
  g_test_add_func ("/cl/program/preparing-flag", test_program_preparing_flag);
  g_test_add_func ("/cl/cache/disk", test_cache_disk);
  g_test_add_func ("/cl/cache/rejected-binary", test_cache_rejected_binary);
  g_test_add_func ("/cl/cache/disabled", test_cache_disabled);
  g_test_add_func ("/cl/cache/cut-binary", test_cache_cut_binary);
  g_test_add_func ("/cl/cache/special-files", test_cache_special_files);
  g_test_add_func ("/cl/cache/timing", test_cache_timing);
  g_test_add_func ("/cl/shape", test_shape);
  g_test_add_func ("/cl/shape/parts", test_shape_parts);
  g_test_add_func ("/cl/tunables", test_tunables);
  g_test_add_func ("/cl/tunables/bounded", test_tunables_bounded);
  g_test_add_func ("/cl/tunables/special-files", test_tunables_special_files);
  g_test_add_func ("/cl/tune", test_tune);
  g_test_add_func ("/cl/tune/nothing", test_tune_nothing);

  status = g_test_run ();

  remove_tree (cache_root);
  g_free (cache_root);
  return status;
}
