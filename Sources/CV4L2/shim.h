// The V4L2 ioctls Swift cannot call directly: the request codes are function-like macros
// (_IOR/_IOWR) and ioctl(2) is variadic. Each wrapper returns ioctl's result (-1 with errno set).
#ifndef CV4L2_SHIM_H
#define CV4L2_SHIM_H

#include <sys/ioctl.h>
#include <linux/videodev2.h>

static inline int CV4L2_querycap(int fd, struct v4l2_capability *capability) {
    return ioctl(fd, VIDIOC_QUERYCAP, capability);
}

static inline int CV4L2_enum_fmt(int fd, struct v4l2_fmtdesc *format) {
    return ioctl(fd, VIDIOC_ENUM_FMT, format);
}

static inline int CV4L2_enum_framesizes(int fd, struct v4l2_frmsizeenum *size) {
    return ioctl(fd, VIDIOC_ENUM_FRAMESIZES, size);
}

static inline int CV4L2_enum_frameintervals(int fd, struct v4l2_frmivalenum *interval) {
    return ioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, interval);
}

#endif
