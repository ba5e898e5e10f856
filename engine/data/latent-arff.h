/* latent-arff.h — Weka's ARFF tables
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* An ARFF file (dense or sparse rows): numeric attributes are columns; the
 * class, a nominal attribute named "class" or else the last attribute when
 * it is nominal, gives the labels, its values the class names in declared
 * order; every other nominal attribute becomes one column per value
 * ("colour=red", 1 or 0). String and date attributes (names, identifiers,
 * times) are left out. A missing value (?) is refused naming the line and
 * the attribute, as is a value that is not one of a nominal's. */
LatentDataset *latent_arff_load       (const char  *path,
                                       GError     **error);
/* The same from @bytes, named @what in messages. */
LatentDataset *latent_arff_load_bytes (GBytes      *bytes,
                                       const char  *what,
                                       GError     **error);

G_END_DECLS
