#!/usr/bin/env python3
"""Waits for an event in a zapper event log (JSON lines, Sources/zapper/README.md's "Events") that a guest streams out.

  events.py [--after LINES] FILE SECONDS NAME [KEY=VALUE ...]

Prints the first event named NAME whose fields have those values (numbers compared as text)
and exits 0; exits 1 when none came within SECONDS. Lines that are not JSON are skipped.
With --after, the first LINES lines are skipped too (what came before a step: `wc -l < FILE`).
With ZAPPER_EVENT_NAMES set to a file of the names zapper logs (`zapper --list-events`), a NAME
not among them is refused at once (exit 2) instead of being waited for.
"""
import json
import os
import sys
import time


def matching(path, name, wanted, after=0):
    try:
        lines = open(path, errors="replace").read().splitlines()
    except FileNotFoundError:
        return None
    for line in lines[after:]:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == name and all(str(event.get(k)) == v for k, v in wanted.items()):
            return event
    return None


def main(argv):
    after = 0
    if len(argv) > 2 and argv[1] == "--after":
        after = int(argv[2])
        argv = argv[:1] + argv[3:]
    path, seconds, name = argv[1], float(argv[2]), argv[3]
    wanted = dict(item.split("=", 1) for item in argv[4:])
    names_file = os.environ.get("ZAPPER_EVENT_NAMES")
    if names_file:
        names = open(names_file).read().split()
        if name not in names:
            print(f"events.py: {name} is not an event zapper logs ({names_file})", file=sys.stderr)
            return 2
    deadline = time.monotonic() + seconds
    while True:
        event = matching(path, name, wanted, after)
        if event is not None:
            print(json.dumps(event))
            return 0
        if time.monotonic() >= deadline:
            print(f"{path}: no {name} {' '.join(argv[4:])} within {seconds:g} s", file=sys.stderr)
            return 1
        time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
