# Step 8 of image/test (sourced by it; bochs only, after the CEC remote's step set up vivid's TV):
# a day-parting schedule puts the TV to standby over HDMI-CEC and wakes it again.
#   - vivid's TV side runs cec-follower, which keeps a TV's power status as a real TV does;
#   - the configuration gets a standby entry a few minutes ahead on the guest's clock
#     (/etc/zapper/zapper.toml is a link into /run in the test image) and zapper starts again to
#     read it: nothing applies at its start, so the TV is not touched and the channel comes back;
#   - the guest's clock is set to 2 s before the entry's start: zapper's `schedule` and `standby`
#     events, a black screen, and the TV (asked by the box's adapter) in standby;
#   - then to 2 s before its end: standby ends, channel 5 is on screen again and the TV is on
#     (<Image View On>), with the box as its active source (<Active Source>).
# Uses image/test's guest, events, mark, event, shot, check, say, colour, results, gpu and base.
schedule_standby() {
    local m start end tv_power tv_source
    image_guest "$guest" "/usr/local/lib/zapper/cec-tv follow" >&2 || say "$gpu: cec-follower did not start"
    check "the TV is on before the schedule (cec-follower's power status)" \
        image_guest "$guest" "/usr/local/lib/zapper/cec-tv wait-power on 20" >&2
    # Whole minutes on the guest's clock: the entry begins three to four minutes from now.
    start=$(image_guest "$guest" 'echo $(( ($(date +%s) / 60 + 4) * 60 ))') || start=0
    end=$((start + 60))
    m=$(mark)
    image_guest "$guest" "mkdir -p /run/zapper-test && printf '[[schedule]]\\ndays = [\"daily\"]\\nfrom = \"%s\"\\nto = \"%s\"\\nstandby = true\\n' \$(date -d @$start +%H:%M) \$(date -d @$end +%H:%M) > /run/zapper-test/zapper.toml && cat /run/zapper-test/zapper.toml && systemctl restart zapper.service" >&2 \
        || say "$gpu: could not write the schedule or restart zapper"
    check "zapper started again with the schedule: channel 5, no standby" event --after "$m" "$events" 60 first-frame channel=5
    check "no standby at zapper's start (the entry is ahead)" sh -c "! python3 '$here/events.py' --after $m '$events' 0 standby > /dev/null 2>&1"

    m=$(mark)
    image_guest "$guest" "date -s @$((start - 2)) > /dev/null" || say "$gpu: could not set the guest's clock"
    check "the schedule's standby entry began (guest clock at its start)" event --after "$m" "$events" 20 schedule entry=1 action=began
    check "standby by the schedule" event --after "$m" "$events" 20 standby on=True reason=schedule
    sleep 1
    shot standby
    check "the screen is black in standby" python3 "$here/screens.py" colour "$base-standby.ppm" 000000
    check "the TV went to standby over HDMI-CEC (<Standby>)" \
        image_guest "$guest" "/usr/local/lib/zapper/cec-tv wait-power standby 20" >&2

    m=$(mark)
    image_guest "$guest" "date -s @$((end - 2)) > /dev/null" || say "$gpu: could not set the guest's clock"
    check "the schedule's standby entry ended" event --after "$m" "$events" 20 schedule entry=1 action=ended
    check "standby ended by the schedule" event --after "$m" "$events" 20 standby on=False reason=schedule
    check "channel 5 tuned again after standby" event --after "$m" "$events" 60 first-frame channel=5
    check "the TV is on again over HDMI-CEC (<Image View On>)" \
        image_guest "$guest" "/usr/local/lib/zapper/cec-tv wait-power on 20" >&2
    check "the box is the TV's active source (<Active Source>)" \
        image_guest "$guest" "/usr/local/lib/zapper/cec-tv active-source" >&2
    sleep 1
    shot awake
    check "channel 5 on screen after standby" python3 "$here/screens.py" colour "$base-awake.ppm" "$(colour 5)"
    image_guest "$guest" 'journalctl -b -u zapper.service -o cat --no-pager | grep -iE "cec|schedule|standby" | tail -8; journalctl -b -u zapper-test-tv.service -o cat --no-pager | tail -12' >&2 || true
}
