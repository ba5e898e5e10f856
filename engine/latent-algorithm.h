/* latent-algorithm.h — the contract every algorithm implements
 *
 * An algorithm is a table: what it is (its names, family, capabilities, the
 * figures it offers, how its results are written) and the functions over an
 * opaque state that run it. The worker (latent-run.c), the CLI, the figures
 * and the window know algorithms only through this table; the list of them
 * is latent-registry.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "latent-cl.h"
#include "latent-dataset.h"
#include "latent-params.h"
#include "latent-rows.h"
#include "latent-snapshot.h"

G_BEGIN_DECLS

#define LATENT_ALGORITHM_ERROR (latent_algorithm_error_quark ())

typedef enum {
  LATENT_ALGORITHM_ERROR_UNKNOWN,     /* no algorithm of that name */
  LATENT_ALGORITHM_ERROR_PARAMETER,   /* parameters do not fit the data (k > rows, …) */
  LATENT_ALGORITHM_ERROR_NUMERIC,     /* the computation broke down */
  LATENT_ALGORITHM_ERROR_DATA,        /* the data cannot be fitted at all (every row the same) */
} LatentAlgorithmError;

GQuark latent_algorithm_error_quark (void);

typedef enum {
  /* A whole run takes about as long as a person waits for a click (a
   * filter's few passes): the window runs it again on every change. */
  LATENT_ALGORITHM_INSTANT    = 1 << 0,
  /* Learns from the labels; wants a test set. */
  LATENT_ALGORITHM_SUPERVISED = 1 << 1,
  /* Its result maps rows to features another algorithm can learn from. */
  LATENT_ALGORITHM_ENCODER    = 1 << 2,
  /* Its components are factors (factor analysis): figures say so. */
  LATENT_ALGORITHM_FACTORS    = 1 << 3,
  /* Filters one image, not rows: latent-cli refuses a generator of rows
   * before generating it (rings:n=268435456 took 36 s to be refused). */
  LATENT_ALGORITHM_IMAGE      = 1 << 4,
  /* Not of the pass contract, yet shares its work over MPI ranks (each
   * a share of every mini-batch, the gradients summed). */
  LATENT_ALGORITHM_SHARES     = 1 << 5,
} LatentAlgorithmFlags;

/* What the history keeps for every iteration. */
typedef struct {
  guint  iteration;
  double objective;
  double step_ms;
} LatentIterationRecord;

/* The pass contract, for algorithms whose iteration is a pass over the
 * rows (k-means' assignment, …): the engine owns the loop over the row
 * source's chunks (latent_algorithm_step), the algorithm only
 *
 *   begin       starts the iteration: what comes before the rows are read
 *               (k-means moves its centers to the last pass's means);
 *   accumulate  adds one chunk's statistics into @stats (sums, counts,
 *               inertia, …) and writes its per-row state (labels,
 *               distances) at chunk->first + i;
 *   finish      ends the pass from the statistics of every row; it sets
 *               *again where the iteration needs another pass over the
 *               rows (GMM: the scatter about the new means, then the
 *               expectation), whose statistics may have another length:
 *               the engine asks n_stats () before every pass.
 *
 * An iteration's statistics are one flat array of n_stats () doubles,
 * zeroed by the engine before the first chunk, to which every chunk only
 * adds: partial statistics of two sets of rows sum to those of both. So
 * when one job runs over several MPI ranks, each rank accumulates its own
 * chunks and the engine makes the whole with one call between the last
 * accumulate and finish,
 *
 *   MPI_Allreduce (MPI_IN_PLACE, stats, n_stats, MPI_DOUBLE, MPI_SUM, comm);
 *
 * and every rank finishes identically, so begin (which only reads state
 * that finish left) stays the same everywhere (latent-mpi.h). In one
 * process the chunks are added in row order into one array, so the sums
 * are bit for bit those of one chunk of every row, whatever the chunk
 * size; across ranks the order of the additions changes (MPI_SUM's own),
 * so the answer is the same for any number of ranks within float
 * summation order.
 * What a pass writes per row (k-means' labels and distances, a mixture's
 * responsibilities) is read by finish and begin for every row (an empty
 * cluster's center moves to the row farthest from its own; the labels
 * are the result): row_state names those arrays, and under MPI each
 * rank's share of them is copied to every rank after the pass.
 *
 * Where the source is one chunk of every row of the dataset the state was
 * initialised on, in this process (latent_rows_is_whole), begin may run
 * the whole iteration on its own copy of the rows (an OpenCL device's) and
 * set *done: the statistics then stay where that copy is and are never
 * read back; they come to the host only when there are several chunks or
 * processes. */

/* A chunk's statistics, added into @stats (see LatentPassFuncs). */
typedef gboolean (*LatentAccumulateFunc) (gpointer           state,
                                          const LatentChunk *chunk,
                                          double            *stats,
                                          GCancellable      *cancellable,
                                          GError           **error);

/* A per-row array a pass writes: @data holds @row_bytes for each row. */
typedef struct {
  gpointer data;
  gsize    row_bytes;
} LatentRowState;

#define LATENT_ROW_STATE_MAX 4

typedef struct {
  /* The length of the next pass's @stats. */
  gsize           (*n_stats)    (gpointer           state);
  gboolean        (*begin)      (gpointer           state,
                                 LatentRows        *rows,
                                 gboolean          *done,
                                 GCancellable      *cancellable,
                                 GError           **error);
  LatentAccumulateFunc accumulate;
  gboolean        (*finish)     (gpointer           state,
                                 const double      *stats,
                                 gboolean          *again,
                                 GCancellable      *cancellable,
                                 GError           **error);
  /* Optional: the per-row arrays the pass writes, at most
   * LATENT_ROW_STATE_MAX, into @arrays; returns how many. @watched: the
   * run's frames are watched (latent_algorithm_set_rows_watched), so
   * every pass's are wanted, not only those the result needs. */
  guint           (*row_state)  (gpointer           state,
                                 gboolean           watched,
                                 LatentRowState    *arrays);
} LatentPassFuncs;

struct _LatentAlgorithm
{
  const char            *id;          /* "kmeans", as typed on the command line */
  const char            *title;       /* translatable: "k-means", "probabilistic PCA" */
  const char            *short_title; /* translatable, for figure titles: "GMM" */
  const char            *objective_name; /* translatable: what the history records */
  /* Optional: the name of what the history records under @params, where
   * it is not objective_name (logistic regression's L-BFGS records the
   * training loss, not a mini-batch's); marked with N_(), NULL for the
   * default. Read through latent_algorithm_objective_name (). */
  const char           *(*objective_name_for) (LatentParams *params);
  LatentFamily           family;      /* which part of a snapshot its results fill */
  LatentAlgorithmFlags   flags;
  /* The figures it offers, by the names latent-cli --figure takes, in the
   * order a person is offered them; NULL-terminated. */
  const char * const    *figures;
  /* Linear models: one component as figures name it, %u counting from 1
   * (translatable: "PC %u", "W %u", "Factor %u"); NULL for others. */
  const char            *component_name;
  const LatentParamSpec *params;
  guint                  n_params;
  /* The iterations a second the window shows by default: a pace to watch
   * where each iteration is something to see and a run takes tens (an EM
   * step moves every ellipse); 0 where a run takes thousands that each
   * change little (mini-batches): then it goes as fast as the work, and
   * the view shows the newest state once a display frame. */
  double                 pace;
  /* Optional, translatable: the pace's unit where an iteration is not
   * called one, marked with N_() ("epochs/s"); NULL: "iterations/s". */
  const char            *pace_unit;

  /* Optional: whether @params fit @dataset (k ≤ rows, components ≤
   * columns…); the error names the parameter. init calls it too, so the
   * window can say so before a run. */
  gboolean        (*check)     (LatentDataset  *dataset,
                                LatentParams   *params,
                                GError        **error);
  /* Optional, with check: the largest value of the integer parameter
   * @spec (one of @params') that check takes for @dataset, the other
   * values as in @params, stated in closed form (k ≤ rows) so that the
   * window's spin buttons cost no check; G_MAXINT64 where check puts no
   * upper bound on it. Where check refuses @params whatever this value,
   * any answer will do. tests/unit/test-bounds.c holds it to the check. */
  gint64          (*max_int)   (LatentDataset         *dataset,
                                LatentParams          *params,
                                const LatentParamSpec *spec);
  /* cl is NULL for the C reference path. An initialisation that can take
   * seconds (k-means++ over many clusters, restarts) checks cancellable
   * and fails with G_IO_ERROR_CANCELLED. */
  gpointer        (*init)      (LatentDataset  *dataset,
                                LatentParams   *params,
                                guint64         seed,
                                LatentCl       *cl,
                                GCancellable   *cancellable,
                                GError        **error);
  /* One iteration. Checks cancellable between kernel launches. The state
   * may stay on the device: a step reads back only what the objective and
   * converged need (a few scalars or partial sums), never what only a
   * snapshot shows (images, labels, means), since the worker takes a
   * snapshot at most once a frame and latent_algorithm_fit only at the
   * end. NULL for an algorithm that follows the pass contract: the
   * engine then steps it through pass (latent_algorithm_step). */
  gboolean        (*step)      (gpointer        state,
                                GCancellable   *cancellable,
                                GError        **error);
  /* The pass contract (above), or NULL: step is then the iteration. */
  const LatentPassFuncs *pass;
  /* The state as it is now, complete: where the step left it on the
   * device, this is where it is read back. */
  LatentSnapshot *(*snapshot)  (gpointer        state);
  /* The scalar the history records every iteration (k-means: inertia),
   * kept by the step: called after every one, it must cost nothing. */
  double          (*objective) (gpointer        state);
  /* TRUE when no further iteration will change anything, or the iteration
   * budget is spent. */
  gboolean        (*converged) (gpointer        state);
  void            (*free)      (gpointer        state);
  /* Optional: the iterations in one unit of pace, when it is not one (a
   * mini-batch learner paced in epochs: its steps per epoch), so that a
   * pace means as much on 1,000 rows as on 60,000. */
  guint           (*pace_steps) (gpointer       state);

  /* Adds the result's own members to the open result object of
   * latent_result_to_json (the common ones are written already). */
  void            (*write_json) (LatentSnapshot *snapshot,
                                 JsonBuilder    *builder);
  /* Optional: writes into @params what the run of @snapshot chose where a
   * value asks to be chosen for it (GMM's covariance=auto), so that they
   * say what it ran with: a sweep's fits then all run with it. */
  void            (*resolve_params)   (LatentSnapshot *snapshot,
                                       LatentParams   *params);
  /* Optional: what `latent-cli tune` times for its OpenCL program, beside
   * its kernels' host code (its -cl.c). */
  const LatentTuneJob *tune_job;
  /* Optional, for latent-cli --csv: the columns after "row" (",z1,z2"),
   * then each row's values (",0.5,1.25"). NULL: no value per row. */
  void            (*write_csv_header) (LatentSnapshot *snapshot,
                                       GString        *out);
  void            (*write_csv_row)    (LatentSnapshot *snapshot,
                                       guint           row,
                                       GString        *out);
  /* Optional, for LATENT_ALGORITHM_ENCODER: the features of every row of
   * @dataset under the model of @snapshot (one of its own), as a dataset
   * with @dataset's labels; an error when the columns do not fit. */
  LatentDataset  *(*encode)           (LatentSnapshot *snapshot,
                                       LatentDataset  *dataset,
                                       GError        **error);
  /* With encode: fills a snapshot without a dataset with what encode
   * needs, from the algorithm's own result JSON (its write_json members);
   * the error names @path and the member. */
  gboolean        (*read_model)       (LatentSnapshot *snapshot,
                                       JsonObject     *result,
                                       const char     *path,
                                       GError        **error);
};

static inline gboolean
latent_algorithm_has_flag (const LatentAlgorithm *algorithm,
                           LatentAlgorithmFlags   flag)
{
  return (algorithm->flags & flag) != 0;
}

LatentParams *latent_algorithm_new_params (const LatentAlgorithm  *algorithm);
/* The family of the algorithm that made @snapshot. */
LatentFamily  latent_snapshot_get_family  (LatentSnapshot         *snapshot);
/* The algorithm's check, when it has one. */
gboolean      latent_algorithm_check      (const LatentAlgorithm  *algorithm,
                                           LatentDataset          *dataset,
                                           LatentParams           *params,
                                           GError                **error);
/* The largest value of the integer parameter @name that the check takes
 * for @dataset, the other values as in @params (k up to the rows); its
 * spec's maximum where the check puts no bound on it. For spin buttons.
 * The algorithm's max_int when it has one (no check called); otherwise a
 * search that asks the check. */
gint64        latent_algorithm_max_int    (const LatentAlgorithm  *algorithm,
                                           LatentDataset          *dataset,
                                           LatentParams           *params,
                                           const char             *name);
/* The same, from the bound found last time (@guess, or -1 for none): for
 * an algorithm without max_int, two checks when it still holds, where a
 * search takes about twenty. */
gint64        latent_algorithm_max_int_from (const LatentAlgorithm *algorithm,
                                           LatentDataset          *dataset,
                                           LatentParams           *params,
                                           const char             *name,
                                           gint64                  guess);
/* Whether @bytes (a size computed from the data and parameters, in double
 * so that it cannot overflow) fit in three quarters of this machine's
 * memory; if not, an error (PARAMETER) says how much @what needs. */
gboolean      latent_algorithm_check_memory (double                 bytes,
                                           const char             *what,
                                           GError                **error);
/* The most bytes latent_algorithm_check_memory takes: three quarters of
 * this machine's memory. */
double        latent_algorithm_memory_budget (void);
/* A max_int for a check that puts an upper bound on no integer parameter:
 * G_MAXINT64 for all. */
gint64        latent_algorithm_no_max_int (LatentDataset          *dataset,
                                           LatentParams           *params,
                                           const LatentParamSpec  *spec);
/* N × SIZE bytes, zeroed, for WHAT: an overflowing size and one above the
 * budget of latent_algorithm_check_memory are refused before allocating,
 * and an allocation that fails is an error, not an abort. Free with g_free. */
gpointer      latent_algorithm_alloc      (guint64                n,
                                           gsize                  size,
                                           const char             *what,
                                           GError                **error);
/* The name of the algorithm's parameter whose role is @role, or NULL: the
 * sweep's (LATENT_PARAM_ROLE_SWEEP) is NULL when the algorithm has no score
 * to compare across runs. */
const char   *latent_algorithm_param_with_role (const LatentAlgorithm *algorithm,
                                                LatentParamRole        role);
/* The same parameter's spec (its unit, its bounds), or NULL. */
const LatentParamSpec *latent_algorithm_spec_with_role (const LatentAlgorithm *algorithm,
                                                        LatentParamRole        role);
/* Whether the algorithm offers the figure called @name. */
gboolean      latent_algorithm_offers_figure (const LatentAlgorithm *algorithm,
                                           const char             *name);

/* One iteration of @state: its step, or for an algorithm of the pass
 * contract, begin, accumulate over every chunk of @rows (the rows of the
 * dataset the state was initialised on; NULL for an algorithm without
 * pass) and finish. Checks cancellable between chunks. */
gboolean      latent_algorithm_step       (const LatentAlgorithm  *algorithm,
                                           gpointer                state,
                                           LatentRows             *rows,
                                           GCancellable           *cancellable,
                                           GError                **error);

/* One pass over the rows: zeroes @stats (@n_stats doubles), then adds
 * every chunk of @rows to them through @accumulate. The only loop over
 * chunks, so the only place where statistics will be summed across MPI
 * processes: latent_algorithm_step's, and the passes an init makes (the
 * linear models' moments, the prototypes' class means). */
gboolean      latent_algorithm_pass_over  (LatentRows             *rows,
                                           LatentAccumulateFunc    accumulate,
                                           gpointer                state,
                                           double                 *stats,
                                           gsize                   n_stats,
                                           GCancellable           *cancellable,
                                           GError                **error);

/* The rows a run passes over: every row of @dataset, in the default
 * chunks; in a job of several MPI ranks, this rank's share of them
 * (latent_rows_new_for_share), whose passes are summed over the ranks. */
LatentRows   *latent_algorithm_new_rows   (LatentDataset          *dataset);

/* Called after every iteration of latent_algorithm_fit. */
typedef void (*LatentFitFunc) (const LatentIterationRecord *record,
                               gpointer                     user_data);

/* Called by latent_algorithm_fit_full with the frames of a recording:
 * @snapshot is borrowed (take a reference to keep it). */
typedef void (*LatentFitFrameFunc) (LatentSnapshot *snapshot,
                                    gpointer        user_data);

/* The frames latent_algorithm_fit_full's automatic spacing keeps at most. */
#define LATENT_FIT_MAX_FRAMES 120
/* latent_algorithm_fit_full's frames paced by the clock, not iterations. */
#define LATENT_FIT_FRAMES_TIMED G_MAXUINT
#define LATENT_FIT_FRAME_INTERVAL_MS 100

/* A run to the end, without a worker: what a fit returns. */
typedef struct {
  LatentSnapshot *snapshot;   /* the final one */
  GArray         *history;    /* LatentIterationRecord, one per iteration */
  double          initial_objective;   /* of the start, before the first step */
  double          init_ms;
  double          total_ms;   /* initialisation included; a recording's snapshots
                               * and frames not */
  guint           frame_every; /* the spacing of the frames; 0 without them */
  guint           n_frames;    /* how many frames were given */
} LatentFit;

/* Makes the calling thread flush subnormal floats and doubles to zero (the
 * FTZ and DAZ modes of x86's SSE; nothing elsewhere), as every OpenCL
 * program does, and returns the mode it replaced. The reference paths'
 * results never depend on values below 1e-38, and on Intel cores each
 * subnormal operand costs a microcode assist: the autoencoder's optimiser
 * state, decaying for units that stopped winning, made its C path 1.6×
 * slower. */
guint         latent_algorithm_flush_denormals   (void);
void          latent_algorithm_restore_denormals (guint saved);

/* Initialises, steps until converged, and snapshots the end: the loop the
 * CLI, the sweep, the benchmarks and the tests share, subnormals flushed.
 * @progress may be NULL. */
LatentFit    *latent_algorithm_fit        (const LatentAlgorithm  *algorithm,
                                           LatentDataset          *dataset,
                                           LatentParams           *params,
                                           guint64                 seed,
                                           LatentCl               *cl,
                                           LatentFitFunc           progress,
                                           gpointer                user_data,
                                           GCancellable           *cancellable,
                                           GError                **error);
/* As latent_algorithm_fit (), also giving @frame the snapshots a
 * recording keeps: the start (iteration 0), every @frame_every-th
 * iteration, and the end, each once, chosen by iteration number only, so
 * the same run gives the same frames. @frame_every 0 chooses it from the
 * iteration budget (latent_algorithm_frame_every ());
 * LATENT_FIT_FRAMES_TIMED paces them by the clock instead, as a window's
 * live view is paced: one LATENT_FIT_FRAME_INTERVAL_MS after the last at
 * the soonest, and later when the frames would take more than a tenth of
 * the run (a followed run's frames are written to a file). The time taking
 * the frames' snapshots and in @frame is left out of the fit's timings
 * (an encoder's threads running beside the steps still slow them).
 * @frame may be NULL. */
LatentFit    *latent_algorithm_fit_full   (const LatentAlgorithm  *algorithm,
                                           LatentDataset          *dataset,
                                           LatentParams           *params,
                                           guint64                 seed,
                                           LatentCl               *cl,
                                           LatentFitFunc           progress,
                                           LatentFitFrameFunc      frame,
                                           guint                   frame_every,
                                           gpointer                user_data,
                                           GCancellable           *cancellable,
                                           GError                **error);
/* The spacing that keeps a run from @start (its iteration 0) to about
 * @max_frames frames: its budget in iterations (an epoch counts its
 * mini-batches) over @max_frames − 2, at least 1. */
guint         latent_algorithm_frame_every (LatentSnapshot        *start,
                                            guint                  max_frames);
void          latent_fit_free             (LatentFit              *fit);
/* Builds (or loads from the disk cache) the OpenCL programs a run of
 * @algorithm on @dataset with @params asks for, by initialising it on the
 * first rows and freeing it: what a window does in the background so that
 * the first run does not wait for the compiler. Thread-safe. @cancellable
 * (may be NULL) goes to the init and is the thread's current one while it
 * runs, so that no new program build starts once it is cancelled; a build
 * under way is not interrupted (OpenCL cannot). */
gboolean      latent_algorithm_prepare    (const LatentAlgorithm  *algorithm,
                                           LatentDataset          *dataset,
                                           LatentParams           *params,
                                           LatentCl               *cl,
                                           GCancellable           *cancellable,
                                           GError                **error);
/* TRUE on a thread while latent_algorithm_prepare initialises: an init
 * may then leave out device work that only a run needs (timing). */
gboolean      latent_algorithm_is_preparing (void);

/* How far an initialisation of several rounds has come, for a person
 * waiting on it: init code reports its rounds, and the thread that runs
 * the init may ask to hear of them (the run's worker does). While held
 * (holds nest; each TRUE is undone by a FALSE), inner rounds are not
 * reported: a restart's own k-means++ would hide which restart it is. All
 * per thread. */
typedef enum {
  LATENT_INIT_STARTS,    /* restarts, each a whole fit */
  LATENT_INIT_CENTERS,   /* k-means++ centers */
  LATENT_INIT_METHODS,   /* implementations raced (the first pass of each compiles it) */
} LatentInitStage;

typedef void (*LatentInitProgressFunc) (LatentInitStage stage,
                                        guint           done,
                                        guint           total,
                                        gpointer        user_data);

/* Under MPI, whether rank 0's frames are watched while the run goes
 * (latent-cli run --follow): every pass then shares what it wrote per row
 * (LatentPassFuncs.row_state), so a frame shows every rank's rows as
 * they are, not as the start left them. Set alike on every rank, before
 * the run. */
void          latent_algorithm_set_rows_watched   (gboolean               watched);
void          latent_algorithm_set_init_progress  (LatentInitProgressFunc func,
                                                   gpointer               user_data);
void          latent_algorithm_init_progress      (LatentInitStage        stage,
                                                   guint                  done,
                                                   guint                  total);
void          latent_algorithm_hold_init_progress (gboolean               hold);
/* A round for a person, translated: "start 3 of 30", "center 40 of 100",
 * "method 2 of 4". */
char         *latent_algorithm_describe_init_progress (LatentInitStage stage,
                                                       guint           done,
                                                       guint           total);
/* How a run that ended by itself ended, translated, from its last
 * snapshot: "converged", "finished 10 epochs" (a learner that trained all
 * it was asked to), "done" (a filter's passes), "iteration limit reached"
 * (an iterative fit stopped short of converging). */
char         *latent_algorithm_describe_end (LatentSnapshot        *last);
/* The objective's name without what a parenthesis explains, translated:
 * "mini-batch loss" for "mini-batch loss (½‖x̂ − x‖² per row)"; for a
 * status line. */
char         *latent_algorithm_dup_objective_brief (const LatentAlgorithm *algorithm,
                                                   LatentParams          *params);
/* What the history records under @params (may be NULL), translated. */
const char   *latent_algorithm_objective_name     (const LatentAlgorithm *algorithm,
                                                   LatentParams          *params);

/* The features of every row of @dataset under the encoder @snapshot (its
 * algorithm's encode), linked to @dataset as their origin so the rows can
 * still be shown as images; the error names what does not fit. */
LatentDataset *latent_algorithm_encode (LatentSnapshot *snapshot,
                                        LatentDataset  *dataset,
                                        GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentFit, latent_fit_free)

G_END_DECLS
