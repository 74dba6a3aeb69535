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
