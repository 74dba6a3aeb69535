#ifndef ZAPPER_CINPUT_SHIM_H
#define ZAPPER_CINPUT_SHIM_H
#include <libinput.h>
#include <libudev.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <linux/input-event-codes.h>
#include <sys/eventfd.h>  /* the input thread's wake-up fd */
#include <linux/cec.h>
#include <sys/ioctl.h>
#include <errno.h>
#include <string.h>

/* HDMI-CEC adapters (/dev/cecN): what the input thread needs, ioctls wrapped so Swift sees
 * plain fields. Each returns 0 or a negative errno. */
struct zapper_cec_state {
    char name[32];
    __u32 capabilities;
    __u16 phys_addr;
    __u16 log_addr_mask;
    __u8 num_log_addrs;
    __u32 flags;
};

static inline int zapper_cec_get_state(int fd, struct zapper_cec_state *state) {
    struct cec_caps caps;
    struct cec_log_addrs addrs;
    memset(state, 0, sizeof *state);
    memset(&caps, 0, sizeof caps);
    memset(&addrs, 0, sizeof addrs);
    if (ioctl(fd, CEC_ADAP_G_CAPS, &caps) < 0) return -errno;
    if (ioctl(fd, CEC_ADAP_G_PHYS_ADDR, &state->phys_addr) < 0) return -errno;
    if (ioctl(fd, CEC_ADAP_G_LOG_ADDRS, &addrs) < 0) return -errno;
    memcpy(state->name, caps.name, sizeof state->name);
    state->name[sizeof state->name - 1] = 0;
    state->capabilities = caps.capabilities;
    state->log_addr_mask = addrs.log_addr_mask;
    state->num_log_addrs = addrs.num_log_addrs;
    state->flags = addrs.flags;
    return 0;
}

/* Claims one playback logical address (CEC 2.0, no vendor ID) that lets the kernel pass the
 * TV remote's keys to the adapter's input device. On a non-blocking fd it returns at once and
 * the kernel claims in the background (a state-change event says when). */
static inline int zapper_cec_claim_playback(int fd, const char *osd_name) {
    struct cec_log_addrs addrs;
    memset(&addrs, 0, sizeof addrs);
    addrs.cec_version = CEC_OP_CEC_VERSION_2_0;
    addrs.vendor_id = CEC_VENDOR_ID_NONE;
    addrs.num_log_addrs = 1;
    addrs.log_addr_type[0] = CEC_LOG_ADDR_TYPE_PLAYBACK;
    addrs.primary_device_type[0] = CEC_OP_PRIM_DEVTYPE_PLAYBACK;
    addrs.all_device_types[0] = CEC_OP_ALL_DEVTYPE_PLAYBACK;
    addrs.flags = CEC_LOG_ADDRS_FL_ALLOW_RC_PASSTHRU;
    strncpy(addrs.osd_name, osd_name, sizeof addrs.osd_name - 1);
    return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &addrs) < 0 ? -errno : 0;
}

/* Sends one CEC message from the adapter's first logical address (or "unregistered") to `to`:
 * `opcode` and up to 14 bytes of operands. Non-blocking: queued, 0 or a negative errno. */
static inline int zapper_cec_transmit(int fd, __u8 to, __u8 opcode, const __u8 *operands, __u32 count) {
    struct cec_log_addrs addrs;
    memset(&addrs, 0, sizeof addrs);
    if (ioctl(fd, CEC_ADAP_G_LOG_ADDRS, &addrs) < 0) return -errno;
    __u8 from = addrs.num_log_addrs > 0 && addrs.log_addr[0] != CEC_LOG_ADDR_INVALID ? addrs.log_addr[0] : CEC_LOG_ADDR_UNREGISTERED;
    struct cec_msg msg;
    memset(&msg, 0, sizeof msg);
    if (count > 14) count = 14;
    msg.msg[0] = (__u8)((from << 4) | (to & 0xf));
    msg.msg[1] = opcode;
    memcpy(msg.msg + 2, operands, count);
    msg.len = 2 + count;
    return ioctl(fd, CEC_TRANSMIT, &msg) < 0 ? -errno : 0;
}

/* The adapter's physical address (0xffff: none), or a negative errno. */
static inline int zapper_cec_physical_address(int fd) {
    __u16 address = 0xffff;
    if (ioctl(fd, CEC_ADAP_G_PHYS_ADDR, &address) < 0) return -errno;
    return address;
}

/* The next state change waiting on the fd (1, with the new physical address and logical
 * address mask), none (0), or a negative errno. Other events are skipped. */
static inline int zapper_cec_next_state_change(int fd, __u16 *phys_addr, __u16 *log_addr_mask) {
    for (;;) {
        struct cec_event event;
        memset(&event, 0, sizeof event);
        if (ioctl(fd, CEC_DQEVENT, &event) < 0) return errno == EAGAIN ? 0 : -errno;
        if (event.event != CEC_EVENT_STATE_CHANGE) continue;
        *phys_addr = event.state_change.phys_addr;
        *log_addr_mask = event.state_change.log_addr_mask;
        return 1;
    }
}
#endif
