#!/usr/bin/env python3
"""Asks QEMU's VNC server for another desktop size, as a VNC viewer resized by its user does.

  vnc-size.py SOCKET WIDTH HEIGHT

A minimal RFB 3.8 client on QEMU's `-vnc unix:SOCKET`: no authentication, DesktopSize and
ExtendedDesktopSize announced, one SetDesktopSize (message 251). QEMU hands the size to the
display device: virtio-gpu gives the guest new display info (the driver sends a DRM hotplug
uevent); 0x0 disables the output, so the guest sees its connector disconnected. QEMU ignores
a size equal to the last one asked for (at first: 0x0), so ask for the current size once
before 0x0. Prints what it asked for.
"""
import socket
import struct
import sys
import time


def main(argv):
    path, width, height = argv[1], int(argv[2]), int(argv[3])
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)

    def read(n):
        data = b""
        while len(data) < n:
            chunk = s.recv(n - len(data))
            if not chunk:
                raise SystemExit("vnc: closed")
            data += chunk
        return data

    read(12)
    s.sendall(b"RFB 003.008\n")
    types = read(read(1)[0])
    if 1 not in types:
        raise SystemExit(f"vnc: no 'None' security type ({list(types)})")
    s.sendall(bytes([1]))
    read(4)
    s.sendall(bytes([1]))  # ClientInit: shared
    was = struct.unpack(">HH", read(4))
    read(16)
    read(struct.unpack(">I", read(4))[0])
    s.sendall(struct.pack(">BxHii", 2, 2, -223, -308))  # SetEncodings: DesktopSize, ExtendedDesktopSize
    s.sendall(struct.pack(">BBHHHH", 3, 0, 0, 0, *was))  # FramebufferUpdateRequest (full)
    time.sleep(1)
    s.sendall(struct.pack(">BxHHBx", 251, width, height, 1) + struct.pack(">IHHHHI", 0, 0, 0, width, height, 0))
    time.sleep(2)
    print(f"vnc: asked for {width}x{height} (the console was {was[0]}x{was[1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
