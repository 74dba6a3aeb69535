#ifndef ZAPPER_CINPUT_SHIM_H
#define ZAPPER_CINPUT_SHIM_H
#include <libinput.h>
#include <libudev.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <linux/input-event-codes.h>
#include <sys/eventfd.h>  /* the input thread's wake-up fd */
#endif
