# Step 11 of image/test (sourced by it): power cuts. The disk is a qcow2 overlay on test.img, so what
# the guest wrote survives QEMU's end as it would a real box's power cut. Each boot: the first
# frame, the channel it resumed (the last one on screen), the state file, the mounts and fsck's
# words checked; then Page Up every 0.4 s (each flip whose picture shows saves the state) and QMP
# quit as the last flip's first picture is shown. After the last: a clean shutdown, e2fsck -fn on
# root and /var.
# Uses image/test's say, check, colour, results, $out, $here, $repo and $port.
power_cuts() {
    gpu=bochs
    image_gpu_args bochs
    local disk=$out/power.qcow2 base=$out/power qmp=$out/power-qmp.sock guest=$out/power-guest.sock
    rm -f "$disk" "$base"-*
    qemu-img create -q -f qcow2 -F raw -b "$out/test.img" "$disk" || { results+=("power cuts: FAILED (qemu-img)"); return; }
    local cut seen="1" resumed events serial lineup_size
    lineup_size=$(grep -c '^#EXTINF' "$repo/channels/demo.m3u")
    for cut in 0 1 2 3; do
        events=$base-$cut-events.log serial=$base-$cut-serial.log
        DISK_FORMAT=qcow2 DISK_IF=ahci GUEST_SOCKET=$guest KERNEL_ARGS="zapper.lineup=http://10.0.2.2:$port/demo.m3u" \
        image_boot_disk "$disk" "$serial" "$qmp" "${gpu_args[@]}" -serial file:"$events" \
            -netdev user,id=n0 -device virtio-net-pci,netdev=n0 2> /dev/null
        if ! python3 "$here/events.py" "$events" 180 first-frame > /dev/null 2>&1; then
            tail -30 "$serial" >&2
            results+=("power cuts: FAILED (no first frame after cut $cut)")
            kill "$qemu_pid" 2> /dev/null || true; wait "$qemu_pid" 2> /dev/null || true; qemu_pid=
            return
        fi
        resumed=$(python3 "$here/events.py" "$events" 1 tune 2> /dev/null \
            | python3 -c 'import json,sys; print(json.load(sys.stdin)["channel"])' 2> /dev/null || echo none)
        local report
        # One line: the test shell runs a command per line.
        report=$(image_guest "$guest" 'echo "state: $(python3 -c "import json; print(json.load(open(\"/var/lib/zapper/state.json\"))[\"lastChannel\"])" 2>&1) aside: $(ls /var/lib/zapper | grep -c "\.bad-") invalid: $(journalctl -b -u zapper.service -o cat --no-pager | grep -c "not valid state") root: $(findmnt -no OPTIONS / | cut -d, -f1) var: $(findmnt -no SOURCE,OPTIONS /var | cut -d, -f1) fsck: $(journalctl -b -o cat --no-pager -t systemd-fsck | grep -E "zapper-(root|var)" | tr "\n" " ")"' 2>&1) || true
        say "boot $cut: resumed channel $resumed (expected: ${seen% }); $report"
        if ((cut > 0)); then
            check "after power cut $cut: back on the last channel ($resumed; ${seen% } expected)" \
                grep -qw -- "$resumed" <<< "$seen"
            check "after power cut $cut: the state file whole (none moved aside, none invalid)" \
                grep -q "aside: 0 invalid: 0 " <<< "$report"
        fi
        if ((cut == 0)); then
            check "the root mounted read-only, /var from its own partition" grep -qE "root: ro var: /dev/[a-z]+3 rw" <<< "$report"
        fi
        check "boot $cut: fsck checked the root and /var" grep -qE "fsck: .*zapper-root.*zapper-var|fsck: .*zapper-var.*zapper-root" <<< "$report"
        if ((cut == 3)); then
            sleep 1
            image_qmp "$qmp" screendump "{\"filename\": \"$base-last.ppm\"}" > /dev/null || true
            check "after the last power cut: channel $resumed on screen" \
                python3 "$here/screens.py" colour "$base-last.ppm" "$(colour "$resumed")"
            # A clean shutdown (QEMU ends with it), then the root as fsck sees it.
            image_guest "$guest" 'systemctl poweroff' > /dev/null 2>&1 || true
            local i
            for ((i = 0; i < 120; i++)); do kill -0 "$qemu_pid" 2> /dev/null || break; sleep 0.5; done
            kill "$qemu_pid" 2> /dev/null || true; wait "$qemu_pid" 2> /dev/null || true; qemu_pid=
            local name start size
            while read -r name start size; do
                rm -f "$base-$name.raw"
                qemu-img convert -O raw --image-opts \
                    "driver=raw,offset=$start,size=$size,file.driver=qcow2,file.file.filename=$disk" "$base-$name.raw"
                check "$name clean after the power cuts (e2fsck -fn)" e2fsck -fn "$base-$name.raw"
                e2fsck -fn "$base-$name.raw" 2>&1 | tail -1 | sed 's/^/    /' >&2 || true
                rm -f "$base-$name.raw"
            done < <(sfdisk --json "$out/test.img" | python3 -c '
import json, sys
for p in json.load(sys.stdin)["partitiontable"]["partitions"]:
    if p.get("name") in ("zapper-root", "zapper-var"): print(p["name"], p["start"] * 512, p["size"] * 512)')
            rm -f "$disk"
            return
        fi
        # Flips (2, 3, then 4); zapper saves the channel whose first picture was shown (a flip
        # passed before its picture came is not the last channel). The power goes as the last
        # flip's state is being written: 0, 0.1 or 0.2 s after its first-frame event reached the
        # serial port.
        local flips mark target
        mark=$(wc -l < "$events")
        for ((flips = 0; flips < cut + 2; flips++)); do image_key "$qmp" pgup || true; sleep 0.4; done
        target=$(((resumed - 1 + flips) % lineup_size + 1))
        python3 "$here/events.py" --after "$mark" "$events" 30 first-frame channel="$target" > /dev/null 2>&1 \
            || say "boot $cut: no first frame of channel $target within 30 s; cutting the power anyway"
        sleep "0.$cut"
        # What must come back: the last channel on screen, or the one on screen before it when the
        # cut came while the last one's state was being written (the event log reaches the serial
        # port a little late, so it cannot tell which).
        seen=$(grep -o '"event": "first-frame", "channel": [0-9]*' "$events" | grep -o '[0-9]*$' | tail -2 | tr '\n' ' ')
        image_qmp "$qmp" quit > /dev/null || true
        wait "$qemu_pid" 2> /dev/null || true
        qemu_pid=
    done
}
