/* latent-cl.h — the OpenCL runtime: devices, context, queues, cached programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <CL/cl.h>

G_BEGIN_DECLS

#define LATENT_CL_ERROR (latent_cl_error_quark ())

typedef enum {
  LATENT_CL_ERROR_NO_DEVICE, /* OpenCL switched off, or no device of the wanted kind */
  LATENT_CL_ERROR_BUILD,     /* a program failed to build; the message holds the build log */
  LATENT_CL_ERROR_CALL,      /* an OpenCL call returned an error code */
} LatentClError;

GQuark latent_cl_error_quark (void);

typedef enum {
  LATENT_DEVICE_AUTO,
  LATENT_DEVICE_CPU,
  LATENT_DEVICE_GPU,
  LATENT_DEVICE_OFF,
} LatentDeviceChoice;

/* TEXT NULL → $LATENT_OPENCL → "auto". Bad values fail with G_IO_ERROR_INVALID_ARGUMENT. */
gboolean    latent_device_choice_parse     (const char          *text,
                                            LatentDeviceChoice  *choice,
                                            GError             **error);
const char *latent_device_choice_to_string (LatentDeviceChoice   choice);

/* "CL_OUT_OF_RESOURCES" for -5; "CL_UNKNOWN_ERROR" for codes it does not know. */
const char *latent_cl_error_name           (cl_int               code);

/* TRUE when CODE is CL_SUCCESS; else sets "CALL (KERNEL): CL_NAME (code)"
 * (the kernel part left out when KERNEL is NULL) and returns FALSE. */
gboolean    latent_cl_check                (cl_int               code,
                                            const char          *call,
                                            const char          *kernel,
                                            GError             **error);

typedef struct {
  char           *platform_name;
  char           *platform_version;
  char           *name;
  char           *vendor;
  char           *version;
  char           *driver_version;
  cl_device_type  type;
  guint           compute_units;
  guint64         global_mem_size;
  guint64         local_mem_size;
  guint64         max_alloc;
  gsize           max_work_group_size;
  gboolean        available;
  gboolean        compiler_available;
  cl_platform_id  platform;
  cl_device_id    device;
} LatentClDeviceInfo;

void        latent_cl_device_info_free     (LatentClDeviceInfo  *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentClDeviceInfo, latent_cl_device_info_free)

/* Every device of every platform, as LatentClDeviceInfo. No platform at all
 * gives an empty array, not an error. */
GPtrArray  *latent_cl_list_devices         (GError             **error);

#define LATENT_TYPE_CL (latent_cl_get_type ())
G_DECLARE_FINAL_TYPE (LatentCl, latent_cl, LATENT, CL, GObject)

/* Of the devices a choice wants, the one @offset (modulo their count)
 * names rather than the first: several processes of one MPI job on one
 * machine each take their own (latent_mpi_local_rank). Before opening. */
void                      latent_cl_set_device_offset (guint offset);

LatentCl                 *latent_cl_new            (LatentDeviceChoice   choice,
                                                    GError             **error);
/* The same, for interactive programs: a CPU driver's worker threads (started
 * by the first OpenCL call of the process) get a lower priority than the
 * caller, so drawing is not kept waiting by a long kernel. */
LatentCl                 *latent_cl_new_background (LatentDeviceChoice   choice,
                                                    GError             **error);
cl_context                latent_cl_get_context    (LatentCl            *self);
cl_device_id              latent_cl_get_device     (LatentCl            *self);
/* The shared in-order queue (profiling enabled). */
cl_command_queue          latent_cl_get_queue      (LatentCl            *self);
/* A new in-order queue (profiling enabled); the caller releases it. */
cl_command_queue          latent_cl_create_queue   (LatentCl            *self,
                                                    GError             **error);
const LatentClDeviceInfo *latent_cl_get_info       (LatentCl            *self);
/* e.g. "PoCL 3.1 · pthread-skylake-avx512-AMD EPYC (CPU, 2 units)" */
char                     *latent_cl_describe       (LatentCl            *self);
/* The same in the person's language, for display only. */
char                     *latent_cl_describe_for_display (LatentCl *self);

/* NAME "kmeans" is /org/latent/Latent/kernels/kmeans.cl, prefixed with common.h
 * and followed by kmeans-cpu.cl or kmeans-gpu.cl (the device's kernel shape)
 * where the program has such parts.
 * Built once per (source, options) and kept; the program belongs to SELF.
 * Thread-safe: a second thread asking for a program being built waits for
 * that build. */
cl_program                latent_cl_get_program    (LatentCl            *self,
                                                    const char          *name,
                                                    const char          *options,
                                                    GError             **error);
/* Same as latent_cl_get_program() with an explicit SOURCE; NAME names it in
 * diagnostics ("NAME.cl:3:7: error: …"). */
cl_program                latent_cl_build_source   (LatentCl            *self,
                                                    const char          *name,
                                                    const char          *source,
                                                    const char          *options,
                                                    GError             **error);
/* Kernels come in two shapes from one program: the CPU shape (one work-item
 * walks many rows with wide vectors, for PoCL and other CPU drivers) and the
 * GPU shape (work-groups of 64–256 work-items, coalesced loads, tiles in
 * local memory). Every program of a GPU-shaped LatentCl is built with
 * -D LATENT_GPU=1 (and where it has them, from its NAME-gpu.cl part rather
 * than NAME-cpu.cl), and host code sizes its launches from
 * latent_cl_get_shape (). */
typedef enum {
  LATENT_KERNEL_SHAPE_CPU,
  LATENT_KERNEL_SHAPE_GPU,
} LatentKernelShape;

/* From the device type, unless $LATENT_KERNELS is "cpu" or "gpu". */
LatentKernelShape         latent_cl_get_shape      (LatentCl            *self);
const char               *latent_kernel_shape_to_string (LatentKernelShape shape);

/* Tunable NAME (a kernel's #ifndef macro, e.g. "TILE") of program PROGRAM:
 * the value `latent-cli tune` found fastest on this device for the current
 * source, else FALLBACK, the shape's default. Host code passes it on as
 * -D NAME=VALUE and sizes its launches from the same value. */
int                       latent_cl_tunable        (LatentCl            *self,
                                                    const char          *program,
                                                    const char          *name,
                                                    int                  fallback);
/* The driver's binary inside the LENGTH bytes of a kernel-cache file's
 * CONTENTS written for DRIVER (a driver version), its length in
 * *PAYLOAD_LENGTH; NULL for anything else. Every cache file passes here
 * before the driver sees it (and the fuzzers feed it). */
const guchar             *latent_cl_unwrap_cache_file (const char       *driver,
                                                       const char       *contents,
                                                       gsize             length,
                                                       gsize            *payload_length);
/* What a tuning file may hold for NAME of PROGRAM: *VALUE is clamped to
 * the range the tuner tries; FALSE (and the file's value unused) for a
 * tunable the tuner never writes. The one bound on values read from a file. */
gboolean                  latent_cl_tunable_bound  (const char          *program,
                                                    const char          *name,
                                                    int                 *value);
/* For the tuner: VALUE overrides tunable NAME of PROGRAM in SELF until
 * latent_cl_clear_tunables (); latent_cl_save_tunables () keeps the
 * overrides of PROGRAM for later runs on this device. */
void                      latent_cl_set_tunable    (LatentCl            *self,
                                                    const char          *program,
                                                    const char          *name,
                                                    int                  value);
void                      latent_cl_clear_tunables (LatentCl            *self,
                                                    const char          *program);
gboolean                  latent_cl_save_tunables  (LatentCl            *self,
                                                    const char          *program,
                                                    GError             **error);
/* Where the tuned choices of this device and shape live (may not exist). */
char                     *latent_cl_get_tunables_path (LatentCl         *self);

/* What `latent-cli tune` tries (engine/latent-tune.c): a tunable and the
 * values to try for it. */
#define LATENT_TUNE_MAX_TUNABLES 4
#define LATENT_TUNE_MAX_VALUES 5

typedef struct {
  const char *name;
  guint       n_values;
  int         values[LATENT_TUNE_MAX_VALUES];
} LatentTuneTunable;

/* A program's tuning job, declared beside the host code of its kernels
 * (latent_gemm_tune_job, latent_kmeans_cl_tune_job, …), which knows what
 * exercises them: a workload and a small grid of tunables per shape (each
 * setting is a program build, seconds on a CPU driver). Every value lies
 * inside latent_cl_tunable_bound's range. */
typedef struct {
  const char        *program;      /* "kmeans" */
  const char        *algorithm;    /* the workload's algorithm id; NULL: the matrix product */
  const char        *params;       /* its settings, space-separated NAME=VALUE */
  guint              rows, cols;   /* the workload's data; the product is rows³ */
  guint              quick_rows;   /* the same, smaller, for tests */
  LatentTuneTunable  cpu[LATENT_TUNE_MAX_TUNABLES];
  LatentTuneTunable  gpu[LATENT_TUNE_MAX_TUNABLES];
} LatentTuneJob;

/* KERNEL from program PROGRAM (a resource name); the caller releases it. */
cl_kernel                 latent_cl_create_kernel  (LatentCl            *self,
                                                    const char          *program,
                                                    const char          *options,
                                                    const char          *kernel,
                                                    GError             **error);
/* The largest power of two at most VALUE (and at least 1): work-group
 * sizes for tree reductions. */
static inline gsize
latent_cl_floor_pow2 (gsize value)
{
  gsize p = 1;

  while (p <= value / 2)
    p *= 2;
  return p;
}

/* The most work-items a work-group of KERNEL may have on SELF's device
 * (1 if the driver will not say). */
gsize                     latent_cl_kernel_group_limit (LatentCl        *self,
                                                        cl_kernel        kernel);
/* Programs loaded from the disk cache since SELF was created. */
guint                     latent_cl_get_cache_hits (LatentCl            *self);
/* Programs built from source since SELF was created (a cache miss each). */
guint                     latent_cl_get_builds     (LatentCl            *self);
/* Builds from source under way now, on any thread, and work held as one. */
guint                     latent_cl_get_building   (LatentCl            *self);
/* Counts work that compiles outside a build as building while held (holds
 * nest; each TRUE is undone by a FALSE): PoCL compiles each kernel for its
 * work-group size at its first launch, seconds on a cold cache. */
void                      latent_cl_hold_building  (LatentCl            *self,
                                                    gboolean             hold);

/* Called on the building thread just before a program that is in neither
 * cache is built from source (seconds with a CPU driver), so a program can
 * say "compiling kernels…". NOTIFY NULL switches it off; USER_DATA must
 * outlive SELF or the next call. */
typedef void (*LatentClBuildNotify) (LatentCl   *cl,
                                     const char *name,
                                     gpointer    user_data);
void                      latent_cl_set_build_notify (LatentCl            *self,
                                                      LatentClBuildNotify  notify,
                                                      gpointer             user_data);

/* Sets a kernel's arguments from LATENT_CL_ARG (value) pairs, ended by
 * LATENT_CL_ARG_END; the error names the kernel. */
#define LATENT_CL_ARG(value) sizeof (value), (const void *) &(value)
#define LATENT_CL_ARG_END ((gsize) 0)
gboolean                  latent_cl_set_args       (cl_kernel            kernel,
                                                    const char          *name,
                                                    GError             **error,
                                                    ...);
/* clCreateBuffer, the error naming what the buffer holds. */
gboolean                  latent_cl_create_buffer  (LatentCl            *self,
                                                    cl_mem              *mem,
                                                    cl_mem_flags         flags,
                                                    gsize                size,
                                                    gpointer             host,
                                                    const char          *what,
                                                    GError             **error);

/* The darktable policy, in one place: an OpenCL path that fails carries on
 * with the reference path and says so. Returns the sentence the run shows;
 * a failed call (LATENT_CL_ERROR_CALL) counts one failure on @self, and
 * after LATENT_CL_MAX_FAILURES latent_cl_usable () gives NULL, so new runs
 * take the reference path for the rest of the session. */
#define LATENT_CL_MAX_FAILURES 3
char                     *latent_cl_fall_back      (LatentCl            *self,
                                                    const char          *algorithm,
                                                    const GError        *error);
guint                     latent_cl_get_failures   (LatentCl            *self);
/* @self, or NULL when it is NULL or OpenCL is off after repeated failures. */
LatentCl                 *latent_cl_usable         (LatentCl            *self);
/* For tests: the next @n enqueue calls latent_cl_check sees succeed are
 * reported as failed with CL_OUT_OF_RESOURCES. */
void                      latent_cl_inject_failures (guint              n);

/* START→END time of a finished event in ms, 0 when profiling info is unavailable. */
double                    latent_cl_event_ms       (cl_event             event);

G_END_DECLS
