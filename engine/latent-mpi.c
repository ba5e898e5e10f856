/* latent-mpi.c — one run over several processes, with Open MPI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-mpi"

#include "latent-mpi.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <limits.h>

#ifdef LATENT_HAVE_MPI
#include <mpi.h>
#endif

static guint rank, size = 1, local_rank;
static gboolean joined;

gboolean
latent_mpi_available (void)
{
#ifdef LATENT_HAVE_MPI
  return TRUE;
#else
  return FALSE;
#endif
}

void
latent_mpi_init (int    *argc,
                 char ***argv)
{
#ifdef LATENT_HAVE_MPI
  int r = 0, s = 1;

  /* Alone, no MPI: its singleton start costs time and may warn. */
  if (g_getenv ("OMPI_COMM_WORLD_SIZE") == NULL && g_getenv ("PMIX_RANK") == NULL && g_getenv ("PMI_RANK") == NULL)
    return;
  if (MPI_Init (argc, argv) != MPI_SUCCESS)
    return;
  joined = TRUE;
  /* Failures come back as codes, so a rank can say what failed. */
  MPI_Comm_set_errhandler (MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank (MPI_COMM_WORLD, &r);
  MPI_Comm_size (MPI_COMM_WORLD, &s);
  rank = r;
  size = s;
  /* The ranks that share this machine, numbered from 0. */
  {
    MPI_Comm node;
    int l = 0;

    if (MPI_Comm_split_type (MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r, MPI_INFO_NULL, &node) == MPI_SUCCESS)
      {
        MPI_Comm_rank (node, &l);
        MPI_Comm_free (&node);
      }
    local_rank = l;
  }
#endif
}

guint
latent_mpi_local_rank (void)
{
  return local_rank;
}

void
latent_mpi_finalize (void)
{
#ifdef LATENT_HAVE_MPI
  if (joined)
    MPI_Finalize ();
  joined = FALSE;
#endif
}

guint
latent_mpi_rank (void)
{
  return rank;
}

guint
latent_mpi_size (void)
{
  return size;
}

/* Rank @r's rows: the first n_rows % size ranks take one row more. */
static void
share_of (guint  r,
          guint  n_rows,
          guint *first,
          guint *count)
{
  const guint base = n_rows / size, extra = n_rows % size;

  *first = r * base + MIN (r, extra);
  *count = base + (r < extra);
}

void
latent_mpi_share (guint  n_rows,
                  guint *first,
                  guint *count)
{
  share_of (rank, n_rows, first, count);
}

#ifdef LATENT_HAVE_MPI
static gboolean
check (int          code,
       const char  *call,
       GError     **error)
{
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;

  if (code == MPI_SUCCESS)
    return TRUE;
  MPI_Error_string (code, text, &len);
  /* Translators: the MPI call, this process's rank, the job's ranks, MPI's reason */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s failed on rank %u of %u: %s"), call, rank, size, text);
  return FALSE;
}
#endif

#ifdef LATENT_HAVE_MPI
static gboolean
reduce (double       *values,
        gsize         n,
        MPI_Op        op,
        GError      **error)
{
  /* MPI counts in ints. */
  for (gsize done = 0; size > 1 && done < n; done += MIN (n - done, (gsize) INT_MAX))
    if (!check (MPI_Allreduce (MPI_IN_PLACE, values + done, (int) MIN (n - done, (gsize) INT_MAX), MPI_DOUBLE,
                               op, MPI_COMM_WORLD), "MPI_Allreduce", error))
      return FALSE;
  return TRUE;
}
#endif

gboolean
latent_mpi_sum (double  *values,
                gsize    n,
                GError **error)
{
#ifdef LATENT_HAVE_MPI
  return reduce (values, n, MPI_SUM, error);
#else
  return TRUE;
#endif
}

gboolean
latent_mpi_max (double  *values,
                gsize    n,
                GError **error)
{
#ifdef LATENT_HAVE_MPI
  return reduce (values, n, MPI_MAX, error);
#else
  return TRUE;
#endif
}

gboolean
latent_mpi_share_rows (gpointer   rows,
                       gsize      row_bytes,
                       guint      n_rows,
                       GError   **error)
{
#ifdef LATENT_HAVE_MPI
  g_autofree int *counts = NULL, *offsets = NULL;
  MPI_Datatype row;
  gboolean ok;

  if (size == 1)
    return TRUE;
  g_return_val_if_fail (row_bytes <= INT_MAX && n_rows <= INT_MAX, FALSE);
  counts = g_new (int, size);
  offsets = g_new (int, size);
  /* Every rank's share, as latent_mpi_share () gives it to that rank. */
  for (guint r = 0; r < size; r++)
    {
      guint first, count;

      share_of (r, n_rows, &first, &count);
      offsets[r] = first;
      counts[r] = count;
    }
  /* Counted in rows, so that no count passes an int. */
  MPI_Type_contiguous ((int) row_bytes, MPI_BYTE, &row);
  MPI_Type_commit (&row);
  ok = check (MPI_Allgatherv (MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rows, counts, offsets, row, MPI_COMM_WORLD),
              "MPI_Allgatherv", error);
  MPI_Type_free (&row);
  return ok;
#else
  return TRUE;
#endif
}

void
latent_mpi_abort (int         status,
                  const char *message)
{
#ifdef LATENT_HAVE_MPI
  if (size > 1)
    {
      /* Translators: this process's rank, the job's ranks, why it stopped the job */
      g_printerr (_("latent-cli: rank %u of %u: %s; stopping the job\n"), rank, size, message);
      MPI_Abort (MPI_COMM_WORLD, status);
    }
#endif
}
