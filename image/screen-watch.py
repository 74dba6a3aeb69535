#!/usr/bin/env python3
"""Watches the guest's screen until an event comes: no console text may show meanwhile.

  screen-watch.py QMP PREFIX [--from FILE TEXT] [--after LINES] EVENTS SECONDS NAME [KEY=VALUE ...]

Takes a QMP screendump about every half second (one QMP connection, so nothing else may use the
socket meanwhile) until the event (as events.py waits for it) is in EVENTS, then judges each with
screens.py's console check. The dumps that show text are kept as PREFIX-NNN.ppm (and .png);
the others are removed (KEEP_SCREENS=1 keeps them all). Prints the event, then a summary line on
stderr. Exits 0 when the event came and no dump showed text, 1 when one did, 2 when the event
did not come within SECONDS. With --from, dumps are judged only once TEXT is in FILE (image/test:
the initramfs's line on the serial port, the moment the kernel has handed over to it); earlier
ones are counted apart.
"""
import json
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from events import matching  # noqa: E402
from screens import read_ppm, shows_console_text  # noqa: E402


def connect(path):
    for _ in range(150):  # QEMU may not listen yet right after it starts
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            break
        except OSError:
            time.sleep(0.2)
    f = s.makefile("rw")
    json.loads(f.readline())

    def execute(name, args=None):
        f.write(json.dumps({"execute": name, **({"arguments": args} if args else {})}) + "\n")
        f.flush()
        while True:
            answer = json.loads(f.readline())
            if "return" in answer or "error" in answer:
                return answer
    execute("qmp_capabilities")
    return execute


def main(argv):
    qmp, prefix, rest = argv[1], argv[2], argv[3:]
    after, start = 0, None
    if rest[:1] == ["--from"]:
        start, rest = (rest[1], rest[2]), rest[3:]
    if rest[:1] == ["--after"]:
        after, rest = int(rest[1]), rest[2:]
    events, seconds, name = rest[0], float(rest[1]), rest[2]
    wanted = dict(item.split("=", 1) for item in rest[3:])
    execute = connect(qmp)
    keep = os.environ.get("KEEP_SCREENS") == "1"
    deadline = time.monotonic() + seconds
    sizes, texts, taken, number, event, early = {}, [], [], 0, None, 0
    judging = start is None
    while event is None and time.monotonic() < deadline:
        event = matching(events, name, wanted, after)  # read before the dump: it shows no later screen
        if not judging:
            try:
                judging = start[1] in open(start[0], errors="replace").read()
            except FileNotFoundError:
                pass
        path = f"{prefix}-{number:03d}.ppm"
        number += 1
        if "error" in execute("screendump", {"filename": path}) or not os.path.exists(path):
            time.sleep(0.5)
            continue
        if not judging:
            early += 1
            os.remove(path)
            time.sleep(0.5)
            continue
        taken.append(path)
        time.sleep(0.5)
    # Judged once the event is in: judging a dump takes 0.3 s of a host core (measured on
    # 2026-11-29), one every 0.8 s, which the guest (two vCPUs on two host cores) lost while it was watched.
    for path in taken:
        image = read_ppm(path)
        size = f"{image[0]}x{image[1]}"
        sizes[size] = sizes.get(size, 0) + 1
        if shows_console_text(image):
            texts.append(path)
            subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "screens.py"),
                            "png", path, path[:-4] + ".png"], check=False)
        elif not keep:
            os.remove(path)
    judged = ", ".join(f"{count} at {size}" for size, count in sizes.items()) or "none"
    if start is not None:
        judged += f" (and {early} before \"{start[1]}\", not judged)"
    if event is None:
        print(f"screen-watch: no {name} within {seconds:g} s; screendumps: {judged}", file=sys.stderr)
        return 2
    print(json.dumps(event))
    print(f"screen-watch: until {name}: screendumps {judged}; "
          + (f"console text in {len(texts)}: {' '.join(texts)}" if texts else "no console text in any"), file=sys.stderr)
    return 1 if texts else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
