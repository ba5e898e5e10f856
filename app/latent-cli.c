/* latent-cli.c — the headless Latent: the same engine and figures as the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-cli"

#include <glib/gi18n.h>
#include <math.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "latent-registry.h"
#include "latent-follow.h"
#include "latent-catalog.h"
#include "latent-param-doc.h"
#include "latent-cl.h"
#include "latent-csv.h"
#include "latent-idx.h"
#include "latent-experiment.h"
#include "latent-family.h"
#include "latent-filter.h"
#include "latent-animation.h"
#include "latent-figure.h"
#include "latent-json.h"
#include "latent-memory.h"
#include "latent-metrics.h"
#include "latent-mpi.h"
#include "latent-png-save.h"
#include "latent-result.h"
#include "latent-sweep.h"
#include "latent-tune.h"

enum {
  EXIT_RUN_FAILED = 1,
  EXIT_BAD_INPUT = 2,
};


static int
fail (int         status,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static int
fail (int         status,
      const char *format,
      ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* One rank of several: the whole job stops, saying which rank and why. */
  latent_mpi_abort (status, message);
  g_printerr ("latent-cli: %s\n", message);
  return status;
}

/* Errors a person caused by what they typed or gave us exit 2. */
static int
status_for_error (const GError *error)
{
  if (error->domain == LATENT_DATA_ERROR || error->domain == LATENT_PARAM_ERROR ||
      error->domain == G_OPTION_ERROR || error->domain == LATENT_FILTER_ERROR ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
      g_error_matches (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_UNKNOWN) ||
      g_error_matches (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER) ||
      g_error_matches (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_DATA))
    return EXIT_BAD_INPUT;
  return EXIT_RUN_FAILED;
}

/* What a run's callbacks share: --progress's objective and the
 * recording of --export-animation. */
typedef struct {
  const char        *objective_name;
  LatentAnimation   *animation;    /* NULL: none, or it failed */
  LatentFigureKind   kind;
  LatentFigureStyle  style;
  GPtrArray         *earlier;      /* the last frames whose centres are trails */
  GArray            *trail;        /* the last frame's trail, as the window draws it */
  GError            *error;        /* why the recording failed */
  gboolean           progress;
  LatentFollowWriter *follow;      /* --follow's folder; NULL: none, or it failed */
  const char        *follow_dir;
  double             init_ms;      /* the start's, from its frame */
} RunCallbacks;

/* --follow's run file replaced; a folder that cannot be written ends the
 * following, not the run. */
static void
write_follow (RunCallbacks      *callbacks,
              LatentFollowState  state,
              LatentSnapshot    *snapshot,
              const char        *failure)
{
  g_autoptr(GError) error = NULL;

  if (callbacks->follow == NULL ||
      latent_follow_writer_write (callbacks->follow, state, snapshot, callbacks->init_ms, failure, &error))
    return;
  g_printerr ("latent-cli: --follow %s: %s\n", callbacks->follow_dir, error->message);
  g_clear_pointer (&callbacks->follow, latent_follow_writer_free);
}

static void
on_iteration (const LatentIterationRecord *record,
              gpointer                     user_data)
{
  RunCallbacks *callbacks = user_data;

  if (callbacks->follow)
    latent_follow_writer_add_record (callbacks->follow, record);
  if (callbacks->progress)
    g_printerr (_("iteration %u: %s %.8g (%.2f ms)\n"), record->iteration,
                callbacks->objective_name, record->objective, record->step_ms);
}

/* Each frame is drawn and encoded as it comes, so that a run of
 * thousands of iterations keeps no snapshot. A failure ends the
 * recording, not the run: its other results are still written. */
static void
on_frame (LatentSnapshot *snapshot,
          gpointer        user_data)
{
  RunCallbacks *callbacks = user_data;

  if (snapshot->iteration == 0)
    callbacks->init_ms = snapshot->elapsed_ms;
  write_follow (callbacks, LATENT_FOLLOW_RUNNING, snapshot, NULL);
  if (callbacks->earlier == NULL)
    return;
  /* Centres with the trails of their last frames, as the window shows
   * them: only their frames are kept, and only that many. Kept after a
   * failed recording too, for --export's end. */
  g_array_set_size (callbacks->trail, 0);
  callbacks->style.n_trail = latent_figure_collect_trail (snapshot, (LatentSnapshot **) callbacks->earlier->pdata,
                                                          callbacks->earlier->len, LATENT_FIGURE_TRAIL_LENGTH,
                                                          callbacks->trail);
  callbacks->style.trail = (const float *) callbacks->trail->data;
  if (callbacks->animation != NULL &&
      !latent_animation_add_snapshot (callbacks->animation, snapshot, callbacks->kind,
                                      &callbacks->style, 1, &callbacks->error))
    g_clear_pointer (&callbacks->animation, latent_animation_free);
  if (latent_clusters_get_means (snapshot, NULL) == NULL)
    return;
  g_ptr_array_add (callbacks->earlier, latent_snapshot_ref (snapshot));
  if (callbacks->earlier->len > LATENT_FIGURE_TRAIL_LENGTH)
    g_ptr_array_remove_index (callbacks->earlier, 0);
}

/* With --progress: a start of several rounds says how far it is, every
 * restart and every tenth of the k-means++ centers. */
static void
on_init_progress (LatentInitStage stage,
                  guint           done,
                  guint           total,
                  gpointer        user_data)
{
  g_autofree char *what = NULL;

  if (stage == LATENT_INIT_CENTERS && (done + 1) * 10 / total == done * 10 / total)
    return;
  what = latent_algorithm_describe_init_progress (stage, done, total);
  /* Translators: how far a run's start has come ("start 3 of 30") */
  g_printerr (_("initialising: %s\n"), what);
}

/* With --progress: a build from source takes seconds on a CPU driver (0.1 s
 * once cached), so the wait before the first iteration is explained. One
 * line for the builds of a run, which come one after another. */
static void
on_build (LatentCl   *cl,
          const char *name,
          gpointer    user_data)
{
  gboolean *said = user_data;

  g_debug ("building %s.cl", name);
  if (*said)
    return;
  *said = TRUE;
  g_printerr ("%s\n", _("compiling kernels…"));
}

/* "  kmeans     k-means (figures: scatter, images)", one line each. */
static char *
dup_algorithm_summary (void)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  GString *out = g_string_new (_("Algorithms:"));

  for (guint i = 0; all[i]; i++)
    {
      g_autofree char *figures = g_strjoinv (", ", (char **) all[i]->figures);

      /* Translators: algorithm id, its title, the figures it offers */
      g_string_append_printf (out, _("\n  %-10s %s (figures: %s)"), all[i]->id, _(all[i]->title), figures);
    }
  return g_string_free (out, FALSE);
}

static gboolean
parse_size (const char  *text,
            int         *width,
            int         *height,
            GError     **error)
{
  guint64 w, h;
  g_auto(GStrv) parts = g_strsplit (text, "x", 3);

  if (g_strv_length (parts) != 2 ||
      !g_ascii_string_to_unsigned (parts[0], 10, 16, 16384, &w, NULL) ||
      !g_ascii_string_to_unsigned (parts[1], 10, 16, 16384, &h, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--size “%s”: expected WIDTHxHEIGHT, each 16 to 16384"), text);
      return FALSE;
    }
  *width = w;
  *height = h;
  return TRUE;
}

/* --axes A,B: each a column's name or number (from 1), or pc for the
 * default projection's axis (0). */
static gboolean
parse_axes (const char     *text,
            LatentDataset  *dataset,
            guint           columns[2],
            GError        **error)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", 3);
  const guint n_cols = latent_dataset_get_n_cols (dataset);

  if (g_strv_length (parts) != 2)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--axes “%s”: expected two columns, ACROSS,UP (names, numbers from 1, or pc)"), text);
      return FALSE;
    }
  for (guint a = 0; a < 2; a++)
    {
      const char *part = g_strstrip (parts[a]);
      guint64 number;

      columns[a] = 0;
      if (g_ascii_strcasecmp (part, "pc") == 0)
        continue;
      for (guint c = 0; c < n_cols && columns[a] == 0; c++)
        if (g_strcmp0 (latent_dataset_get_column_name (dataset, c), part) == 0)
          columns[a] = c + 1;
      if (columns[a] == 0 && g_ascii_string_to_unsigned (part, 10, 1, n_cols, &number, NULL))
        columns[a] = number;
      if (columns[a] == 0)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       g_dngettext (GETTEXT_PACKAGE, "--axes: %s has no column “%s” (its %u column: a name, "
                                    "a number from 1, or pc)",
                                    "--axes: %s has no column “%s” (its %u columns: a name, a number from 1, "
                                    "or pc)", n_cols),
                       latent_dataset_get_name (dataset), part, n_cols);
          return FALSE;
        }
    }
  return TRUE;
}

static LatentCl *
open_device (const char  *device,
             GError     **error)
{
  LatentDeviceChoice choice;
  g_autoptr(GError) local_error = NULL;
  LatentCl *cl;

  if (!latent_device_choice_parse (device, &choice, error))
    return NULL;
  if (choice == LATENT_DEVICE_OFF)
    return NULL;
  /* Under mpirun, each rank on a machine its own device where there are several. */
  latent_cl_set_device_offset (latent_mpi_local_rank ());
  cl = latent_cl_new (choice, &local_error);
  if (cl == NULL)
    {
      if (choice != LATENT_DEVICE_AUTO)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "--device %s: %s",
                       latent_device_choice_to_string (choice), local_error->message);
          return NULL;
        }
      g_printerr (_("latent-cli: %s; using the CPU reference path\n"), local_error->message);
    }
  return cl;
}

/* The filtered image itself, as the input was stored. */
static gboolean
write_output (LatentSnapshot  *snapshot,
              const char      *path,
              GError         **error)
{
  guint width, height, channels, depth = latent_dataset_get_bit_depth (snapshot->dataset);
  const char * const text[] = { "Software", "Latent", NULL };

  if (latent_filters_get_image (snapshot) == NULL ||
      !latent_dataset_get_image_shape (snapshot->dataset, &width, &height, &channels, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s gives no image to write (only convolve does)"), snapshot->algorithm->id);
      return FALSE;
    }
  return latent_png_save (path, latent_filters_get_image (snapshot), width, height, channels, LATENT_PNG_INTERLEAVED,
                          depth == 16 ? 16 : 8, text, error);
}

/* The formats --features-out writes, by the name's ending. */
static gboolean
has_suffix_nocase (const char *path,
                   const char *suffix)
{
  gsize n = strlen (path), s = strlen (suffix);

  return n >= s && g_ascii_strcasecmp (path + n - s, suffix) == 0;
}

/* "wta, …": the algorithms of the registry that encode rows. */
static char *
dup_encoder_list (void)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) ids = NULL;

  for (guint i = 0; all[i]; i++)
    if (all[i]->encode != NULL)
      g_strv_builder_add (builder, all[i]->id);
  ids = g_strv_builder_end (builder);
  return g_strjoinv (", ", ids);
}

/* Whether @path names the file standard output goes to (/dev/stdout, or the
 * file it is redirected to): the summary then goes to stderr instead. */
static gboolean
is_standard_output (const char *path)
{
  GStatBuf target;
  struct stat out;

  return g_stat (path, &target) == 0 && fstat (STDOUT_FILENO, &out) == 0 &&
         target.st_dev == out.st_dev && target.st_ino == out.st_ino;
}

/* g_print, or g_printerr while standard output carries data. */
static void
print_summary (gboolean    to_stderr,
               const char *format,
               ...) G_GNUC_PRINTF (2, 3);

static void
print_summary (gboolean    to_stderr,
               const char *format,
               ...)
{
  va_list args;
  g_autofree char *text = NULL;

  /* Rank 0 speaks for a job of several. */
  if (latent_mpi_rank () > 0)
    return;
  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  if (to_stderr)
    g_printerr ("%s", text);
  else
    g_print ("%s", text);
}

static gboolean
write_features (const LatentAlgorithm  *algorithm,
                LatentSnapshot         *snapshot,
                LatentDataset          *dataset,
                const char             *path,
                GError                **error)
{
  g_autoptr(LatentDataset) features = NULL;

  features = latent_algorithm_encode (snapshot, dataset, error);
  if (features == NULL)
    return FALSE;
  if (has_suffix_nocase (path, ".idx"))
    return latent_idx_save (features, path, error);
  return latent_csv_save (features, path, error);
}

/* @dataset with the test data beside it, both through the encoder of the
 * model at @model_path when there is one: what the algorithm runs on. */
static LatentDataset *
prepare_data (LatentDataset  *dataset,
              const char     *test_data,
              const char     *model_path,
              GError        **error)
{
  g_autoptr(LatentDataset) test = NULL;
  g_autoptr(LatentSnapshot) model = NULL;
  g_autoptr(LatentDataset) features = NULL;

  if (test_data && !(test = latent_catalog_load (test_data, NULL, error)))
    return NULL;
  /* Classes are matched by name on the data as loaded. */
  if (test && !latent_dataset_set_test (dataset, test, error))
    return NULL;
  if (model_path == NULL)
    return g_object_ref (dataset);
  if (!(model = latent_result_read_model (model_path, error)))
    return NULL;
  if (!(features = latent_algorithm_encode (model, dataset, error)))
    {
      g_autofree char *display = g_filename_display_name (model_path);

      g_prefix_error (error, "--features %s: ", display);
      return NULL;
    }
  if (test)
    {
      g_autoptr(LatentDataset) test_features = latent_algorithm_encode (model, latent_dataset_get_test (dataset),
                                                                         error);

      if (test_features == NULL)
        {
          g_autofree char *display = g_filename_display_name (model_path);

          g_prefix_error (error, "--features %s: ", display);
          return NULL;
        }
      if (!latent_dataset_set_test (features, test_features, error))
        return NULL;
    }
  return g_steal_pointer (&features);
}

/* How a table is read (--label, --ignore, --missing, --text,
 * --standardise): options appended to the --data spec (latent-catalog.h),
 * so an experiment file keeps them with the data. */
typedef struct {
  char  *label;
  GStrv  ignore;
  char  *missing;
  char  *text;
  gboolean standardise;
} ImportChoices;

#define IMPORT_ENTRIES(c) \
    { "label", 0, 0, G_OPTION_ARG_STRING, &(c).label, N_("The table's column of labels (a name or a number from 1; none)"), N_("COLUMN") }, \
    { "ignore", 0, 0, G_OPTION_ARG_STRING_ARRAY, &(c).ignore, N_("A column of the table to leave out (an identifier); again for more"), N_("COLUMN") }, \
    { "missing", 0, 0, G_OPTION_ARG_STRING, &(c).missing, N_("Missing values of the table: drop the rows or fill in the column mean (default: refuse)"), N_("drop|mean") }, \
    { "text", 0, 0, G_OPTION_ARG_STRING, &(c).text, N_("Text in a column of numbers: a missing value, or a category of its own 0/1 column (default: refuse)"), N_("missing|onehot") }, \
    { "standardise", 0, 0, G_OPTION_ARG_NONE, &(c).standardise, N_("Each column of numbers to mean 0 and standard deviation 1"), NULL }

static void
import_choices_clear (ImportChoices *c)
{
  g_clear_pointer (&c->label, g_free);
  g_clear_pointer (&c->ignore, g_strfreev);
  g_clear_pointer (&c->missing, g_free);
  g_clear_pointer (&c->text, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ImportChoices, import_choices_clear)

static gboolean
apply_import_choices (ImportChoices  *c,
                      char          **data,
                      GError        **error)
{
  g_autoptr(GString) options = g_string_new (NULL);
  const char *colon;
  gboolean has_options;

  if (c->missing && !g_str_equal (c->missing, "drop") && !g_str_equal (c->missing, "mean"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--missing %s: expected drop or mean"), c->missing);
      return FALSE;
    }
  if (c->text && !g_str_equal (c->text, "missing") && !g_str_equal (c->text, "onehot"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--text %s: expected missing or onehot"), c->text);
      return FALSE;
    }
  /* Column names as they are, commas and colons too. */
  if (c->label)
    {
      g_autofree char *label = latent_catalog_escape (c->label);

      g_string_append_printf (options, ",label=%s", label);
    }
  for (guint i = 0; c->ignore && c->ignore[i]; i++)
    {
      g_autofree char *ignore = latent_catalog_escape (c->ignore[i]);

      g_string_append_printf (options, ",ignore=%s", ignore);
    }
  if (c->missing)
    g_string_append_printf (options, ",missing=%s", c->missing);
  if (c->text)
    g_string_append_printf (options, ",text=%s", c->text);
  if (c->standardise)
    g_string_append (options, ",standardise");
  if (options->len == 0)
    return TRUE;
  /* A spec that has options already ("t.csv:missing=mean") takes more. */
  colon = strrchr (*data, ':');
  has_options = colon != NULL && !g_file_test (*data, G_FILE_TEST_EXISTS);
  {
    char *spec = g_strconcat (*data, has_options ? "" : ":", options->str + (has_options ? 0 : 1), NULL);

    g_free (*data);
    *data = spec;
  }
  return TRUE;
}


/* What --follow's window needs to repeat the run's setting: the files as
 * absolute paths, for a window started elsewhere. */
static char *
absolute_spec (const char *spec)
{
  if (spec == NULL || !g_file_test (spec, G_FILE_TEST_EXISTS))
    return g_strdup (spec);
  return g_canonicalize_filename (spec, NULL);
}

static LatentExperiment *
new_follow_experiment (const char            *data,
                       const char            *labels,
                       const char            *test_data,
                       const LatentAlgorithm *algorithm,
                       LatentParams          *params,
                       guint64                seed,
                       const char            *device,
                       const char            *figure,
                       const guint           *axis_columns)
{
  g_autofree char *data_path = absolute_spec (data);
  g_autofree char *labels_path = absolute_spec (labels);
  LatentExperiment *experiment = latent_experiment_new (data_path, labels_path, algorithm, params, seed, device);

  experiment->test = absolute_spec (test_data);
  if (figure)
    g_free (experiment->figure), experiment->figure = g_strdup (figure);
  experiment->axes[0] = axis_columns[0];
  experiment->axes[1] = axis_columns[1];
  return experiment;
}

static int
command_run (int    argc,
             char **argv)
{
  g_autofree char *data = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *test_data = NULL;
  g_autofree char *model_path = NULL;
  g_autofree char *device = NULL;
  g_autofree char *export_path = NULL;
  g_autofree char *animation_path = NULL;
  g_autofree char *json_path = NULL;
  g_autofree char *csv_path = NULL;
  g_autofree char *output_path = NULL;
  g_autofree char *features_path = NULL;
  g_autofree char *size = NULL;
  g_autofree char *figure = NULL;
  g_autofree char *axes = NULL;
  g_autofree char *experiment_path = NULL;
  g_auto(GStrv) param_args = NULL;
  gint64 seed = G_MININT64;   /* not given: the experiment's, or 0 */
  guint axis_columns[2] = { 0, 0 };
  int iterations = G_MININT;   /* not given; 0 is refused like any value out of range */
  int fps = 10;
  int frame_every = G_MININT;  /* not given: from the iteration budget */
  gboolean progress = FALSE;
  gboolean said_compiling = FALSE;
  g_auto(ImportChoices) import = { 0 };
  gboolean test_from_experiment = FALSE;
  g_autofree char *memory = NULL;
  g_autofree char *follow_dir = NULL;
  const GOptionEntry entries[] = {
    { "data", 0, 0, G_OPTION_ARG_FILENAME, &data, N_("Dataset: a file or a built-in name (see “datasets”)"), N_("PATH") },
    { "memory", 0, 0, G_OPTION_ARG_STRING, &memory,
      N_("Memory budget: a NumPy file larger is streamed from disk in chunks (default: half of this machine’s memory)"),
      N_("SIZE") },
    { "labels", 0, 0, G_OPTION_ARG_FILENAME, &labels, N_("A separate file of labels"), N_("PATH") },
    IMPORT_ENTRIES (import),
    { "test", 0, 0, G_OPTION_ARG_FILENAME, &test_data,
      N_("Test data for a classifier, with the same columns (default: hold out a share of --data)"), N_("PATH") },
    { "features", 0, 0, G_OPTION_ARG_FILENAME, &model_path,
      N_("Run on the features of a PCA, PPCA, FA or WTA result (its --json file) instead of the data"),
      N_("MODEL.json") },
    { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &param_args, N_("Set a parameter"), N_("NAME=VALUE") },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, N_("Random seed (default 0)"), N_("N") },
    { "iterations", 0, 0, G_OPTION_ARG_INT, &iterations, N_("Iteration budget (max-iterations)"), N_("N") },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, N_("OpenCL device: auto, cpu, gpu or off"), N_("DEVICE") },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &export_path, N_("Write the figure (.png, .svg, .pdf)"), N_("FILE") },
    { "export-animation", 0, 0, G_OPTION_ARG_FILENAME, &animation_path,
      N_("Record the figure as the run goes (.webm, .gif, or .png for a numbered sequence FILE-0001.png …)"),
      N_("FILE") },
    { "fps", 0, 0, G_OPTION_ARG_INT, &fps, N_("Frames a second of --export-animation (default 10, at most 120)"),
      N_("N") },
    { "frame-every", 0, 0, G_OPTION_ARG_INT, &frame_every,
      N_("A frame every N iterations (default: at most about 120 frames a run)"), N_("N") },
    { "figure", 0, 0, G_OPTION_ARG_STRING, &figure,
      N_("Figure kind: auto, or one the algorithm offers (listed above)"),
      N_("KIND") },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, N_("Figure size in pixels (default 1200x900)"), N_("WxH") },
    { "axes", 0, 0, G_OPTION_ARG_STRING, &axes,
      N_("The scatter's columns across and up, as they are (names or numbers from 1; pc: the principal component)"),
      N_("ACROSS,UP") },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, N_("Write the result as JSON"), N_("FILE") },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path, N_("Write one label per row as CSV"), N_("FILE") },
    { "output", 0, 0, G_OPTION_ARG_FILENAME, &output_path,
      N_("Write the filtered image as PNG, with the input’s size, channels and bit depth (convolve)"), N_("FILE") },
    { "features-out", 0, 0, G_OPTION_ARG_FILENAME, &features_path,
      N_("Write the features the encoder learns for each row, with its labels, as a dataset (.csv or .idx)"),
      N_("FILE") },
    { "progress", 0, 0, G_OPTION_ARG_NONE, &progress, N_("Print every iteration to stderr"), NULL },
    { "follow", 0, 0, G_OPTION_ARG_FILENAME, &follow_dir,
      N_("Write the run as it goes into a folder, for the window to follow (Follow a Run…)"), N_("DIR") },
    { "experiment", 0, 0, G_OPTION_ARG_FILENAME, &experiment_path,
      N_("Replay an experiment saved from the window; other options override it"), N_("FILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("ALGORITHM — run an algorithm on a dataset"));
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) loaded = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(LatentFit) fit = NULL;
  g_autoptr(LatentExperiment) experiment = NULL;
  g_autoptr(LatentAnimation) animation = NULL;
  g_autoptr(GError) animation_error = NULL;
  RunCallbacks callbacks = { NULL };
  g_autoptr(GPtrArray) earlier = NULL;
  g_autoptr(GArray) trail = NULL;
  g_autofree char *summary = dup_algorithm_summary ();
  const LatentAlgorithm *algorithm = NULL;
  const char *objective_name;
  g_autofree char *objective = NULL;
  LatentSnapshot *snapshot;
  LatentFigureKind kind = LATENT_FIGURE_AUTO;
  int width = 1200, height = 900;
  /* The summary is no part of features written to standard output. */
  gboolean to_stderr = FALSE;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, summary);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return fail (EXIT_BAD_INPUT, "%s", error->message);
  if (experiment_path && !(experiment = latent_experiment_load (experiment_path, &error)))
    return fail (status_for_error (error), "%s", error->message);
  if (argc != 2 && !(argc == 1 && experiment))
    return fail (EXIT_BAD_INPUT, "%s", _("run: expected one ALGORITHM, e.g. “latent-cli run kmeans --data iris”"));
  if (data == NULL && experiment)
    data = g_strdup (experiment->dataset);
  if (labels == NULL && experiment && experiment->labels)
    labels = g_strdup (experiment->labels);
  if (device == NULL && experiment)
    device = g_strdup (experiment->device);
  /* The experiment's test data and view, unless told otherwise. */
  if (test_data == NULL && experiment && experiment->test)
    test_data = g_strdup (experiment->test), test_from_experiment = TRUE;
  if (figure == NULL && experiment && !g_str_equal (experiment->figure, "auto"))
    figure = g_strdup (experiment->figure);
  if (axes == NULL && experiment && (experiment->axes[0] || experiment->axes[1]))
    {
      g_autofree char *across = experiment->axes[0] ? g_strdup_printf ("%u", experiment->axes[0]) : g_strdup ("pc");
      g_autofree char *up = experiment->axes[1] ? g_strdup_printf ("%u", experiment->axes[1]) : g_strdup ("pc");

      axes = g_strconcat (across, ",", up, NULL);
    }
  if (data == NULL)
    return fail (EXIT_BAD_INPUT, "%s", _("run: --data is required"));
  if (!apply_import_choices (&import, &data, &error))
    return fail (EXIT_BAD_INPUT, "%s", error->message);
  if (seed < 0 && seed != G_MININT64)
    return fail (EXIT_BAD_INPUT, _("--seed %lld: must not be negative"), (long long) seed);
  if (seed == G_MININT64)
    seed = experiment ? (gint64) experiment->seed : 0;
  if (size && !parse_size (size, &width, &height, &error))
    return fail (EXIT_BAD_INPUT, "%s", error->message);
  if (export_path && !g_str_has_suffix (export_path, ".png") && !g_str_has_suffix (export_path, ".svg") &&
      !g_str_has_suffix (export_path, ".pdf"))
    return fail (EXIT_BAD_INPUT, _("--export %s: the name must end in .png, .svg or .pdf"), export_path);
  if (animation_path && (fps < 1 || fps > LATENT_ANIMATION_MAX_FPS))
    return fail (EXIT_BAD_INPUT, _("--fps %d: must be between 1 and %d"), fps, LATENT_ANIMATION_MAX_FPS);
  if (animation_path && frame_every != G_MININT && frame_every < 1)
    return fail (EXIT_BAD_INPUT, _("--frame-every %d: must be at least 1"), frame_every);
  if (animation_path && !latent_animation_check (animation_path, width, height, fps, &error))
    return fail (EXIT_BAD_INPUT, "--export-animation: %s", error->message);
  /* The window loads the data itself and has no --features yet. */
  if (follow_dir && model_path)
    return fail (EXIT_BAD_INPUT, "%s", _("--follow: a run on --features cannot be followed yet; "
                                         "write the features with --features-out and run on that file"));
  if (features_path && !has_suffix_nocase (features_path, ".csv") && !has_suffix_nocase (features_path, ".idx"))
    return fail (EXIT_BAD_INPUT, _("--features-out %s: the name must end in .csv or .idx"), features_path);

  if (argc == 2 && !(algorithm = latent_registry_lookup (argv[1], &error)))
    return fail (EXIT_BAD_INPUT, "%s", error->message);
  if (argc == 1)
    algorithm = experiment->algorithm;
  if (features_path && algorithm->encode == NULL)
    {
      g_autofree char *encoders = dup_encoder_list ();

      /* Translators: the algorithm given, then those that can, e.g. “wta” */
      return fail (EXIT_BAD_INPUT, _("--features-out: %s has no encoder (these have: %s)"),
                   algorithm->id, encoders);
    }
  /* An experiment's test data serves its own algorithm, a classifier. */
  if (test_from_experiment && !(algorithm->flags & LATENT_ALGORITHM_SUPERVISED))
    g_clear_pointer (&test_data, g_free);
  /* Refusals known before the run come before it, not after its work. */
  if (test_data && !(algorithm->flags & LATENT_ALGORITHM_SUPERVISED))
    /* Translators: the algorithm given, e.g. “kmeans” */
    return fail (EXIT_BAD_INPUT, _("--test: %s learns no labels, so it has nothing to test; "
                                   "only a classifier takes test data"), algorithm->id);
  if (csv_path && !latent_result_check_csv (algorithm, csv_path, &error))
    return fail (EXIT_BAD_INPUT, "--csv %s", error->message);
  if (figure && !latent_figure_kind_from_string (figure, &kind))
    {
      /* The algorithm's own, from its table. */
      g_autofree char *kinds = g_strjoinv (", ", (char **) algorithm->figures);

      return fail (EXIT_BAD_INPUT, _("--figure “%s”: expected auto or one of %s"), figure, kinds);
    }
  if (experiment && experiment->algorithm == algorithm)
    params = latent_params_copy (experiment->params);
  else
    params = latent_algorithm_new_params (algorithm);
  for (guint i = 0; param_args && param_args[i]; i++)
    if (!latent_params_parse (params, param_args[i], &error))
      return fail (EXIT_BAD_INPUT, "%s", error->message);
  if (iterations != G_MININT)
    {
      const char *name = latent_params_find_role (params, LATENT_PARAM_ROLE_BUDGET);

      if (name == NULL)
        return fail (EXIT_BAD_INPUT, _("--iterations: %s takes no iteration budget"), algorithm->id);
      if (!latent_params_set_int (params, name, iterations, &error))
        return fail (EXIT_BAD_INPUT, "--iterations: %s", error->message);
    }

  if (memory)
    {
      guint64 bytes;

      if (!latent_memory_parse (memory, "--memory", &bytes, &error))
        return fail (EXIT_BAD_INPUT, "%s", error->message);
      latent_memory_set_budget (bytes);
    }
  if (latent_algorithm_has_flag (algorithm, LATENT_ALGORITHM_IMAGE) && latent_catalog_builtin_gives_rows (data))
    return fail (EXIT_BAD_INPUT, _("--data %s: %s filters one image, and this dataset is rows "
                                   "(open a PNG or JPEG, or use pattern)"), data, algorithm->id);
  if (!(loaded = latent_catalog_load (data, labels, &error)) ||
      !(dataset = prepare_data (loaded, test_data, model_path, &error)))
    return fail (status_for_error (error), "%s", error->message);
  if (latent_mpi_rank () == 0 && latent_dataset_is_streamed (loaded))
    {
      g_autofree char *storage = latent_dataset_describe_storage (loaded);

      g_printerr ("latent-cli: %s: %s\n", data, storage);
      if (latent_dataset_get_stream_copy (loaded))
        g_printerr ("latent-cli: %s: %s\n", data, latent_dataset_get_stream_copy (loaded));
    }
  if (axes && !parse_axes (axes, dataset, axis_columns, &error))
    return fail (EXIT_BAD_INPUT, "%s", error->message);
  /* The features keep the labels of the data the algorithm runs on. */
  if (features_path && has_suffix_nocase (features_path, ".idx") &&
      !latent_idx_check_labels (dataset, features_path, &error))
    return fail (EXIT_BAD_INPUT, "--features-out: %s", error->message);

  /* A followed or recorded job's frames show every rank's rows as each
   * pass leaves them: every rank shares them, rank 0 draws them. */
  latent_algorithm_set_rows_watched (follow_dir != NULL || animation_path != NULL);
  /* Rank 0 writes the job's results, figure and progress; the others
   * only take their share of each pass. */
  if (latent_mpi_rank () > 0)
    {
      g_clear_pointer (&json_path, g_free);
      g_clear_pointer (&csv_path, g_free);
      g_clear_pointer (&output_path, g_free);
      g_clear_pointer (&features_path, g_free);
      g_clear_pointer (&export_path, g_free);
      g_clear_pointer (&animation_path, g_free);
      g_clear_pointer (&follow_dir, g_free);
      progress = FALSE;
    }
  cl = open_device (device, &error);
  if (error)
    return fail (EXIT_BAD_INPUT, "%s", error->message);

  if (cl != NULL && progress)
    latent_cl_set_build_notify (cl, on_build, &said_compiling);
  objective_name = latent_algorithm_objective_name (algorithm, params);
  if (latent_mpi_size () > 1)
    {
      /* Translators: the number of MPI processes of the job */
      if (algorithm->pass != NULL || latent_algorithm_has_flag (algorithm, LATENT_ALGORITHM_SHARES))
        print_summary (TRUE, _("latent-cli: %u MPI ranks, each passing over its share of the rows; "
                               "every pass summed over them\n"), latent_mpi_size ());
      else
        print_summary (TRUE, _("latent-cli: %u MPI ranks, but %s does not share its work yet: "
                               "every rank runs it on every row (the same answer)\n"),
                       latent_mpi_size (), algorithm->id);
    }
  callbacks.objective_name = objective_name;
  if (animation_path)
    {
      /* Drawn as --export draws: the same kind, style and size. */
      callbacks.kind = kind;
      callbacks.earlier = earlier = g_ptr_array_new_with_free_func ((GDestroyNotify) latent_snapshot_unref);
      callbacks.trail = trail = g_array_new (FALSE, FALSE, sizeof (float));
      latent_figure_style_init (&callbacks.style);
      memcpy (callbacks.style.axis_columns, axis_columns, sizeof callbacks.style.axis_columns);
      /* A file that cannot be written is said at the end, after the
       * run's other results: the run goes on. */
      callbacks.animation = latent_animation_new (animation_path, width, height, fps, &callbacks.error);
    }
  callbacks.progress = progress;
  if (follow_dir)
    {
      g_autoptr(LatentExperiment) told = new_follow_experiment (data, labels, test_data, algorithm, params, seed,
                                                                 device, figure, axis_columns);

      callbacks.follow_dir = follow_dir;
      if (!(callbacks.follow = latent_follow_writer_new (follow_dir, told, &error)))
        return fail (EXIT_BAD_INPUT, "--follow: %s", error->message);
      write_follow (&callbacks, LATENT_FOLLOW_INITIALISING, NULL, NULL);
    }
  if (progress)
    latent_algorithm_set_init_progress (on_init_progress, NULL);
  /* A followed run's frames are paced as the window's live view, unless a
   * recording wants its own. */
  if (frame_every == G_MININT && !animation_path && follow_dir)
    frame_every = (int) LATENT_FIT_FRAMES_TIMED;
  fit = latent_algorithm_fit_full (algorithm, dataset, params, seed, cl,
                                   progress || follow_dir ? on_iteration : NULL,
                                   animation_path || follow_dir ? on_frame : NULL,
                                   frame_every == G_MININT ? 0 : (guint) frame_every, &callbacks, NULL, &error);
  latent_algorithm_set_init_progress (NULL, NULL);
  animation = g_steal_pointer (&callbacks.animation);
  write_follow (&callbacks, fit ? LATENT_FOLLOW_FINISHED : LATENT_FOLLOW_FAILED, NULL, fit ? NULL : error->message);
  g_clear_pointer (&callbacks.follow, latent_follow_writer_free);
  /* A failed run's recording is freed unfinished: no file is left. */
  if (fit == NULL)
    return fail (status_for_error (error), "%s", error->message);
  if (animation && !callbacks.error && !latent_animation_finish (animation, &callbacks.error))
    g_clear_pointer (&animation, latent_animation_free);
  animation_error = g_steal_pointer (&callbacks.error);

  snapshot = fit->snapshot;
  if (snapshot->message)
    g_printerr ("latent-cli: %s\n", snapshot->message);

  /* Standard output may carry a result; the summary then goes to stderr. */
  to_stderr = (json_path && is_standard_output (json_path)) || (csv_path && is_standard_output (csv_path)) ||
              (features_path && is_standard_output (features_path));
  fflush (stdout);
  if (json_path && !latent_result_write_json (snapshot, fit->history, fit->init_ms, fit->total_ms,
                                              json_path, &error))
    return fail (EXIT_RUN_FAILED, "--json %s", error->message);
  if (csv_path && !latent_result_write_csv (snapshot, csv_path, &error))
    return fail (EXIT_RUN_FAILED, "--csv %s", error->message);
  if (output_path && !write_output (snapshot, output_path, &error))
    return fail (EXIT_RUN_FAILED, "--output %s", error->message);
  if (features_path)
    {
      if (!write_features (algorithm, snapshot, dataset, features_path, &error))
        return fail (EXIT_RUN_FAILED, "--features-out: %s", error->message);
    }
  if (export_path)
    {
      LatentFigureStyle style;

      g_autoptr(GError) unfit = NULL;

      latent_figure_style_init (&style);
      memcpy (style.axis_columns, axis_columns, sizeof style.axis_columns);
      /* Recorded, the run's end is drawn as its last frame was. */
      if (callbacks.trail != NULL)
        {
          style.trail = callbacks.style.trail;
          style.n_trail = callbacks.style.n_trail;
        }
      /* Still written, saying why, so a script's file is there to look at. */
      if (!latent_figure_kind_applies (snapshot, latent_figure_resolve_kind (snapshot, kind), &unfit))
        g_printerr (_("latent-cli: --figure %s: %s\n"), latent_figure_kind_to_string (kind), unfit->message);
      else if (axes && !latent_figure_kind_uses_axes (snapshot, kind))
        g_printerr (_("latent-cli: --axes: ignored, as the %s figure does not draw the data’s columns\n"),
                    latent_figure_kind_to_string (latent_figure_resolve_kind (snapshot, kind)));
      if (!latent_figure_export (snapshot, kind, &style, export_path, width, height, &error))
        return fail (EXIT_RUN_FAILED, "--export: %s", error->message);
    }

  /* Nothing measured yet (no episode run): no number, rather than "nan". */
  if (!isfinite (snapshot->objective))
    objective = g_strdup_printf (_("no %s"), objective_name);
  else
    objective = g_strdup_printf ("%s %.8g", objective_name, snapshot->objective);
  print_summary (to_stderr,
                 /* Translators: algorithm, dataset (rows × columns), device, iterations, “ (converged)”, objective and its value, time */
                 g_dngettext (GETTEXT_PACKAGE, "%s on %s (%u × %u) on %s: %u iteration%s, %s, %.1f ms\n",
                              "%s on %s (%u × %u) on %s: %u iterations%s, %s, %.1f ms\n", snapshot->iteration),
                 algorithm->id, latent_dataset_get_name (dataset),
                 latent_dataset_get_n_rows (dataset), latent_dataset_get_n_cols (dataset),
                 snapshot->device ? _(snapshot->device) : "",   /* stored untranslated, for the JSON */
                 snapshot->iteration,
                 snapshot->converged ? _(" (converged)") : "",
                 objective, fit->total_ms);
  if (snapshot->has_label_metrics)
    print_summary (to_stderr, _("accuracy %.4f, ARI %.4f, NMI %.4f\n"),
                   snapshot->metrics.accuracy, snapshot->metrics.ari, snapshot->metrics.nmi);
  if (snapshot->has_label_metrics)
    {
      g_autofree char *table = latent_metrics_snapshot_confusion (snapshot);

      /* Translators: Weka's name for the clusters × classes table that follows */
      if (table != NULL)
        print_summary (to_stderr, _("classes to clusters (* matched):\n%s\n"), table);
    }
  if (export_path)
    print_summary (to_stderr, _("figure written to %s\n"), export_path);
  if (animation && !animation_error)
    {
      const guint n = latent_animation_get_n_frames (animation);
      g_autofree char *written = NULL;

      if (latent_animation_get_format (animation) == LATENT_ANIMATION_PNG)
        {
          g_autofree char *first = latent_animation_dup_frame_path (animation_path, 1);
          g_autofree char *last = latent_animation_dup_frame_path (animation_path, n);

          written = n > 1 ? g_strdup_printf ("%s … %s", first, last) : g_steal_pointer (&first);
        }
      else
        written = g_strdup (animation_path);
      print_summary (to_stderr,
                     /* Translators: the file, frames, seconds, frames a second */
                     g_dngettext (GETTEXT_PACKAGE,
                                  "animation written to %s (%u frame, %.1f s at %d fps)\n",
                                  "animation written to %s (%u frames, %.1f s at %d fps)\n", n),
                     written, n, latent_animation_get_duration (animation), fps);
    }
  if (features_path && !to_stderr)
    g_print (_("features written to %s\n"), features_path);
  /* Said when it failed; the exit status says it again, after the other
   * results are written. */
  if (animation_error)
    return fail (EXIT_RUN_FAILED, "--export-animation: %s", animation_error->message);
  return 0;
}

static void
on_sweep_point (const LatentSweepPoint *point,
                gpointer                user_data)
{
  if (GPOINTER_TO_INT (user_data))
    g_printerr (_("K = %u: log-likelihood %.6g, BIC %.8g, AIC %.8g (%u iterations)\n"),
                point->k, point->log_likelihood, point->bic, point->aic, point->iterations);
}

static gboolean
write_sweep_json (const LatentSweep  *sweep,
                  const char         *algorithm,
                  LatentDataset      *dataset,
                  LatentParams       *params,
                  gint64              seed,
                  const char         *path,
                  GError            **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "sweep");
  json_builder_add_string_value (b, algorithm);
  json_builder_set_member_name (b, "dataset");
  json_builder_add_string_value (b, latent_dataset_get_name (dataset));
  json_builder_set_member_name (b, "params");
  json_builder_add_value (b, latent_params_to_json (params));
  json_builder_set_member_name (b, "seed");
  json_builder_add_int_value (b, seed);
  json_builder_set_member_name (b, "points");
  json_builder_begin_array (b);
  for (guint i = 0; i < sweep->points->len; i++)
    {
      const LatentSweepPoint *p = &g_array_index (sweep->points, LatentSweepPoint, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "k");
      json_builder_add_int_value (b, p->k);
      json_builder_set_member_name (b, "log_likelihood");
      latent_json_add_double (b, p->log_likelihood);
      json_builder_set_member_name (b, "bic");
      latent_json_add_double (b, p->bic);
      json_builder_set_member_name (b, "aic");
      latent_json_add_double (b, p->aic);
      json_builder_set_member_name (b, "iterations");
      json_builder_add_int_value (b, p->iterations);
      json_builder_set_member_name (b, "converged");
      json_builder_add_boolean_value (b, p->converged);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "best_k_bic");
  json_builder_add_int_value (b, g_array_index (sweep->points, LatentSweepPoint, sweep->best_bic).k);
  json_builder_set_member_name (b, "best_k_aic");
  json_builder_add_int_value (b, g_array_index (sweep->points, LatentSweepPoint, sweep->best_aic).k);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  return latent_json_write_file (root, TRUE, path, error);
}

/* latent-cli sweep gmm --data … --param k=1..12: one fit per K, BIC and AIC. */
static int
command_sweep (int    argc,
               char **argv)
{
  g_autofree char *data = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *device = NULL;
  g_autofree char *json_path = NULL;
  g_autofree char *export_path = NULL;
  g_autofree char *size = NULL;
  g_auto(GStrv) param_args = NULL;
  gint64 seed = 0;
  gboolean progress = FALSE;
  int width = 1200, height = 900;
  const GOptionEntry entries[] = {
    { "data", 0, 0, G_OPTION_ARG_FILENAME, &data, N_("Dataset: a file or a built-in name (see “datasets”)"), N_("PATH") },
    { "labels", 0, 0, G_OPTION_ARG_FILENAME, &labels, N_("A separate file of labels"), N_("PATH") },
    { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &param_args,
      N_("Set a parameter; k takes a range such as k=1..12"), N_("NAME=VALUE") },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &export_path, N_("Write the BIC/AIC figure (.png, .svg, .pdf)"), N_("FILE") },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, N_("Figure size in pixels (default 1200x900)"), N_("WxH") },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, N_("Random seed (default 0)"), N_("N") },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, N_("OpenCL device: auto, cpu, gpu or off"), N_("DEVICE") },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, N_("Write the scores as JSON"), N_("FILE") },
    { "progress", 0, 0, G_OPTION_ARG_NONE, &progress, N_("Print every K to stderr"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("ALGORITHM — choose K by BIC and AIC"));
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_autoptr(LatentSweep) sweep = NULL;
  g_autofree char *swept = NULL;
  const LatentAlgorithm *algorithm;
  const char *sweep_name;
  guint first = 1, last = 8;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return fail (EXIT_BAD_INPUT, "%s", error->message);
  if (argc != 2)
    return fail (EXIT_BAD_INPUT, _("sweep: expected one ALGORITHM, e.g. “latent-cli sweep gmm --data iris --param k=1..8”"));
  if (data == NULL)
    return fail (EXIT_BAD_INPUT, _("sweep: --data is required"));
  if (seed < 0)
    return fail (EXIT_BAD_INPUT, _("--seed %lld: must not be negative"), (long long) seed);
  if (size && !parse_size (size, &width, &height, &error))
    return fail (EXIT_BAD_INPUT, "%s", error->message);
  if (!(algorithm = latent_registry_lookup (argv[1], &error)))
    return fail (EXIT_BAD_INPUT, "%s", error->message);
  if ((sweep_name = latent_algorithm_param_with_role (algorithm, LATENT_PARAM_ROLE_SWEEP)) == NULL)
    return fail (EXIT_BAD_INPUT, _("sweep: %s has no score such as BIC to compare across runs"), algorithm->id);

  params = latent_algorithm_new_params (algorithm);
  swept = g_strconcat (sweep_name, "=", NULL);
  for (guint i = 0; param_args && param_args[i]; i++)
    {
      if (g_str_has_prefix (param_args[i], swept))
        {
          if (!latent_sweep_parse_range (params, sweep_name, param_args[i], &first, &last, &error))
            return fail (EXIT_BAD_INPUT, "%s", error->message);
        }
      else if (!latent_params_parse (params, param_args[i], &error))
        return fail (EXIT_BAD_INPUT, "%s", error->message);
    }
  if (!(dataset = latent_catalog_load (data, labels, &error)))
    return fail (status_for_error (error), "%s", error->message);
  cl = open_device (device, &error);
  if (error)
    return fail (EXIT_BAD_INPUT, "%s", error->message);

  sweep = latent_sweep_run (algorithm, dataset, params, seed, cl, first, last,
                            on_sweep_point, GINT_TO_POINTER (progress), NULL, &error);
  if (sweep == NULL)
    return fail (status_for_error (error), "%s", error->message);
  if (json_path && !write_sweep_json (sweep, algorithm->id, dataset, params, seed, json_path, &error))
    return fail (EXIT_RUN_FAILED, "--json %s: %s", json_path, error->message);
  if (export_path)
    {
      LatentFigureStyle style;

      latent_figure_style_init (&style);
      if (!latent_figure_sweep_export (sweep, &style, export_path, width, height, &error))
        return fail (status_for_error (error), "--export: %s", error->message);
    }

  g_print (_("  K   log-likelihood             BIC             AIC\n"));
  for (guint i = 0; i < sweep->points->len; i++)
    {
      const LatentSweepPoint *p = &g_array_index (sweep->points, LatentSweepPoint, i);
      g_print ("%3u %16.6f %15.2f %15.2f%s\n", p->k, p->log_likelihood, p->bic, p->aic,
               i == sweep->best_bic ? _("   ← best by BIC") : "");
    }
  g_print (_("best K: %u by BIC, %u by AIC\n"),
           g_array_index (sweep->points, LatentSweepPoint, sweep->best_bic).k,
           g_array_index (sweep->points, LatentSweepPoint, sweep->best_aic).k);
  return 0;
}

static int
command_devices (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) devices = latent_cl_list_devices (&error);
  g_autoptr(LatentCl) chosen = NULL;

  if (devices == NULL)
    return fail (EXIT_RUN_FAILED, "%s", error->message);
  if (devices->len == 0)
    g_print ("%s", _("No OpenCL device; algorithms run on the CPU reference path.\n"));

  chosen = latent_cl_new (LATENT_DEVICE_AUTO, NULL);
  for (guint i = 0; i < devices->len; i++)
    {
      LatentClDeviceInfo *info = g_ptr_array_index (devices, i);
      gboolean is_default = chosen && latent_cl_get_device (chosen) == info->device;

      g_print ("%s%s — %s\n", is_default ? "* " : "  ", info->name, info->platform_name);
      g_print (g_dngettext (GETTEXT_PACKAGE, "    %s, driver %s, %s, %u compute unit, %llu MiB\n",
                            "    %s, driver %s, %s, %u compute units, %llu MiB\n", info->compute_units),
               info->version, info->driver_version,
               info->type & CL_DEVICE_TYPE_GPU ? "GPU" : info->type & CL_DEVICE_TYPE_CPU ? "CPU" : _("other"),
               info->compute_units, (unsigned long long) (info->global_mem_size >> 20));
    }
  if (chosen)
    g_print ("%s", _("* default (--device auto)\n"));
  return 0;
}

static void
print_trial (const LatentTuneTrial *trial,
             gpointer               user_data)
{
  if (trial->failure != NULL)
    g_print ("%-8s %-28s %s\n", trial->program, trial->setting, trial->failure);
  else
    g_print ("%-8s %-28s %10.3f ms%s\n", trial->program, trial->setting, trial->ms,
             !trial->correct ? _("  disagrees with the defaults") : "");
}

static int
command_tune (int    argc,
              char **argv)
{
  g_autofree char *device = NULL;
  g_autofree char *program = NULL;
  gboolean quick = FALSE;
  const GOptionEntry entries[] = {
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, N_("OpenCL device: auto, cpu or gpu"), N_("DEVICE") },
    { "program", 0, 0, G_OPTION_ARG_STRING, &program, N_("Tune only this program (gemm, kmeans, …)"), N_("NAME") },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, N_("Small workloads: seconds instead of minutes"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("— find the fastest kernel tunables for this device"));
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentCl) cl = NULL;
  g_autofree char *described = NULL;
  g_autofree char *path = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return fail (EXIT_BAD_INPUT, "%s", error->message);
  if (argc != 1)
    return fail (EXIT_BAD_INPUT, _("tune: unexpected “%s”"), argv[1]);
  cl = open_device (device, &error);
  if (cl == NULL)
    return fail (error ? status_for_error (error) : EXIT_BAD_INPUT, "%s",
                 error ? error->message : _("tune: there is no OpenCL device to tune"));

  described = latent_cl_describe (cl);
  g_print (_("Tuning %s-shaped kernels on %s\n"), latent_kernel_shape_to_string (latent_cl_get_shape (cl)), described);
  if (!latent_tune_run (cl, program, quick, print_trial, NULL, NULL, &error))
    return fail (status_for_error (error), "%s", error->message);
  path = latent_cl_get_tunables_path (cl);
  g_print (_("Kept in %s; runs on this device use it.\n"), path);
  return 0;
}

static int
command_datasets (void)
{
  g_autoptr(GPtrArray) entries = latent_catalog_list ();

  for (guint i = 0; i < entries->len; i++)
    {
      LatentCatalogEntry *entry = g_ptr_array_index (entries, i);

      g_print ("%-20s %s%s\n", entry->name, _(entry->description),
               entry->available ? "" : _(" (not installed)"));
      if (entry->path && entry->available)
        g_print ("%-20s %s\n", "", entry->path);
    }
  return 0;
}

/* latent-cli params [ALGORITHM | --markdown] */
static int
command_params (int    argc,
                char **argv)
{
  const LatentAlgorithm * const *algorithms = latent_registry_list ();
  g_autoptr(GError) error = NULL;
  const LatentAlgorithm *algorithm;
  g_autofree char *text = NULL;

  if (argc == 2 && g_str_equal (argv[1], "--markdown"))
    text = latent_param_doc_markdown ();
  else if (argc == 2)
    {
      if (!(algorithm = latent_registry_lookup (argv[1], &error)))
        return fail (EXIT_BAD_INPUT, "%s", error->message);
      text = latent_param_doc_text (algorithm);
    }
  else if (argc == 1)
    {
      g_autoptr(GString) all = g_string_new (NULL);

      for (guint i = 0; algorithms[i]; i++)
        {
          g_autofree char *one = latent_param_doc_text (algorithms[i]);

          g_string_append_printf (all, "%s%s", i ? "\n" : "", one);
        }
      text = g_string_free (g_steal_pointer (&all), FALSE);
    }
  else
    return fail (EXIT_BAD_INPUT, _("params: expected one algorithm, or --markdown"));
  g_print ("%s", text);
  return 0;
}

static void
usage (void)
{
  /* One string, so a translation can lay out the whole block. */
  g_printerr ("%s", _("Usage:\n"
                      "  latent-cli run ALGORITHM --data PATH [--labels PATH] [--param NAME=VALUE …]\n"
                      "                 [--seed N] [--iterations N] [--device auto|cpu|gpu|off]\n"
                      "                 [--export FIGURE.png|svg|pdf] [--size WxH] [--json RESULT.json]\n"
                      "                 [--csv RESULT.csv] [--features-out FEATURES.csv|idx] [--progress]\n"
                      "                 [--export-animation RUN.webm|gif|png] [--fps N] [--frame-every N]\n"
                      "  latent-cli run --experiment FILE.json [options that override it]\n"
                      "  latent-cli sweep gmm --data PATH --param k=1..12 [--param NAME=VALUE …]\n"
                      "                 [--seed N] [--device …] [--json SCORES.json] [--export FIGURE.png]\n"
                      "                 [--progress]\n"
                      "  latent-cli tune [--program NAME] [--quick] [--device auto|cpu|gpu]\n"
                      "  latent-cli params [ALGORITHM | --markdown]\n"
                      "  latent-cli devices\n"
                      "  latent-cli datasets\n"
                      "Run “latent-cli run --help” for details.\n"));
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  /* LATENT_LOCALEDIR: the build tree's catalogues, for uninstalled runs. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("LATENT_LOCALEDIR") ? g_getenv ("LATENT_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("latent-cli");

  if (argc < 2)
    {
      usage ();
      return EXIT_BAD_INPUT;
    }
  if (g_str_equal (argv[1], "run"))
    {
      int status;

      /* Under mpirun, a rank of the job (latent-mpi.h). */
      latent_mpi_init (&argc, &argv);
      status = command_run (argc - 1, argv + 1);
      latent_mpi_finalize ();
      return status;
    }
  if (g_str_equal (argv[1], "sweep"))
    return command_sweep (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "tune"))
    return command_tune (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "params"))
    return command_params (argc - 1, argv + 1);
  if (g_str_equal (argv[1], "devices") && argc == 2)
    return command_devices ();
  if (g_str_equal (argv[1], "datasets") && argc == 2)
    return command_datasets ();
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      usage ();
      return 0;
    }
  usage ();
  return fail (EXIT_BAD_INPUT, _("unknown command “%s”"), argv[1]);
}
