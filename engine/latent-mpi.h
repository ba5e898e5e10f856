/* latent-mpi.h — one run over several processes, with Open MPI
 *
 * Started by mpirun (or srun), each process of a job is a rank: it reads
 * the same data, starts from the same seed, and makes its passes over its
 * own share of the rows, a contiguous range (latent_rows_new_for_share);
 * the statistics of each pass are summed over the ranks, so every rank
 * takes the same step and the job's answer is one process's, within the
 * order of float sums. Rank 0 speaks for the job. Built without MPI, or
 * started alone, there is one rank and every call is a no-op.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Joins the job when this process was started as one of its ranks (Open
 * MPI's or PMIx's environment says so), else does nothing; call once,
 * first thing in main. */
void      latent_mpi_init             (int          *argc,
                                       char       ***argv);
/* Leaves the job: after rank 0 has written its results. */
void      latent_mpi_finalize         (void);
guint     latent_mpi_rank             (void);
guint     latent_mpi_size             (void);
/* This rank's number among the ranks on its machine: rank r on a node
 * takes the node's OpenCL device r modulo their count
 * (latent_cl_set_device_offset), one GPU a rank. */
guint     latent_mpi_local_rank       (void);
/* Whether MPI was built in (the `mpi` build feature). */
gboolean  latent_mpi_available        (void);

/* This rank's share of @n_rows rows: @first and @count, the ranks' shares
 * in rank order, their sizes differing by at most one. */
void      latent_mpi_share            (guint         n_rows,
                                       guint        *first,
                                       guint        *count);
/* @values summed over the ranks, in place, on every rank. */
gboolean  latent_mpi_sum              (double       *values,
                                       gsize         n,
                                       GError      **error);
/* @values' greatest over the ranks, in place, on every rank. */
gboolean  latent_mpi_max              (double       *values,
                                       gsize         n,
                                       GError      **error);
/* A per-row array of @n_rows rows of @row_bytes each, of which each rank
 * filled its share: every rank's share copied to every rank. */
gboolean  latent_mpi_share_rows       (gpointer      rows,
                                       gsize         row_bytes,
                                       guint         n_rows,
                                       GError      **error);
/* Ends the whole job, after saying which rank stopped it and why (on
 * standard error); with one rank, returns. */
void      latent_mpi_abort            (int           status,
                                       const char   *message);

G_END_DECLS
