# wta_numpy.py — Latent's winner-take-all autoencoder (wta) in NumPy, and in
# PyTorch when it imports: the peers' model, shared by
# tests/peers/test-peers-wta.py and tests/bench/bench-wta.py
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The math of one step on a mini-batch X (B × D, already scaled), as in
# engine/algorithms/latent-wta-private.h, with W (H × D), b (H), c (D) and
# the decoder Wd = W when tied:
#   Z = X Wᵀ + b,  A = ReLU(Z),  S = A ⊙ M,  X̂ = S Wd + c,
#   loss = ½ Σ‖X̂ − X‖² / B,  E = (X̂ − X) / B,
#   ∂Wd = Sᵀ E,  ∂c = Σ_rows E,  ∂Z = (E Wdᵀ) ⊙ [S > 0],  ∂b = Σ_rows ∂Z,
#   ∂W = ∂Zᵀ X (+ Sᵀ E when tied).
# M, the winners: lifetime — every unit (column of A) keeps its
# round(rate · B) largest activations across the batch; k-sparse — every row
# keeps its k largest; none — everything. Ties go to the lower index (a
# stable sort of −A), as latent_wta_select does.
# Optimisers, on every parameter at every step:
#   momentum  v = μ v − lr g;  p += v
#   Adam      v = 0.9 v + 0.1 g;  s = 0.999 s + 0.001 g²;
#             p −= lr √(1 − 0.999ᵗ) / (1 − 0.9ᵗ) · v / (√s + 1e-8 √(1 − 0.999ᵗ))
#
# WtaNumpy writes these formulas out in float32, the way Latent's C code
# does (the loss is summed in float64). WtaTorch is an independent peer: the
# same forward pass, its gradients from autograd (through the mask, which
# carries none) and its updates from torch.optim.SGD (momentum, dampening 0:
# v' = −lr · buf, the same recursion) and torch.optim.Adam (the same bias
# corrections), on the CPU in float32.
#
# Parameters, as a dict with latent-cli's names: sparsity ("lifetime",
# "k-sparse", "none"), rate, k, tied, optimizer ("momentum", "adam"),
# learning-rate, momentum, batch. The model's weights come in and go out as
# a dict: "weights" (H × D), "hidden_bias", "decoder_bias", and
# "decoder_weights" when untied — the members of latent-cli's JSON result,
# so one dict is both an init=@FILE.json and a result to compare.

import math

import numpy as np

DEFAULTS = {
    "sparsity": "lifetime",
    "rate": 0.05,
    "k": 25,
    "tied": True,
    "optimizer": "momentum",
    "learning-rate": 0.01,
    "momentum": 0.9,
    "batch": 100,
}

BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8


def full_params(params):
    out = dict(DEFAULTS)
    out.update(params or {})
    if out["sparsity"] not in ("lifetime", "k-sparse", "none"):
        raise ValueError(f"sparsity {out['sparsity']!r}")
    if out["optimizer"] not in ("momentum", "adam"):
        raise ValueError(f"optimizer {out['optimizer']!r}")
    return out


def winners(params, rows, hidden):
    """Winners per unit (lifetime) or per row (k-sparse) of a full batch:
    C's round(), half away from zero, not Python's half to even."""
    if params["sparsity"] == "lifetime":
        return int(math.floor(params["rate"] * rows + 0.5))
    if params["sparsity"] == "k-sparse":
        return int(params["k"])
    return hidden


def select(a, sparsity, k, exact=True, ties=None):
    """The winners of activations a (B × H) as a boolean mask. exact: ties
    to the lower index, as Latent; otherwise np.argpartition's choice among
    equals, which is faster and changes nothing but the ties — among
    positive activations they do not happen in practice, and among zeros
    the choice does not matter (S = A ⊙ M is 0 either way). ties, a list:
    the count of positive values tied across the last winner's place (where
    the tie rule decides) is appended to it (exact only)."""
    mask = np.zeros(a.shape, dtype=bool)
    rows, cols = a.shape
    if sparsity == "none" or k >= (rows if sparsity == "lifetime" else cols):
        mask[:] = True
    elif sparsity == "lifetime":
        # Column by column, largest first, the lower row first among equals.
        if exact:
            order = np.argsort(-a, axis=0, kind="stable")
            top = order[:k]
            if ties is not None:
                last, first_out = np.take_along_axis(a, order[k - 1:k + 1], axis=0)
                ties.append(int(np.sum((last == first_out) & (last > 0))))
        else:
            top = np.argpartition(a.T, rows - k, axis=1)[:, rows - k:].T
        mask[top, np.arange(cols)[None, :]] = True
    else:
        if exact:
            order = np.argsort(-a, axis=1, kind="stable")
            top = order[:, :k]
            if ties is not None:
                last, first_out = np.take_along_axis(a, order[:, k - 1:k + 1], axis=1).T
                ties.append(int(np.sum((last == first_out) & (last > 0))))
        else:
            top = np.argpartition(a, cols - k, axis=1)[:, cols - k:]
        mask[np.arange(rows)[:, None], top] = True
    return mask


def scale_rows(x, offset, scale):
    """x' = (x − offset) · scale per column, in float32 as Latent does."""
    return (np.asarray(x, np.float32) - np.asarray(offset, np.float32)) * np.asarray(scale, np.float32)


class WtaNumpy:
    """The model and the optimiser's state; step(xb) trains on one batch
    and returns the loss before the update."""

    def __init__(self, init, params, exact_ties=True):
        self.exact = exact_ties
        self.params = full_params(params)
        p = self.params
        self.tied = bool(p["tied"])
        self.w = np.array(init["weights"], np.float32)
        self.b = np.array(init["hidden_bias"], np.float32).reshape(-1)
        self.c = np.array(init["decoder_bias"], np.float32).reshape(-1)
        self.wd = None if self.tied else np.array(init["decoder_weights"], np.float32)
        self.hidden, self.d = self.w.shape
        self.adam = p["optimizer"] == "adam"
        self.t = 0
        self.lr = np.float32(p["learning-rate"])
        self.mu = np.float32(p["momentum"])
        names = ["w", "b", "c"] + ([] if self.tied else ["wd"])
        self.v = {n: np.zeros_like(getattr(self, n)) for n in names}
        self.s = {n: np.zeros_like(getattr(self, n)) for n in names} if self.adam else None
        self.wins = np.zeros(self.hidden, np.int64)
        self.ties = []

    def step(self, xb):
        xb = np.asarray(xb, np.float32)
        rows = xb.shape[0]
        k = winners(self.params, rows, self.hidden)
        wd = self.w if self.tied else self.wd

        a = xb @ self.w.T
        a += self.b
        np.maximum(a, 0, out=a)
        s = np.where(select(a, self.params["sparsity"], k, self.exact, self.ties), a, np.float32(0))
        xhat = s @ wd
        xhat += self.c
        diff = xhat - xb
        d64 = diff.astype(np.float64).ravel()
        loss = 0.5 * float(d64 @ d64) / rows

        e = diff / np.float32(rows)
        live = s > 0
        self.wins += live.sum(axis=0)
        dz = (e @ wd.T) * live
        grads = {"w": dz.T @ xb, "b": dz.sum(axis=0), "c": e.sum(axis=0)}
        if self.tied:
            grads["w"] += s.T @ e
        else:
            grads["wd"] = s.T @ e
        self.update(grads)
        return loss

    def update(self, grads):
        self.t += 1
        if self.adam:
            c1 = 1 - BETA1 ** self.t
            c2 = 1 - BETA2 ** self.t
            lr = np.float32(self.params["learning-rate"] * math.sqrt(c2) / c1)
            eps = np.float32(EPSILON * math.sqrt(c2))
            b1, b2 = np.float32(BETA1), np.float32(BETA2)
            for name, g in grads.items():
                v, s, p = self.v[name], self.s[name], getattr(self, name)
                v *= b1
                v += (np.float32(1) - b1) * g
                s *= b2
                s += (np.float32(1) - b2) * g * g
                p -= lr * v / (np.sqrt(s) + eps)
        else:
            for name, g in grads.items():
                v, p = self.v[name], getattr(self, name)
                v *= self.mu
                v -= self.lr * g
                p += v

    def result(self):
        out = {"weights": self.w, "hidden_bias": self.b, "decoder_bias": self.c}
        if not self.tied:
            out["decoder_weights"] = self.wd
        return out


def torch_available():
    try:
        import torch  # noqa: F401
    except Exception:
        return False
    return True


class WtaTorch:
    """The same model with PyTorch's autograd and optimisers (CPU, float32)."""

    def __init__(self, init, params, threads=None, exact_ties=True):
        import torch

        self.torch = torch
        self.exact = exact_ties
        if threads:
            torch.set_num_threads(threads)
        self.params = full_params(params)
        p = self.params
        self.tied = bool(p["tied"])

        def tensor(v):
            return torch.tensor(np.asarray(v, np.float32), dtype=torch.float32, requires_grad=True)

        self.w = tensor(init["weights"])
        self.b = tensor(np.asarray(init["hidden_bias"], np.float32).reshape(-1))
        self.c = tensor(np.asarray(init["decoder_bias"], np.float32).reshape(-1))
        self.wd = None if self.tied else tensor(init["decoder_weights"])
        self.hidden, self.d = self.w.shape
        tensors = [self.w, self.b, self.c] + ([] if self.tied else [self.wd])
        if p["optimizer"] == "adam":
            self.opt = torch.optim.Adam(tensors, lr=p["learning-rate"], betas=(BETA1, BETA2), eps=EPSILON)
        else:
            self.opt = torch.optim.SGD(tensors, lr=p["learning-rate"], momentum=p["momentum"])
        self.wins = torch.zeros(self.hidden, dtype=torch.int64)

    def mask(self, a, k):
        torch = self.torch
        sparsity = self.params["sparsity"]
        if sparsity == "none":
            return torch.ones_like(a)
        m = torch.zeros_like(a)
        dim = 0 if sparsity == "lifetime" else 1
        if k >= a.shape[dim]:
            return torch.ones_like(a)
        if self.exact:
            top = torch.sort(-a, dim=dim, stable=True).indices.narrow(dim, 0, k)
        else:
            top = torch.topk(a, k, dim=dim, sorted=False).indices
        m.scatter_(dim, top, 1.0)
        return m

    def step(self, xb):
        torch = self.torch
        if not isinstance(xb, torch.Tensor):
            xb = torch.from_numpy(np.ascontiguousarray(xb, np.float32))
        rows = xb.shape[0]
        k = winners(self.params, rows, self.hidden)
        wd = self.w if self.tied else self.wd

        a = torch.relu(xb @ self.w.T + self.b)
        with torch.no_grad():
            m = self.mask(a, k)
        s = a * m
        diff = s @ wd + self.c - xb
        loss = 0.5 * (diff * diff).sum() / rows
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        self.opt.step()
        with torch.no_grad():
            self.wins += (s > 0).sum(dim=0)
        return float(loss.detach())

    def result(self):
        out = {"weights": self.w.detach().numpy(), "hidden_bias": self.b.detach().numpy(),
               "decoder_bias": self.c.detach().numpy()}
        if not self.tied:
            out["decoder_weights"] = self.wd.detach().numpy()
        return out


def train(model, x, batches):
    """Run model.step on x[rows] for every index array in batches; the
    per-step losses."""
    return [model.step(x[rows]) for rows in batches]


def in_order(n, batch, steps=None):
    """Latent's batches with shuffle=false, validation=0: rows in file
    order, step i on rows i·B … i·B + B − 1, the rest of an epoch dropped."""
    per_epoch = n // batch
    steps = per_epoch if steps is None else steps
    return [np.arange((i % per_epoch) * batch, (i % per_epoch) * batch + batch) for i in range(steps)]


def random_init(rng, hidden, d, tied=True, sigma=0.01):
    """Weights N(0, σ²) and zero biases, as Latent's init=random (but from
    NumPy's generator), as the dict an init=@FILE.json holds."""
    out = {"weights": (sigma * rng.standard_normal((hidden, d))).astype(np.float32),
           "hidden_bias": np.zeros(hidden, np.float32), "decoder_bias": np.zeros(d, np.float32)}
    if not tied:
        out["decoder_weights"] = (sigma * rng.standard_normal((hidden, d))).astype(np.float32)
    return out


def to_json(model):
    """The dict for json.dump: nested lists, float32 values written so they
    read back as the same float32 (repr of a double holding it exactly)."""
    return {k: np.asarray(v, np.float32).astype(np.float64).tolist() for k, v in model.items()}
