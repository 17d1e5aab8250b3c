"""Measures on canvas pixels (height × width × 3 float arrays, 0…255) that tell the filters apart."""

from __future__ import annotations

import numpy as np


def luma(rgb: np.ndarray) -> np.ndarray:
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def warm_order_fraction(rgb: np.ndarray, tolerance: float = 4.0) -> float:
    """Share of pixels with R ≥ G ≥ B (within `tolerance`): every pixel after a full sepia."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return float(np.mean((r >= g - tolerance) & (g >= b - tolerance)))


def mean_channels(rgb: np.ndarray) -> tuple[float, float, float]:
    return tuple(float(v) for v in rgb.reshape(-1, 3).mean(axis=0))


def block_size(scale: float, height: int) -> int:
    """Pixellate's block in pixels: `scale` is in pixels of a 1080-line frame (rounded half up, at
    least 1; scale 1 is off)."""
    return 1 if scale <= 1 else max(1, int(scale * height / 1080 + 0.5))


def block_contrast(rgb: np.ndarray, block: int) -> float:
    """How blocky the picture is on a grid of `block` px from the top-left corner: the mean step
    between neighbours across block edges over the mean step inside blocks. About 1 for an
    ordinary picture, large after pixellate with that block size."""
    y = luma(rgb)
    horizontal = np.abs(np.diff(y, axis=1))  # between x and x + 1
    vertical = np.abs(np.diff(y, axis=0))
    edge_x = (np.arange(1, y.shape[1]) % block) == 0  # x + 1 starts a block
    edge_y = (np.arange(1, y.shape[0]) % block) == 0
    across = np.concatenate([horizontal[:, edge_x].ravel(), vertical[edge_y, :].ravel()])
    inside = np.concatenate([horizontal[:, ~edge_x].ravel(), vertical[~edge_y, :].ravel()])
    return float(across.mean() / max(inside.mean(), 0.05))


def estimated_block_size(rgb: np.ndarray, candidates=range(2, 101)) -> int:
    """The block size whose grid makes the picture blockiest."""
    scores = {size: block_contrast(rgb, size) for size in candidates if size * 2 <= min(rgb.shape[:2])}
    return max(scores, key=scores.get)


def flattened_fraction(before: np.ndarray, after: np.ndarray, tolerance: float = 3.0) -> float:
    """Of the horizontally neighbouring pixels that differed by more than 2 × `tolerance` in luma
    in `before` (the picture's texture), the share that differ by at most `tolerance` in `after`:
    about 0 for the same picture, high when flat cells replace the texture."""
    textured = np.abs(np.diff(luma(before), axis=1)) > 2 * tolerance
    flat = np.abs(np.diff(luma(after), axis=1)) <= tolerance
    return float(np.mean(flat[textured]))


def white_fraction(rgb: np.ndarray, limit: float = 235.0) -> float:
    """Share of nearly white pixels (pointillize's background)."""
    return float(np.mean(rgb.min(axis=2) > limit))


def near_black_fraction(rgb: np.ndarray, limit: float = 48.0) -> float:
    """Share of pixels that are nearly black (comic's ink)."""
    return float(np.mean(rgb.max(axis=2) < limit))


def dominant_tones(rgb: np.ndarray, bin_width: int = 8, share: float = 0.005) -> int:
    """How many luma bins (`bin_width` levels wide) hold at least `share` of the pixels: a few
    for comic's posterised tones, many for a picture with smooth gradients."""
    histogram, _ = np.histogram(luma(rgb), bins=256 // bin_width, range=(0, 256))
    return int(np.sum(histogram >= share * histogram.sum()))


def tone_concentration(rgb: np.ndarray, bin_width: int = 8, top: int = 6) -> float:
    """Share of pixels in the `top` fullest luma bins."""
    histogram, _ = np.histogram(luma(rgb), bins=256 // bin_width, range=(0, 256))
    return float(np.sort(histogram)[-top:].sum() / histogram.sum())


def posterized_fraction(rgb: np.ndarray, levels: int, tolerance: float = 10.0) -> float:
    """Share of pixels whose luma lies within `tolerance` of one of `levels` evenly spaced tones
    (0 … 255): most of the picture after comic with that many tones, a small part otherwise."""
    tones = np.array([index * 255 / (levels - 1) for index in range(levels)])
    distance = np.abs(luma(rgb)[..., None] - tones).min(axis=-1)
    return float(np.mean(distance <= tolerance))
