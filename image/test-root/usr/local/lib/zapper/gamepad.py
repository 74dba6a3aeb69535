#!/usr/bin/python3
"""Test image only: a gamepad made with uinput (python3-evdev) that presses BUTTON once, then goes.

  gamepad.py BUTTON [SECONDS]     e.g. BTN_TR (zapper's default keymap: channel up)
Presses once a zapper process has the new device open (udev tags it ID_INPUT_JOYSTICK and
zapper's hotplug opens it: slow under TCG), waiting at most SECONDS (default 60).
"""
import glob
import os
import sys
import time
from evdev import AbsInfo, UInput, ecodes as e

button = e.ecodes[sys.argv[1]]
stick = AbsInfo(value=0, min=-32768, max=32767, fuzz=16, flat=128, resolution=0)
capabilities = {
    e.EV_KEY: [e.BTN_SOUTH, e.BTN_EAST, e.BTN_NORTH, e.BTN_WEST, e.BTN_TL, e.BTN_TR, e.BTN_START, e.BTN_SELECT],
    e.EV_ABS: [(e.ABS_X, stick), (e.ABS_Y, stick),
               (e.ABS_HAT0X, AbsInfo(0, -1, 1, 0, 0, 0)), (e.ABS_HAT0Y, AbsInfo(0, -1, 1, 0, 0, 0))],
}


def opened_by_zapper(device):
    for fd in glob.glob("/proc/[0-9]*/fd/*"):
        try:
            if os.readlink(fd) == device and open(f"/proc/{fd.split('/')[2]}/comm").read().strip() == "zapper":
                return True
        except OSError:
            pass
    return False


with UInput(capabilities, name="Zapper test gamepad", vendor=0x045e, product=0x028e, version=0x110) as pad:
    deadline = time.monotonic() + (float(sys.argv[2]) if len(sys.argv) > 2 else 60)
    while not opened_by_zapper(pad.device.path):
        if time.monotonic() > deadline:
            sys.exit(f"gamepad: zapper did not open {pad.device.path}")
        time.sleep(0.2)
    time.sleep(0.5)
    pad.write(e.EV_KEY, button, 1); pad.syn()
    time.sleep(0.1)
    pad.write(e.EV_KEY, button, 0); pad.syn()
    time.sleep(1)
print(f"gamepad: pressed {sys.argv[1]}")
