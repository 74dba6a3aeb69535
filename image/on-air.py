#!/usr/bin/env python3
"""How long a channel was heard for in a zapper event log (JSON lines, Sources/zapper/README.md's "Events").

  on-air.py FILE CHANNEL

Prints the seconds from each `audio-started` of CHANNEL to the next `tune` (another channel
chosen), added up; a run of zapper that ends with the channel on (killed, or the log's last
run) adds nothing for it, as where it ended is not in the log. A new run starts at a `tune`
whose reason is "start". Lines that are not JSON are skipped.
"""
import json
import sys


def on_air(path, channel):
    total = 0.0
    since = None
    for line in open(path, errors="replace").read().splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        name, at = event.get("event"), event.get("t_ms")
        if not isinstance(at, (int, float)):
            continue
        if name == "tune":
            if since is not None and event.get("reason") != "start":
                total += (at - since) / 1000
            since = None
        elif name == "audio-started" and event.get("channel") == channel:
            since = at
    return total


if __name__ == "__main__":
    print(f"{on_air(sys.argv[1], int(sys.argv[2])):.1f}")
