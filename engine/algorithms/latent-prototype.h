/* latent-prototype.h — the nearest-prototype classifier (nearest class
 * mean) with few-shot N-way K-shot episodes, OpenCL and C reference paths
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

const LatentAlgorithm *latent_prototype_get_algorithm (void);

G_END_DECLS
