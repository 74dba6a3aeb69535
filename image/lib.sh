# Shared pieces of the scripts that boot image/out/ in QEMU (sourced, not run).
#   image_gpu_args GPU         sets gpu_args for bochs (-vga std) or virtio (virtio-gpu-pci)
#   image_boot INIT SERIAL QMP [qemu args…]
#                              boots the image in the background (TCG, 2 CPUs, 1 GiB) with
#                              INIT as PID 1 (zapper.init=), the first serial port to SERIAL,
#                              QMP on the unix socket QMP; sets qemu_pid
#   image_qmp QMP COMMAND [JSON-ARGUMENTS]
#                              one QMP command; prints the answer; fails on an error answer
#   image_wait FILE REGEX SECONDS
#                              waits until a line of FILE matches (grep -E); fails on timeout
#   image_boot_disk DISK SERIAL QMP [qemu args…]
#                              boots the appliance disk (image/build's zapper.img or test.img) in the
#                              background with systemd as PID 1: the kernel and initramfs given
#                              directly with out/cmdline (+ KERNEL_ARGS), or with UEFI=1 through
#                              OVMF and the disk's own systemd-boot; KVM when /dev/kvm works, else
#                              TCG; DISK_IF=virtio|ahci|usb; DISK_FORMAT=raw|qcow2; SNAPSHOT=1 keeps the
#                              disk unchanged; sets qemu_pid
#   image_key QMP QCODE        presses and releases a key on the virtio keyboard (QMP input-send-event)
#   image_guest SOCKET COMMAND runs a shell command in the test image (zapper-test-shell on
#                              virtio-serial; image_boot_disk adds the port when GUEST_SOCKET is set);
#                              prints its output; its exit status
# Expects $out (image/out) to be set by the caller.

image_gpu_args() {
    case $1 in
        # 16 MB of VRAM (the default) holds two 1280x800 buffers but not two 1920x1080 ones.
        bochs) gpu_args=(-vga std -global VGA.vgamem_mb=64) ;;
        virtio) gpu_args=(-vga none -device virtio-gpu-pci) ;;
        *) return 1 ;;
    esac
}

image_boot() {
    local init=$1 serial=$2 qmp=$3
    shift 3
    rm -f "$serial" "$qmp"
    qemu-system-x86_64 -accel tcg,thread=multi -smp 2 -m 1024 -no-reboot \
        -kernel "$out/vmlinuz" -initrd "$out/initrd.img" \
        -append "console=ttyS0 root=/dev/vda quiet panic=-1 ${KERNEL_ARGS:-} zapper.init=$init" \
        -drive file="$out/rootfs.img",if=virtio,format=raw \
        -display none -serial file:"$serial" \
        -qmp unix:"$qmp",server=on,wait=off "$@" &
    qemu_pid=$!
}

image_qmp() {
    python3 - "$@" <<'PY'
import json, socket, sys, time
path, command = sys.argv[1], sys.argv[2]
arguments = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
for _ in range(50):  # QEMU may not listen yet right after it starts
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(path); break
    except OSError:
        time.sleep(0.2)
f = s.makefile("rw")
def execute(name, args=None):
    f.write(json.dumps({"execute": name, **({"arguments": args} if args else {})}) + "\n"); f.flush()
    while True:
        line = f.readline()
        if not line: return {"return": "closed"}  # quit: QEMU hangs up
        answer = json.loads(line)
        if "return" in answer or "error" in answer: return answer
json.loads(f.readline())
execute("qmp_capabilities")
answer = execute(command, arguments)
print(f"qmp {command}: {json.dumps(answer)}")
sys.exit(1 if "error" in answer else 0)
PY
}

image_wait() {
    local file=$1 regex=$2 seconds=$3 i
    for ((i = 0; i < seconds * 5; i++)); do
        grep -qE "$regex" "$file" 2>/dev/null && return 0
        sleep 0.2
    done
    return 1
}

image_accel() {
    # KVM only when it really runs a guest (on the build machines /dev/kvm opens, but QEMU
    # aborts setting up the vCPU): the kernel must print its banner within 5 s.
    local log status=1 pid i
    if [[ -r /dev/kvm && -w /dev/kvm && -f $out/vmlinuz ]]; then
        log=$(mktemp)
        # QEMU itself in the background, not a subshell around it: killing a subshell left the
        # probe's QEMU running (six of them, a core and a half, by the end of one test run).
        qemu-system-x86_64 -accel kvm -cpu host -machine pc -nodefaults -display none -serial file:"$log" \
            -kernel "$out/vmlinuz" -append "console=ttyS0 earlyprintk=ttyS0" </dev/null >/dev/null 2>&1 &
        pid=$!
        for ((i = 0; i < 25; i++)); do
            grep -q "Linux version" "$log" 2>/dev/null && { status=0; break; }
            kill -0 $pid 2>/dev/null || break
            sleep 0.2
        done
        kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"
    fi
    if ((status == 0)); then echo kvm; else echo tcg,thread=multi; fi
}

image_boot_disk() {
    local disk=$1 serial=$2 qmp=$3 drive
    shift 3
    rm -f "$serial" "$qmp"
    local accel=${ACCEL:-$(image_accel)}
    local boot=(-kernel "$out/vmlinuz" -initrd "$out/initrd.img" -append "$(cat "$out/cmdline") ${KERNEL_ARGS:-}")
    [[ ${UEFI:-0} == 1 ]] && boot=(-bios /usr/share/ovmf/OVMF.fd)
    drive="file=$disk,format=${DISK_FORMAT:-raw},if=none,id=disk0${SNAPSHOT:+,snapshot=on}"
    local disk_args
    case ${DISK_IF:-virtio} in
        virtio) disk_args=(-device virtio-blk-pci,drive=disk0) ;;
        ahci) disk_args=(-device ahci,id=ahci0 -device ide-hd,drive=disk0,bus=ahci0.0) ;;
        usb) disk_args=(-device qemu-xhci,id=xhci0 -device usb-storage,drive=disk0,bus=xhci0.0) ;;
    esac
    local guest=()
    [[ -n ${GUEST_SOCKET:-} ]] && { rm -f "$GUEST_SOCKET"; guest=(-device virtio-serial-pci
        -chardev socket,id=guest0,path="$GUEST_SOCKET",server=on,wait=off -device virtserialport,chardev=guest0,name=zapper.test); }
    qemu-system-x86_64 -accel "$accel" -smp 2 -m 1024 -no-reboot "${boot[@]}" \
        -drive "$drive" "${disk_args[@]}" -device virtio-keyboard-pci "${guest[@]}" \
        -display none -serial file:"$serial" \
        -qmp unix:"$qmp",server=on,wait=off "$@" &
    qemu_pid=$!
}

image_key() {
    # Press and release on one QMP connection, 80 ms apart: a QMP call per edge can take long
    # enough under TCG for the guest's key repeat to start.
    python3 - "$@" <<'PY'
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
f = s.makefile("rw")
def execute(name, args=None):
    f.write(json.dumps({"execute": name, **({"arguments": args} if args else {})}) + "\n"); f.flush()
    while True:
        answer = json.loads(f.readline())
        if "return" in answer or "error" in answer: return answer
json.loads(f.readline())
execute("qmp_capabilities")
for down in (True, False):
    key = {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": sys.argv[2]}}}
    answer = execute("input-send-event", {"events": [key]})
    if "error" in answer: sys.exit(f"qmp input-send-event: {answer}")
    if down: time.sleep(0.08)
PY
}

image_guest() {
    python3 - "$@" <<'PY'
import socket, sys, time
path, command = sys.argv[1], sys.argv[2]
for _ in range(300):  # the guest's shell may not listen yet
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(path); break
    except OSError:
        time.sleep(0.2)
s.sendall((command + "\n").encode())
f = s.makefile("r", errors="replace")
for line in f:
    if line.startswith("@@ exit "):
        sys.exit(int(line.split()[2]))
    sys.stdout.write(line)
sys.exit(255)
PY
}
