#ifndef ZAPPER_CDRM_SHIM_H
#define ZAPPER_CDRM_SHIM_H
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <sys/ioctl.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

// Macros Swift cannot import.
static inline uint32_t zapper_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }
static inline uint32_t zapper_drm_format_argb8888(void) { return DRM_FORMAT_ARGB8888; }
static inline uint32_t zapper_drm_format_nv12(void) { return DRM_FORMAT_NV12; }
static inline uint32_t zapper_drm_format_yuv420(void) { return DRM_FORMAT_YUV420; }

// Virtual terminals (ioctl is variadic; these fix its argument types).
static inline int zapper_vt_active(int fd) {
    struct vt_stat state;
    if (ioctl(fd, VT_GETSTATE, &state) < 0) return -1;
    return state.v_active;
}
static inline int zapper_kd_get_mode(int fd, int *mode) { return ioctl(fd, KDGETMODE, mode); }
static inline int zapper_kd_set_mode(int fd, int mode) { return ioctl(fd, KDSETMODE, (unsigned long)mode); }
static inline int zapper_kd_get_keyboard_mode(int fd, int *mode) { return ioctl(fd, KDGKBMODE, mode); }
static inline int zapper_kd_set_keyboard_mode(int fd, int mode) { return ioctl(fd, KDSKBMODE, (unsigned long)mode); }
static inline int zapper_vt_set_process_mode(int fd, int release_signal, int acquire_signal) {
    struct vt_mode mode = {0};
    mode.mode = VT_PROCESS;
    mode.relsig = (short)release_signal;
    mode.acqsig = (short)acquire_signal;
    return ioctl(fd, VT_SETMODE, &mode);
}
static inline int zapper_vt_set_auto_mode(int fd) {
    struct vt_mode mode = {0};
    mode.mode = VT_AUTO;
    return ioctl(fd, VT_SETMODE, &mode);
}
/// VT_RELDISP: 1 lets a switch away happen, VT_ACKACQ acknowledges a switch back.
static inline int zapper_vt_release_display(int fd) { return ioctl(fd, VT_RELDISP, 1); }
static inline int zapper_vt_acknowledge_acquire(int fd) { return ioctl(fd, VT_RELDISP, VT_ACKACQ); }

// Kernel uevents (display hotplug): a non-blocking NETLINK_KOBJECT_UEVENT socket on the
// kernel's multicast group 1, which needs no udevd. -1 with errno set on failure.
static inline int zapper_uevent_socket(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = 1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}
#endif
