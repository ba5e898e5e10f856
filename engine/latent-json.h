/* latent-json.h — numbers into JSON that every reader accepts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* json_builder_add_double_value(), but json-glib 1.6 writes a double whose
 * shortest form has an exponent and no point (1e-10) as "1e-10.0", which is
 * not JSON. Such a value is written as its neighbour one unit in the last
 * place away, whose shortest form has a point: the same number to 16
 * digits. Non-finite values become null. */
void latent_json_add_double (JsonBuilder *builder,
                             double       value);

G_END_DECLS
