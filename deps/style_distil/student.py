"""The student network and the SSIM both training and evaluation measure (torch).

The student has the teacher's interface: `image` 1x3xHxW RGB in 0..1 (H, W multiples of 4) and
`style_weights` [26] (a one-hot or a mix), `stylized` 1x3xHxW in 0..1. Its shape is Johnson's and
Magenta's (strided convs, residual blocks, two resize-convs) but narrow and cheaper at full size:
see Student; residual blocks made of depthwise 3x3 + pointwise convs so that ~50 k weights carry
all 26 styles. Every convolution but the last is followed by conditional instance
normalisation (Dumoulin et al.): a plain instance norm, then a scale and a shift per channel that
are the style weights' mix of 26 learned rows, as in the teacher.
"""
import torch
import torch.nn.functional as F
from torch import nn

STYLES = 26


class CondNorm(nn.Module):
    """Instance norm with a per-style scale and shift mixed by `style_weights` [26] (or [N, 26])."""

    def __init__(self, channels: int):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(STYLES, channels))
        self.shift = nn.Parameter(torch.zeros(STYLES, channels))

    def forward(self, x, weights):
        weights = weights.reshape(-1, STYLES)
        scale = (weights @ self.scale)[:, :, None, None]
        shift = (weights @ self.shift)[:, :, None, None]
        return F.instance_norm(x, eps=1e-5) * scale + shift


class ConvNorm(nn.Module):
    """Reflect-padded conv (stride 1 or 2), conditional norm, optional ReLU."""

    def __init__(self, cin, cout, kernel, stride=1, relu=True, groups=1):
        super().__init__()
        self.pad = kernel // 2
        self.conv = nn.Conv2d(cin, cout, kernel, stride, groups=groups)
        self.norm = CondNorm(cout)
        self.relu = relu

    def forward(self, x, weights):
        x = self.norm(self.conv(F.pad(x, [self.pad] * 4, mode="reflect")), weights)
        return F.relu(x) if self.relu else x


class Separable(nn.Module):
    """Depthwise 3x3 then pointwise 1x1, conditional norm, optional ReLU."""

    def __init__(self, channels, relu):
        super().__init__()
        self.depthwise = nn.Conv2d(channels, channels, 3, groups=channels, bias=False)
        self.pointwise = ConvNorm(channels, channels, 1, relu=relu)

    def forward(self, x, weights):
        return self.pointwise(self.depthwise(F.pad(x, [1] * 4, mode="reflect")), weights)


class Residual(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.first = Separable(channels, relu=True)
        self.second = Separable(channels, relu=False)

    def forward(self, x, weights):
        return x + self.second(self.first(x, weights), weights)


class Student(nn.Module):
    """Encoder: conv 5x5 stride 2 (w), conv 3x3 stride 2 (2w), conv 3x3 (3w) at a quarter of the
    size, `blocks` separable residual blocks there. Decoder, narrow as the teacher's (its full-size
    layers are most of a network's cost): x2 + conv 3x3 (w) at half size, x2 + conv 3x3 (w/2) at
    full size, conv 5x5 to RGB. About a third of multistyle26's multiply-adds at width 16."""

    def __init__(self, width: int = 16, blocks: int = 4):
        super().__init__()
        w1, w2, w3, half = width, 2 * width, 3 * width, max(width // 2, 4)
        self.down = nn.ModuleList([ConvNorm(3, w1, 5, 2), ConvNorm(w1, w2, 3, 2), ConvNorm(w2, w3, 3)])
        self.blocks = nn.ModuleList([Residual(w3) for _ in range(blocks)])
        self.up = nn.ModuleList([ConvNorm(w3, w1, 3), ConvNorm(w1, half, 3)])
        self.out = nn.Conv2d(half, 3, 5)

    def forward(self, image, style_weights):
        x = image
        for layer in self.down:
            x = layer(x, style_weights)
        for block in self.blocks:
            x = block(x, style_weights)
        for layer in self.up:
            # Resize-conv (nearest x2 then conv) rather than a transposed conv: no checkerboard.
            x = layer(F.interpolate(x, scale_factor=2.0, mode="nearest"), style_weights)
        return torch.sigmoid(self.out(F.pad(x, [2] * 4, mode="reflect")))


def parameter_counts(model: nn.Module) -> tuple:
    """(convolution weights and biases, per-style norm rows) of `model`."""
    norm = sum(p.numel() for n, p in model.named_parameters() if n.endswith(("scale", "shift")))
    return sum(p.numel() for p in model.parameters()) - norm, norm


def luma(rgb):
    """BT.601 luma of N x 3 x H x W RGB in 0..1, as N x 1 x H x W."""
    r, g, b = rgb[:, 0:1], rgb[:, 1:2], rgb[:, 2:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def _gaussian(device):
    x = torch.arange(11, dtype=torch.float32, device=device) - 5
    g = torch.exp(-(x * x) / (2 * 1.5 ** 2))
    g = g / g.sum()
    return (g[:, None] * g[None, :])[None, None]


def ssim(a, b):
    """Mean SSIM (Wang et al.: 11x11 Gaussian, sigma 1.5, data range 1) of the luma of a and b, per
    picture: a tensor of N values. The figure the issue's goal (>= 0.85 against the teacher) is in."""
    a, b, k = luma(a), luma(b), _gaussian(a.device)
    mu_a, mu_b = F.conv2d(a, k), F.conv2d(b, k)
    var_a = F.conv2d(a * a, k) - mu_a ** 2
    var_b = F.conv2d(b * b, k) - mu_b ** 2
    cov = F.conv2d(a * b, k) - mu_a * mu_b
    c1, c2 = 0.01 ** 2, 0.03 ** 2
    value = ((2 * mu_a * mu_b + c1) * (2 * cov + c2)) / ((mu_a ** 2 + mu_b ** 2 + c1) * (var_a + var_b + c2))
    return value.mean(dim=(1, 2, 3))


def psnr(a, b):
    """PSNR in dB of RGB in 0..1, per picture."""
    mse = ((a - b) ** 2).mean(dim=(1, 2, 3)).clamp_min(1e-10)
    return 10 * torch.log10(1 / mse)
