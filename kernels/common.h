/* common.h — OpenCL C helpers shared by every Latent program
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runtime (engine/cl/latent-cl.c) pastes this text in front of each
 * program's source, followed by `#line 1 "NAME.cl"` so build-log line numbers
 * match the .cl file; kernels never #include it. It is compiled with every
 * program, so keep it to macros. No `#pragma OPENCL EXTENSION` here: a program
 * that needs one (e.g. cl_khr_fp64) enables it itself.
 *
 * Every tunable is an #ifndef default, so build options (-D NAME=VALUE) win.
 */

/* Global pointers are `const float *LATENT_RESTRICT`; -D LATENT_RESTRICT=
 * switches the promise off when hunting a miscompile. */
#ifndef LATENT_RESTRICT
#define LATENT_RESTRICT restrict
#endif

/* Large finite float used as "no distance yet"; FLT_MAX would overflow when summed. */
#ifndef LATENT_FLT_BIG
#define LATENT_FLT_BIG 1.0e30f
#endif

/* Integer ceil(a / b) for sizes, e.g. work-items per group. */
#define LATENT_DIV_UP(a, b) (((a) + (b) - 1) / (b))

/* One optimiser step on one value (or a vector of them), with `adam`, `mu`,
 * `lr` and `eps` in the kernel's scope. Momentum (adam = 0): v = μ v − lr g,
 * p += v. Adam: v = β1 v + (1 − β1) g, s = β2 s + (1 − β2) g²,
 * p −= lr · v / (√s + eps), the bias corrections folded into lr and eps by
 * the host. Shared by the autoencoder and logistic regression. */
#define LATENT_OPTIMISER_STEP(p, v, s, g)                              \
  do {                                                                 \
    if (adam)                                                          \
      {                                                                \
        v = 0.9f * v + (1.0f - 0.9f) * (g);                            \
        s = 0.999f * s + (1.0f - 0.999f) * (g) * (g);                  \
        p -= lr * v / (sqrt (s) + eps);                                \
      }                                                                \
    else                                                               \
      {                                                                \
        v = mu * v - lr * (g);                                         \
        p += v;                                                        \
      }                                                                \
  } while (0)
