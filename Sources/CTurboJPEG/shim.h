// Re-exports the TurboJPEG macros Swift cannot import, as CTurboJPEG_-prefixed functions.
#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H

#include <turbojpeg.h>

/// `TJPAD(width)`: a row width padded to TurboJPEG's 4-byte alignment.
static inline int CTurboJPEG_TJPAD(int width) { return TJPAD(width); }

/// `TJSCALED(dimension, factor)`: a dimension scaled by a `tjscalingfactor`.
static inline int CTurboJPEG_TJSCALED(int dimension, tjscalingfactor factor) { return TJSCALED(dimension, factor); }

#endif
