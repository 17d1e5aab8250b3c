#!/usr/bin/python3
"""Distils multistyle26 (the teacher, 26 styles) into the small Student of student.py.

Never run by make. Run at nice 19 (the machine's 2 cores are shared):

    nice -n 19 /usr/bin/python3 deps/style_distil/train.py --steps 3000 --out /tmp/distil \
        --openvino-python DIR    # DIR: the openvino wheel unpacked (unzip it there)

Each step: `--fresh` new random crops (256² by default, from packaged pictures, see data.py) are
labelled by the teacher with a random style each and pushed into a pool of `--pool` pairs (oldest
out); a batch of `--batch` pairs is drawn from the pool. Loss: L1 to the teacher's picture, plus
`--ssim-weight` x (1 - luma SSIM), plus `--tv-weight` x total variation. Adam, learning rate
decayed by cosine to a tenth over `--steps`. Seeded: a run from scratch is repeatable (a resumed
one differs from an uninterrupted one only in which crops it draws after the resume).

Writes OUT/checkpoint.pt every `--checkpoint-minutes` and at the end (a rerun with the same OUT
resumes from it; `--init` starts a new run from another's weights), and appends a line every
`--log-every` steps to `--log` (deps/style_distil/train.log). `--until HH:MM` (UTC) stops early at that time, checkpointed.
"""
import argparse
import math
import os
import time
from pathlib import Path

import numpy as np
import torch
from PIL import Image

import data
import student

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--width", type=int, default=16, help="channels of the first conv (then 2x, 3x)")
    parser.add_argument("--blocks", type=int, default=4, help="residual blocks")
    parser.add_argument("--out", type=Path, required=True, help="folder for the checkpoint and the film frames")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--crop", type=int, default=256)
    parser.add_argument("--pool", type=int, default=256)
    parser.add_argument("--fresh", type=int, default=4, help="new teacher-labelled crops a step")
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--ssim-weight", type=float, default=0.5)
    parser.add_argument("--tv-weight", type=float, default=0.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--checkpoint-minutes", type=float, default=3)
    parser.add_argument("--log-every", type=int, default=25)
    parser.add_argument("--log", type=Path, default=HERE / "train.log")
    parser.add_argument("--init", type=Path, help="start from this checkpoint's weights (new optimizer and schedule)")
    parser.add_argument("--until", help="HH:MM UTC: stop (checkpointed) at that time")
    parser.add_argument("--openvino-python", type=Path, required=True, help="the openvino wheel, unpacked")
    parser.add_argument("--teacher", type=Path, default=REPO / ".build/openvino/models/multistyle26.onnx")
    return parser.parse_args()


class Pool:
    """Teacher-labelled (crop, style, target) triples, the oldest replaced first."""

    def __init__(self, args, teacher, rng):
        self.args, self.teacher, self.rng = args, teacher, rng
        self.pictures = [Image.open(p).convert("RGB") for p in data.training_files(args.out)]
        self.items, self.next = [], 0

    def add(self, count: int):
        for _ in range(count):
            picture = self.pictures[int(self.rng.integers(len(self.pictures)))]
            crop = data.random_crop(self.rng, picture, self.args.crop)
            style = int(self.rng.integers(data.STYLES))
            item = (crop, style, self.teacher(crop, data.one_hot(style)))
            if len(self.items) < self.args.pool:
                self.items.append(item)
            else:
                self.items[self.next] = item
                self.next = (self.next + 1) % self.args.pool

    def batch(self, size: int):
        chosen = [self.items[int(i)] for i in self.rng.integers(len(self.items), size=size)]
        images = torch.from_numpy(np.stack([c[0] for c in chosen]))
        weights = torch.from_numpy(np.stack([data.one_hot(c[1]) for c in chosen]))
        targets = torch.from_numpy(np.stack([c[2] for c in chosen]))
        return images, weights, targets


def loss_of(args, output, target):
    l1 = (output - target).abs().mean()
    similarity = student.ssim(output, target).mean()
    tv = (output[..., 1:, :] - output[..., :-1, :]).abs().mean() + (output[..., 1:] - output[..., :-1]).abs().mean()
    return l1 + args.ssim_weight * (1 - similarity) + args.tv_weight * tv, l1, similarity


def learning_rate(args, step):
    return args.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(step, args.steps) / args.steps)))


def save(path: Path, model, optimizer, step, rng, args):
    state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step,
             "rng": rng.bit_generator.state, "width": args.width, "blocks": args.blocks}
    torch.save(state, path.with_suffix(".tmp"))
    os.replace(path.with_suffix(".tmp"), path)


def log(args, text):
    line = f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} {text}"
    print(line, flush=True)
    with open(args.log, "a") as sink:
        sink.write(line + "\n")


def past(until) -> bool:
    if not until:
        return False
    now = time.strftime("%H:%M", time.gmtime())
    return now >= until


def main():
    args = arguments()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    model = student.Student(args.width, args.blocks)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    checkpoint, step = args.out / "checkpoint.pt", 0
    if checkpoint.exists():
        state = torch.load(checkpoint)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        step = state["step"]
        rng.bit_generator.state = state["rng"]
    elif args.init:
        model.load_state_dict(torch.load(args.init)["model"])
    teacher = data.Teacher(args.openvino_python, args.teacher, args.threads)
    pool = Pool(args, teacher, rng)
    weights, norms = student.parameter_counts(model)
    log(args, f"start step={step} init={args.init} steps={args.steps} width={args.width} blocks={args.blocks} params={weights}"
              f"+{norms} norm rows pictures={len(pool.pictures)} crop={args.crop} batch={args.batch} "
              f"pool={args.pool} fresh={args.fresh} lr={args.lr} ssim_w={args.ssim_weight} tv_w={args.tv_weight}")
    pool.add(max(args.batch * 4, args.fresh))
    saved, started, sums = time.time(), time.time(), np.zeros(3)
    while step < args.steps and not past(args.until):
        pool.add(args.fresh)
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(args, step)
        images, style_weights, targets = pool.batch(args.batch)
        loss, l1, similarity = loss_of(args, model(images, style_weights), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        sums += [loss.item(), l1.item(), similarity.item()]
        if step % args.log_every == 0:
            mean = sums / args.log_every
            log(args, f"step {step} loss {mean[0]:.4f} l1 {mean[1]:.4f} ssim {mean[2]:.4f} "
                      f"lr {learning_rate(args, step):.2e} s/step {(time.time() - started) / args.log_every:.2f} "
                      f"load {os.getloadavg()[0]:.1f}")
            sums[:], started = 0, time.time()
        if time.time() - saved > args.checkpoint_minutes * 60:
            save(checkpoint, model, optimizer, step, rng, args)
            saved = time.time()
    save(checkpoint, model, optimizer, step, rng, args)
    log(args, f"stop step={step}")


if __name__ == "__main__":
    main()
