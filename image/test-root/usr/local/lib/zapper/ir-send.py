#!/usr/bin/python3
"""Test image only: sends one NEC scancode through rc-loopback (ir-ctl) and says what the kernel
made of it, so a lost IR press shows where it was lost.

  ir-send.py SCANCODE KEY      e.g. 0x40 KEY_CHANNELUP

Before sending: prints rc0's protocols and the keymap's line for KEY. After sending: reads the rc
device's input node (without grabbing it: zapper reads it too) for 3 s. Exits 0 when KEY went down
there, 1 otherwise.
"""
import glob
import os
import select
import subprocess
import sys
import time
from evdev import InputDevice, ecodes as e

scancode, key = sys.argv[1], sys.argv[2]


def say(text):
    print(f"ir-send: {text}", flush=True)


def mapped():
    table = subprocess.run(["ir-keytable", "-s", "rc0", "-r"], capture_output=True, text=True)
    return [line for line in (table.stdout + table.stderr).splitlines() if key in line]


say("rc0 protocols: " + open("/sys/class/rc/rc0/protocols").read().strip())
say("rc0 keymap: " + ("; ".join(mapped()) or f"no {key}"))

nodes = glob.glob("/sys/class/rc/rc0/input*/event*")
if not nodes:
    say("rc0 has no input node")
    sys.exit(1)
device = InputDevice("/dev/input/" + os.path.basename(nodes[0]))
sent = subprocess.run(["ir-ctl", "-d", "/dev/lirc0", "-S", f"nec:{scancode}"], check=False)
if sent.returncode != 0:
    say(f"ir-ctl failed ({sent.returncode})")
seen = []
end = time.monotonic() + 3
while time.monotonic() < end:
    if not select.select([device.fd], [], [], max(0, end - time.monotonic()))[0]:
        continue
    for event in device.read():
        if event.type == e.EV_MSC and event.code == e.MSC_SCAN:
            seen.append(f"scan 0x{event.value:x}")
        elif event.type == e.EV_KEY:
            name = e.KEY.get(event.code, str(event.code))
            seen.append(f"{name if isinstance(name, str) else name[0]}={event.value}")
say("the kernel reported: " + (", ".join(seen) or "nothing"))
sys.exit(0 if f"{key}=1" in seen else 1)
