#!/usr/bin/python3
"""Test image only: a uinput device (python3-evdev) that does one thing once zapper has it open,
then goes away.

  uinput.py gamepad BUTTON [SECONDS]   presses BUTTON, e.g. BTN_TR (the default keymap: channel up)
  uinput.py swipe up,down [SECONDS]    a touchscreen: each swipe one finger over half the screen's
                                       height in about 0.15 s, 2 s apart

udev tags the new device (ID_INPUT_JOYSTICK, ID_INPUT_TOUCHSCREEN) and zapper's hotplug opens it,
which is slow under TCG: waits at most SECONDS (default 60) for that before acting.
"""
import glob
import os
import sys
import time
from evdev import AbsInfo, UInput, ecodes as e

kind, what = sys.argv[1], sys.argv[2]
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 60


def opened_by_zapper(device):
    for fd in glob.glob("/proc/[0-9]*/fd/*"):
        try:
            if os.readlink(fd) == device and open(f"/proc/{fd.split('/')[2]}/comm").read().strip() == "zapper":
                return True
        except OSError:
            pass
    return False


def gamepad():
    stick = AbsInfo(value=0, min=-32768, max=32767, fuzz=16, flat=128, resolution=0)
    capabilities = {
        e.EV_KEY: [e.BTN_SOUTH, e.BTN_EAST, e.BTN_NORTH, e.BTN_WEST, e.BTN_TL, e.BTN_TR, e.BTN_START, e.BTN_SELECT],
        e.EV_ABS: [(e.ABS_X, stick), (e.ABS_Y, stick),
                   (e.ABS_HAT0X, AbsInfo(0, -1, 1, 0, 0, 0)), (e.ABS_HAT0Y, AbsInfo(0, -1, 1, 0, 0, 0))],
    }
    return UInput(capabilities, name="Zapper test gamepad", vendor=0x045e, product=0x028e, version=0x110)


def touchscreen():
    x, y = AbsInfo(0, 0, 4095, 0, 0, 16), AbsInfo(0, 0, 4095, 0, 0, 28)  # about 256 x 146 mm
    capabilities = {
        e.EV_KEY: [e.BTN_TOUCH],
        e.EV_ABS: [(e.ABS_X, x), (e.ABS_Y, y), (e.ABS_MT_SLOT, AbsInfo(0, 0, 9, 0, 0, 0)),
                   (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
                   (e.ABS_MT_POSITION_X, x), (e.ABS_MT_POSITION_Y, y)],
    }
    return UInput(capabilities, name="Zapper test touchscreen", vendor=0x0eef, product=0x0001,
                  input_props=[e.INPUT_PROP_DIRECT])


def press(device):
    device.write(e.EV_KEY, e.ecodes[what], 1); device.syn()
    time.sleep(0.1)
    device.write(e.EV_KEY, e.ecodes[what], 0); device.syn()


def swipe(device):
    for n, direction in enumerate(what.split(",")):
        if n:
            time.sleep(2)
        swipe_once(device, direction)


def swipe_once(device, direction):
    start, end = (3480, 1300) if direction == "up" else (1300, 3480)
    steps = 6
    for step in range(steps + 1):
        y = start + (end - start) * step // steps
        if step == 0:
            device.write(e.EV_ABS, e.ABS_MT_SLOT, 0)
            device.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, 1)
            device.write(e.EV_KEY, e.BTN_TOUCH, 1)
            device.write(e.EV_ABS, e.ABS_MT_POSITION_X, 2048); device.write(e.EV_ABS, e.ABS_X, 2048)
        device.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y); device.write(e.EV_ABS, e.ABS_Y, y)
        device.syn()
        time.sleep(0.02)
    device.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
    device.write(e.EV_KEY, e.BTN_TOUCH, 0)
    device.syn()


make, act = {"gamepad": (gamepad, press), "swipe": (touchscreen, swipe)}[kind]
with make() as device:
    deadline = time.monotonic() + limit
    while not opened_by_zapper(device.device.path):
        if time.monotonic() > deadline:
            sys.exit(f"uinput: zapper did not open {device.device.path}")
        time.sleep(0.2)
    time.sleep(0.5)
    act(device)
    time.sleep(1)
print(f"uinput: {kind} {what} done")
