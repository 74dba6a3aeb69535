#!/usr/bin/env python3
"""Tells whether a tone is in a WAV capture (QEMU's -audiodev wav: 16-bit PCM).

  tone.py FILE.wav HZ [BLOCKS]

Runs a Goertzel filter for HZ and for the demo channels' other tones (each channel has
its own) over every 100 ms block; passes when HZ is the strongest of them in at least a tenth of
the blocks that are not silent, or in at least BLOCKS blocks (e.g. 20: two seconds of a channel
among several). Prints what it found.
"""
import math
import struct
import sys
import wave

TONES = [330, 440, 550, 660, 770, 880, 990, 1100, 1320, 1430]


def goertzel(samples, rate, hz):
    coefficient = 2 * math.cos(2 * math.pi * hz / rate)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + coefficient * s1 - s2, s1
    return s1 * s1 + s2 * s2 - coefficient * s1 * s2


def main(argv):
    path, hz = argv[1], int(argv[2])
    enough = int(argv[3]) if len(argv) > 3 else None
    with wave.open(path) as w:
        rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        frames = w.readframes(w.getnframes())
    if width != 2:
        raise SystemExit(f"{path}: {8 * width}-bit samples, expected 16")
    mono = struct.unpack(f"<{len(frames) // 2}h", frames)[::channels]
    block = rate // 10
    voiced = strongest = 0
    for start in range(0, len(mono) - block, block):
        chunk = mono[start:start + block]
        if max(abs(x) for x in chunk) < 200:
            continue
        voiced += 1
        powers = {tone: goertzel(chunk, rate, tone) for tone in TONES + ([hz] if hz not in TONES else [])}
        if max(powers, key=powers.get) == hz:
            strongest += 1
    seconds = len(mono) / rate
    print(f"{path}: {seconds:.1f} s at {rate} Hz, {voiced} sounding blocks of 100 ms, {hz} Hz strongest in {strongest}")
    return 0 if voiced and strongest >= (enough or max(1, voiced // 10)) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
