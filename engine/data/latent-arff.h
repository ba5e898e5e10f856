/* latent-arff.h — Weka's ARFF tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-csv.h"
#include "latent-dataset.h"

G_BEGIN_DECLS

/* An ARFF file (dense or sparse rows): numeric attributes are columns; the
 * class, a nominal attribute named "class" or else the last attribute when
 * it is nominal, gives the labels, its values the class names in declared
 * order; every other nominal attribute becomes one column per value
 * ("colour=red", 1 or 0). String and date attributes (names, identifiers,
 * times) are left out. A value that is not one of a nominal's is refused
 * naming the line and the attribute.
 *
 * @options (may be NULL: the defaults) are a table's import choices:
 * label_column (an attribute's name or number from 1, nominal, or "none"),
 * ignore (attributes), missing (a missing value, ?, refused with
 * LATENT_DATA_ERROR_VALUE naming the line and attribute; its row dropped;
 * or filled with its column's mean: a nominal's columns with its values'
 * shares; a row whose class is missing is left out either way),
 * standardise (the numeric attributes) and report; text and delimiter
 * do not apply. */
LatentDataset *latent_arff_load       (const char              *path,
                                       const LatentCsvOptions  *options,
                                       GError                 **error);
/* The same from @bytes, named @what in messages. */
LatentDataset *latent_arff_load_bytes (GBytes                  *bytes,
                                       const char              *what,
                                       const LatentCsvOptions  *options,
                                       GError                 **error);

/* The attributes' names, then the first rows of @path as text (a sparse
 * row with its unlisted values filled in), at most @max_records records
 * in all: what an import dialog previews. */
GPtrArray     *latent_arff_preview    (const char              *path,
                                       guint                    max_records,
                                       GError                 **error);

G_END_DECLS
