# SPDX-License-Identifier: Apache-2.0
"""Driver for the Python/JAX hamon (PyPI `hamon`) RBM/PCD training peer, run inside the venv.

Invoked by train_with_jax.py; not meant to be run by hand (but it can be):

    build/compare-venv-3.12.x/bin/python perf/compare/jax_train_driver.py \
        --data-dir shared/data/mnist --hidden 500 --batch 100 --chains 100 --sweeps 1 \
        --epochs 2 --lr 0.01 --out result.json

The model is an RBM written as the library's own `IsingEBM` (energy
E(s) = -beta (sum_i b_i s_i + sum_(i,j) J_ij s_i s_j), spins s = +-1, stored as bools,
True = +1, beta = 1): nodes = 787 visible `SpinNode`s then H hidden ones, edges = every
(visible v, hidden h) pair in the order v * H + h, so the library's `biases` are
(b_v..., c_h...) and its `weights` are W_vh flattened row-major. That is exactly the
parameterisation E = -(b.v + c.h + v^T W h) of the C++ side; no conversion beyond the
reshape is needed (no {0,1} <-> +-1 change: both use +-1 spins).

One update (the library's PCD path, as in its MNIST training test):

    spec = IsingTrainingSpec(ebm, [visible], [], [hidden], [visible, hidden],
                             SamplingSchedule(1, 1, 1),        # positive phase
                             SamplingSchedule(k, 1, 1))        # negative phase
    grad_w, grad_b, _, _, neg_state = estimate_kl_grad(
        key, spec, ebm.nodes, ebm.edges, [batch], [], hinton_init(..., (1, B)),
        neg_state, return_negative_state=True)
    params -= lr * (grad_w, grad_b)            # SGD (or Adam / momentum, hand-written)

A `SamplingSchedule(n_warmup, n_samples, steps_per_sample)` runs n_warmup full sweeps,
observes, then (n_samples - 1) x steps_per_sample more sweeps with an observation after
each group; so (k, 1, 1) = k sweeps then the moments of the final state, and the final
state is what `return_negative_state` hands back (the persistent chains). A sweep visits
the free blocks in list order: negative = visible then hidden (as the C++ sweep); positive
= the hidden block only (visible clamped to the minibatch), one heat-bath sample per row.

The whole update is one `eqx.filter_jit` function; an epoch is a Python loop over the
minibatches of a (per-epoch shuffled) training set, timed to `block_until_ready`.
Writes JSON: versions, per-epoch wall and CPU seconds (process_time: all threads; less
sensitive than wall time to other load on a shared machine), the 1-minute load average at
the end of each epoch, first-call seconds, and the trained parameters
to an .npz next to it (the parent computes free-energy accuracy in numpy).
"""

import argparse
import json
import os
import time

import numpy as np

DIGITS = (0, 3, 4)
N_PIX = 28 * 28


def load_split(data_dir, train_fraction_of_rows):
    """(train_x, train_y, held_x, held_y): pixels as bool (True = +1), labels 0..2."""
    tx, ty, hx, hy = [], [], [], []
    for li, d in enumerate(DIGITS):
        a = np.load(os.path.join(data_dir, f"digits_{d}.npy")).astype(bool)
        n_train = (a.shape[0] * 8) // 10  # first 80 % (rounded down) train
        tr = a[:n_train]
        tr = tr[: int(len(tr) * train_fraction_of_rows)]
        tx.append(tr)
        ty.append(np.full(len(tr), li))
        hx.append(a[n_train:])
        hy.append(np.full(a.shape[0] - n_train, li))
    return (np.concatenate(tx), np.concatenate(ty), np.concatenate(hx), np.concatenate(hy))


def with_labels(x, y):
    """787 visible bools: pixels then 3 label units one-hot (True = +1 for the label)."""
    lab = np.zeros((len(y), len(DIGITS)), dtype=bool)
    lab[np.arange(len(y)), y] = True
    return np.concatenate([x, lab], axis=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--hidden", type=int, default=500)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--chains", type=int, default=100)
    ap.add_argument("--sweeps", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--optimiser", choices=["sgd", "adam"], default="sgd")
    ap.add_argument("--momentum", type=float, default=0.0)
    ap.add_argument("--train-fraction-of-rows", type=float, default=1.0)
    ap.add_argument("--init-scale", type=float, default=0.01)
    ap.add_argument("--no-shuffle", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True, help="JSON path; parameters go next to it as .npz")
    a = ap.parse_args()

    import equinox as eqx
    import jax
    import jax.numpy as jnp
    import hamon
    from hamon import Block, SamplingSchedule, SpinNode
    from hamon.models.ising import IsingEBM, IsingTrainingSpec, estimate_kl_grad, hinton_init

    t0 = time.perf_counter()
    train_x, train_y, held_x, held_y = load_split(a.data_dir, a.train_fraction_of_rows)
    data = with_labels(train_x, train_y)  # (n, 787) bool
    n_vis = data.shape[1]
    H = a.hidden
    n_batches = len(data) // a.batch  # the last, short batch of an epoch is dropped
    if n_batches < 1:
        raise SystemExit(f"error: {len(data)} training rows < one batch of {a.batch}")

    rng = np.random.default_rng(a.seed)
    # initial parameters as the C++ trainer documents them: W ~ N(0, scale^2), visible
    # biases at the data's log-odds b = atanh(mean v) (mean clipped to +-0.998), c = 0
    mean_v = np.clip(2.0 * data.mean(axis=0) - 1.0, -0.998, 0.998)
    b0 = np.concatenate([np.arctanh(mean_v), np.zeros(H)]).astype(np.float32)
    w0 = (a.init_scale * rng.standard_normal(n_vis * H)).astype(np.float32)

    vis = [SpinNode() for _ in range(n_vis)]
    hid = [SpinNode() for _ in range(H)]
    nodes = vis + hid
    edges = [(vis[i], hid[j]) for i in range(n_vis) for j in range(H)]  # edge v*H + h
    vis_block, hid_block = Block(vis), Block(hid)
    ebm0 = IsingEBM(nodes, edges, jnp.asarray(b0), jnp.asarray(w0), jnp.array(1.0, jnp.float32))
    data_blocks = [vis_block]
    pos_blocks = [hid_block]             # positive phase: hidden | clamped visible
    neg_blocks = [vis_block, hid_block]  # negative sweep: visible, then hidden (as C++)
    sched_pos = SamplingSchedule(1, 1, 1)
    sched_neg = SamplingSchedule(a.sweeps, 1, 1)
    t_build = time.perf_counter() - t0

    lr, mom = a.lr, a.momentum
    b1, b2, eps = 0.9, 0.999, 1e-8

    def opt_init(params):
        z = jax.tree.map(jnp.zeros_like, params)
        return (z, z, jnp.array(0, jnp.int32))

    @eqx.filter_jit
    def step(params, opt_state, neg_state, key, batch):
        model = eqx.tree_at(lambda m: (m.weights, m.biases), ebm0, params)
        spec = IsingTrainingSpec(model, data_blocks, [], pos_blocks, neg_blocks,
                                 sched_pos, sched_neg)
        k_train, k_pos = jax.random.split(key)
        init_pos = hinton_init(k_pos, model, pos_blocks, (1, batch.shape[0]))
        grad_w, grad_b, _, _, neg_state = estimate_kl_grad(
            k_train, spec, model.nodes, model.edges, [batch], [], init_pos, neg_state,
            return_negative_state=True, device=None)
        grads = (grad_w, grad_b)  # d KL / d theta = -(<.>_data - <.>_model)
        m1, m2, t = opt_state
        t = t + 1
        if a.optimiser == "sgd":
            m1 = jax.tree.map(lambda m, g: mom * m + g, m1, grads)
            params = jax.tree.map(lambda p, m: p - lr * m, params, m1)
        else:
            m1 = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m1, grads)
            m2 = jax.tree.map(lambda m, g: b2 * m + (1 - b2) * g * g, m2, grads)
            c1, c2 = 1 - b1 ** t, 1 - b2 ** t
            params = jax.tree.map(lambda p, m, v: p - lr * (m / c1) / (jnp.sqrt(v / c2) + eps),
                                  params, m1, m2)
        return params, (m1, m2, t), neg_state

    key = jax.random.PRNGKey(a.seed)
    key, k_neg = jax.random.split(key)
    # persistent negative chains, uniformly random as in the C++ trainer
    kv, kh = jax.random.split(k_neg)
    neg_state = [jax.random.bernoulli(kv, 0.5, (a.chains, n_vis)),
                 jax.random.bernoulli(kh, 0.5, (a.chains, H))]
    params = (ebm0.weights, ebm0.biases)
    opt_state = opt_init(params)

    epoch_s, epoch_cpu_s, epoch_load, first_call_s = [], [], [], None
    for ep in range(a.epochs):
        order = np.arange(len(data)) if a.no_shuffle else rng.permutation(len(data))
        batches = jnp.asarray(data[order[: n_batches * a.batch]].reshape(n_batches, a.batch, n_vis))
        jax.block_until_ready(batches)
        keys = jax.random.split(jax.random.fold_in(key, ep), n_batches)
        t, c = time.perf_counter(), time.process_time()
        for i in range(n_batches):
            params, opt_state, neg_state = step(params, opt_state, neg_state, keys[i], batches[i])
            if first_call_s is None:
                jax.block_until_ready(params)
                first_call_s = time.perf_counter() - t
        jax.block_until_ready((params, neg_state))
        epoch_s.append(time.perf_counter() - t)
        epoch_cpu_s.append(time.process_time() - c)  # CPU s of all this process's threads
        epoch_load.append(os.getloadavg()[0])
        print(f"epoch {ep + 1}: {epoch_s[-1]:.3f} s wall, {epoch_cpu_s[-1]:.3f} s CPU "
              f"({n_batches} updates, load {epoch_load[-1]:.2f})", flush=True)

    w, bias = (np.asarray(x, dtype=np.float64) for x in params)
    np.savez(a.out.rsplit(".", 1)[0] + "_params.npz",
             W=w.reshape(n_vis, H), b=bias[:n_vis], c=bias[n_vis:],
             held_x=held_x, held_y=held_y, train_x=train_x, train_y=train_y,
             neg_v=np.asarray(neg_state[0]))
    res = {
        "hamon_version": hamon.__version__,
        "jax_version": jax.__version__,
        "jaxlib_version": __import__("jaxlib").__version__,
        "equinox_version": eqx.__version__ if hasattr(eqx, "__version__") else "?",
        "jax_devices": [str(d) for d in jax.devices()],
        "n_train_rows": int(len(data)), "n_held_rows": int(len(held_x)),
        "n_batches": n_batches, "n_visible": n_vis, "n_hidden": H,
        "n_edges": len(edges), "build_s": t_build,
        "first_call_s": first_call_s, "epoch_s": epoch_s, "epoch_cpu_s": epoch_cpu_s,
        "epoch_load1": epoch_load,
    }
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
