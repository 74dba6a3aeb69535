#!/usr/bin/env python3
"""Checks of QMP screendumps (binary PPM) for the scripts in image/.

  screens.py colour FILE.ppm RRGGBB [WxH] the share of the screen in that colour (>= 50 % passes);
                                          with WxH the screendump must be that size too
  screens.py card FILE.ppm RRGGBB         the interstitial card's panel is dark and the channel's
                                          colour still fills the screen above it
  screens.py covered FILE.ppm BEFORE.ppm RRGGBB
                                          something now covers the channel: its colour fills at
                                          least 10 points less of the screen than BEFORE (the
                                          channel's moving pattern only moves, so it does not count)
  screens.py console FILE.ppm            no console text: the top 40 % of the screen (above any
                                          card or panel Zapper draws) is not text on black
  screens.py png FILE.ppm FILE.png        a PNG copy to look at

Prints what it measured; exits 1 when the check fails.
"""
import struct
import sys
import zlib


def read_ppm(path):
    data = open(path, "rb").read()
    fields, index = [], 0
    while len(fields) < 4:  # P6, width, height, maxval; comments are not written by QEMU
        while data[index:index + 1].isspace():
            index += 1
        start = index
        while not data[index:index + 1].isspace():
            index += 1
        fields.append(data[start:index])
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise SystemExit(f"{path}: not an 8-bit binary PPM")
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[index + 1:index + 1 + width * height * 3]


def pixel(image, x, y):
    width, _, pixels = image
    i = (y * width + x) * 3
    return tuple(pixels[i:i + 3])


def samples(image, left, top, right, bottom, step=8):
    """Pixels on a grid inside the rectangle [left, right) x [top, bottom)."""
    return [pixel(image, x, y) for y in range(int(top), int(bottom), step) for x in range(int(left), int(right), step)]


def near(colour, target, tolerance=40):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))


def share(points, target):
    return sum(near(p, target) for p in points) / max(len(points), 1)


def card_panel(width, height):
    """OverlayLayout(width:height:).card().panel (Sources/ZapperCore/Overlay/OverlayLayout.swift):
    a 1040x300 design-unit panel, scaled by min(w/1920, h/1080), centred horizontally in the
    title-safe area (5 % margins) with its bottom 96 units above the safe area's bottom."""
    scale = min(width / 1920, height / 1080)
    safe_left, safe_top = width * 0.05, height * 0.05
    safe_right, safe_bottom = width - safe_left, height - safe_top
    w, h = 1040 * scale, 300 * scale
    x = (safe_left + safe_right) / 2 - w / 2
    y = safe_bottom - (96 + 300) * scale
    return x, y, w, h


# The Linux console's (and the VGA BIOS's) 16 colours, black left out: text, cursor and
# systemd's coloured status words are drawn in exactly these (components 0, 85, 170 or 255; VGA
# text mode's 6-bit palette gives 84, 168 and 252).
LEVELS = {0, 84, 85, 168, 170, 252, 255}


def console_text(image):
    """What of the top 40 % of the screen looks like console text: (share of it that is black,
    pixels in a console colour). Text is a few such pixels on black; a picture is not black."""
    width, height, pixels = image
    top = pixels[:width * int(height * 0.4) * 3]
    if top.count(0) == len(top):
        return 1.0, 0
    black = coloured = 0
    for i in range(0, len(top), 3):
        p = (top[i], top[i + 1], top[i + 2])
        if max(p) <= 8:
            black += 1
        elif p[0] in LEVELS and p[1] in LEVELS and p[2] in LEVELS:
            coloured += 1
    return black / (len(top) // 3), coloured


def shows_console_text(image):
    black, coloured = console_text(image)
    # A blinking cursor alone is 16 pixels; zapper draws nothing up there before its first picture.
    return black >= 0.9 and coloured >= 8


def hex_colour(text):
    text = text.lstrip("#")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def main(argv):
    command, path = argv[1], argv[2]
    image = read_ppm(path)
    width, height, pixels = image
    if command == "png":
        rows = b"".join(b"\0" + pixels[y * width * 3:(y + 1) * width * 3] for y in range(height))
        chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        with open(argv[3], "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))
        return 0
    if command == "covered":
        before, target = read_ppm(argv[3]), hex_colour(argv[4])
        now = share(samples(image, 0, 0, width, height), target)
        then = share(samples(before, 0, 0, before[0], before[1]), target)
        print(f"{path}: #{argv[4].lstrip('#')} fills {now:.0%} of the screen, {then:.0%} in {argv[3]}")
        return 0 if now <= then - 0.10 else 1
    if command == "console":
        black, coloured = console_text(image)
        text = shows_console_text(image)
        print(f"{path}: {width}x{height}, top 40 %: {black:.0%} black, {coloured} pixels in console colours"
              f"{': console text' if text else ''}")
        return 1 if text else 0
    target = hex_colour(argv[3])
    if command == "colour":
        seen = share(samples(image, 0, 0, width, height), target)
        size = argv[4] if len(argv) > 4 else f"{width}x{height}"
        print(f"{path}: {width}x{height}, {seen:.0%} of the screen is #{argv[3].lstrip('#')}"
              + ("" if size == f"{width}x{height}" else f" (not {size})"))
        return 0 if seen >= 0.5 and size == f"{width}x{height}" else 1
    if command == "card":
        x, y, w, h = card_panel(width, height)
        inside = samples(image, x + 8, y + 8, x + w - 8, y + h - 8, step=4)
        dark = sum(max(p) < 100 for p in inside) / len(inside)
        channel_inside = share(inside, target)
        above = share(samples(image, 0, 0, width, y - 40), target)
        print(f"{path}: {width}x{height}, card panel at x={x:.0f} y={y:.0f} {w:.0f}x{h:.0f}: "
              f"{dark:.0%} dark, {channel_inside:.0%} #{argv[3].lstrip('#')}; above it {above:.0%} #{argv[3].lstrip('#')}")
        return 0 if dark >= 0.6 and channel_inside < 0.1 and above >= 0.5 else 1
    raise SystemExit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
