/* latent-data-table.h — the loaded rows in a table to look at, sortable
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "latent-session.h"

G_BEGIN_DECLS

#define LATENT_TYPE_DATA_TABLE (latent_data_table_get_type ())
G_DECLARE_FINAL_TYPE (LatentDataTable, latent_data_table, LATENT, DATA_TABLE, GtkWindow)

/* The most dataset columns the table shows; a label says when there are more. */
#define LATENT_DATA_TABLE_MAX_COLUMNS 64

/* A window transient for @parent over the rows of @dataset: the row number,
 * one column per dataset column (its value, %g) and the class when the
 * dataset has labels. Every column sorts by its header. */
/* The session's data, with the results of the snapshot it shows
 * (cluster, code, prediction) as they come. ::rows-selected (GtkBitset
 * *rows): the dataset rows a person selected. */
GtkWidget *latent_data_table_new         (GtkWindow       *parent,
                                          LatentSession   *session);
/* Selects @rows (dataset rows) and scrolls to the first. */
void       latent_data_table_select_rows (LatentDataTable *self,
                                          GtkBitset       *rows);

G_END_DECLS
