#!/bin/sh
# dqr_check_cli.sh - dqr-check's verdicts, exit statuses and error
# messages on small captured and constructed fabrics.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/test/tools/cli_lib.sh"
tool="$top_builddir/tools/dqr-check"
name=dqr-check
trap 'rm -f "$out" "$out.bad" "$out.plan" "$out.exp" "$out.vl" \
	"$out.start" "$out.vls0" "$out.vls1" "$out.vls2" "$out.noop"' EXIT

# the real capture from ibsim + OpenSM: everything holds, both formats
expect 0 "result: OK" -- "$data/tiny.ibnd" "$data/tiny.fts"
expect 0 "result: OK" -- "$data/tiny.ibnd" "$data/tiny.osm-lfts"
expect 0 '"ok":true' -- --json "$data/tiny.ibnd" "$data/tiny.fts"
expect 0 "pairs ca-to-ca  *12  unreachable 0" -- \
	"$data/tiny.ibnd" "$data/tiny.fts"
# one entry turned back: a forwarding loop, three CAs lose Hca2
expect 1 "forwarding loops: 2 entries" -- "$data/tiny.ibnd" \
	"$data/tiny-loop.fts"
expect 1 "pairs ca-to-ca  *12  unreachable 3" -- "$data/tiny.ibnd" \
	"$data/tiny-loop.fts"
# loops fail the check even when only CA pairs are judged
expect 1 "result: FAIL" -- --pairs=ca "$data/tiny.ibnd" "$data/tiny-loop.fts"
expect 1 "changed against .*: 1 entries, 1 blocks of 64 LIDs, 1 switches" \
	-- --baseline="$data/tiny.fts" "$data/tiny.ibnd" "$data/tiny-loop.fts"
expect 1 '"changed":{"entries":1,"blocks":1,"switches":1}' -- --json \
	--baseline="$data/tiny.fts" "$data/tiny.ibnd" "$data/tiny-loop.fts"
# a ring routed clockwise: reachable, but a dependency cycle of 3 channels
expect 1 "dependency cycle: yes, 3 channels" -- "$data/tiny-cycle.ibnd" \
	"$data/tiny-cycle.fts"
expect 1 '"cycle":\["0x' -- --json "$data/tiny-cycle.ibnd" \
	"$data/tiny-cycle.fts"
expect 1 "pairs switch-to-switch *6  unreachable 0" -- \
	"$data/tiny-cycle.ibnd" "$data/tiny-cycle.fts"

# --load: routes per link.  On the tiny capture each of the four
# switch-to-switch channels (two cables, both ways) carries 2 of the 12
# CA pairs and each CA link 3.  The shifts order the CAs by LID (Hca1 2,
# Hca2 4, Hca3 5, Hca4 6): shifts 1 and 3 cross every channel once,
# shift 2 stays on each switch.
expect 0 "load all-to-all: pairs 12, unrouted 0, switch links 4 channels, max 2, mean 2.00, min 2, max incl. CA links 3" \
	-- --load "$data/tiny.ibnd" "$data/tiny.fts"
expect 0 "load shift: 3 shifts, worst max 1, mean max 0.67, mean 0.67" -- \
	--load "$data/tiny.ibnd" "$data/tiny.osm-lfts"
expect 0 '"load":{"all_to_all":{"pairs":12,"unrouted":0,"channels":4,"max":2,"mean":2.0000,"min":2,"max_all":3},"shift":{"shifts":3,"worst_max":1,"mean_max":0.6667,"mean":0.6667}}' \
	-- --json --load "$data/tiny.ibnd" "$data/tiny.fts"
expect 1 '^,"load":{"all_to_all":{"pairs":12,"unrouted":3,' \
	-- --json --load --baseline="$data/tiny.fts" "$data/tiny.ibnd" \
	"$data/tiny-loop.fts"
# the loop loses Hca2 to three CAs; their routes load no channel, so
# Switch1's cable towards it carries none and the mean drops
expect 1 "load all-to-all: pairs 12, unrouted 3, switch links 4 channels, max 2, mean 1.50, min 0" \
	-- --load "$data/tiny.ibnd" "$data/tiny-loop.fts"
expect 1 "load shift: 3 shifts, worst max 1, mean max 0.67, mean 0.50" -- \
	--load "$data/tiny.ibnd" "$data/tiny-loop.fts"
expect 2 "--load does not go with" -- --load \
	--one-shot-from="$data/tiny.fts" "$data/tiny.ibnd" "$data/tiny.fts"

# malformed input: file:line and status 2
sed '17s/.*/0x0004 0x3 : garbage/' "$data/tiny.fts" > "$out.bad"
expect 2 "$out.bad:17:" -- "$data/tiny.ibnd" "$out.bad"
sed '11s/.*/Switch	8 "S-0000000000200000/' "$data/tiny.ibnd" > "$out.bad"
expect 2 "$out.bad:11:" -- "$out.bad" "$data/tiny.fts"
expect 2 "not in the topology" -- "$data/tiny-cycle.ibnd" "$data/tiny.fts"
expect 2 "nosuchfile" -- "$data/tiny.ibnd" "$data/nosuchfile"
# bad usage
expect 2 "usage" -- "$data/tiny.ibnd"
expect 2 "takes all or ca" -- --pairs=some "$data/tiny.ibnd" \
	"$data/tiny.fts"
expect 0 "usage" -- --help

# --replay: staged changes on the tiny fabric.  Reconfiguration 1 moves
# Hca2's LID 4 at Switch1 to the parallel cable (port 3 -> 5), 2 turns it
# back at Switch2 over the other cable (after 1, a loop over both; on the
# tables before 1 it would come back to Switch1 over the cable Switch1
# sends it out of: a bounce the switch drops, no loop), 3 names an old
# port Switch1 does not hold.
cat > "$out.plan" <<'EOF'
# reconfiguration 1: 1 stages, 1 entries
1 1 0x0000000000200000 4 3 5
2 1 0x200001 4 1 3   # back to Switch1: loops
3 1 0x200000 4 3 1
EOF
sed '0,/^0x0004 003/s//0x0004 005/' "$data/tiny.fts" > "$out.exp"
expect 0 "stage 1 (reconfiguration 1): 1 entries: OK" -- \
	--replay="$out.plan" --reconf=1 "$data/tiny.ibnd" "$data/tiny.fts"
expect 0 "end state against .*: 0 entries differ" -- --replay="$out.plan" \
	--reconf=1 --expect="$out.exp" "$data/tiny.ibnd" "$data/tiny.fts"
expect 0 '"ok":true' -- --json --replay="$out.plan" --reconf=1 \
	--expect="$out.exp" "$data/tiny.ibnd" "$data/tiny.osm-lfts"
expect 1 "DLID 4: replayed 5, expected 3" -- --replay="$out.plan" \
	--reconf=1 --expect="$data/tiny.fts" "$data/tiny.ibnd" \
	"$data/tiny.fts"
expect 1 "(reconfiguration 2): 1 entries: FAIL: forwarding loop towards 1 DLID" \
	-- --replay="$out.plan" --reconf=2 "$data/tiny.ibnd" "$out.exp"
expect 1 "dependency cycle of 2 channels" -- --replay="$out.plan" \
	--reconf=2 "$data/tiny.ibnd" "$out.exp"
expect 0 "(reconfiguration 2): 1 entries: OK" -- --replay="$out.plan" \
	--reconf=2 "$data/tiny.ibnd" "$data/tiny.fts"
expect 1 "line 4: switch 0x0000000000200000 (Switch1) DLID 4 holds port 5, the record says 3" \
	-- --replay="$out.plan" "$data/tiny.ibnd" "$data/tiny.fts"
expect 1 "stages: 3, failing 2; old-port mismatches 1" -- \
	--replay="$out.plan" "$data/tiny.ibnd" "$data/tiny.fts"
expect 1 '"mismatch":{"line":4' -- --json --replay="$out.plan" \
	"$data/tiny.ibnd" "$data/tiny.fts"
expect 2 "no records of reconfiguration 9" -- --replay="$out.plan" \
	--reconf=9 "$data/tiny.ibnd" "$data/tiny.fts"
printf '1 1 0x200000 4 3 5\n1 1 0x200000 4 3\n' > "$out.bad"
expect 2 "$out.bad:2: too few fields" -- --replay="$out.bad" \
	"$data/tiny.ibnd" "$data/tiny.fts"
printf '1 1 0x100000 4 3 5\n' > "$out.bad"
expect 2 "$out.bad:1: node GUID 0x0000000000100000 is not a switch" -- \
	--replay="$out.bad" "$data/tiny.ibnd" "$data/tiny.fts"
printf '1 2 0x200000 4 3 5\n1 1 0x200001 4 1 3\n' > "$out.bad"
expect 2 "$out.bad:2: stage 1 of reconfiguration 1 after its stage 2" -- \
	--replay="$out.bad" "$data/tiny.ibnd" "$data/tiny.fts"
expect 2 "go with --replay" -- --reconf=1 "$data/tiny.ibnd" \
	"$data/tiny.fts"
expect 2 "decimal reconfiguration id" -- --replay="$out.plan" \
	--reconf=x "$data/tiny.ibnd" "$data/tiny.fts"
expect 2 "exclude each other" -- --replay="$out.plan" \
	--one-shot-from="$data/tiny.fts" "$data/tiny.ibnd" "$data/tiny.fts"

# --one-shot-from: OpenSM's all-at-once upload
expect 1 "union of old and new (any switch by either table): FAIL: forwarding loop" \
	-- --one-shot-from="$data/tiny.fts" "$data/tiny.ibnd" \
	"$data/tiny-loop.fts"
expect 1 "first (only it has switched): 1 loop, 1 cyclic, 1 of 1 bad" -- \
	--one-shot-from="$data/tiny.fts" "$data/tiny.ibnd" \
	"$data/tiny-loop.fts"
expect 1 '"union":{"loop_dlids":1' -- --json \
	--one-shot-from="$data/tiny.fts" "$data/tiny.ibnd" \
	"$data/tiny-loop.fts"
expect 0 "union of old and new (any switch by either table): OK" -- \
	--one-shot-from="$data/tiny.fts" "$data/tiny.ibnd" "$out.exp"
expect 0 "1 entries differ on 1 switches" -- \
	--one-shot-from="$data/tiny.fts" "$data/tiny.ibnd" "$out.exp"
expect 1 "old tables: forwarding loops towards 0 DLIDs, dependency cycle: yes" \
	-- --one-shot-from="$data/tiny-cycle.fts" "$data/tiny-cycle.ibnd" \
	"$data/tiny-cycle.fts"
expect 2 "nosuchfile" -- --one-shot-from="$data/nosuchfile" \
	"$data/tiny.ibnd" "$data/tiny.fts"

# --vl-layers: ftree2.ibnd is a 2-level fat tree of 3 leaves and 3
# spines.  In ftree2-uturn.fts spine i reaches spine j down through leaf
# i: six U-turns, and with the CA routes leaf1 -> spine2 -> leaf2 and
# leaf2 -> spine1 -> leaf1 the one-layer graph has a cycle.  On two VLs
# the U-turn hops leaf i -> spine j are on VL 1 (SL 1) and it is gone.
ft="$data/ftree2.ibnd"
expect 1 "dependency cycle: yes, 4 channels" -- "$ft" "$data/ftree2-uturn.fts"
expect 0 "^result: OK" -- --vl-layers "$ft" "$data/ftree2-uturn.fts"
expect 0 "with a U-turn 6 (from or to an end port 0)" -- --vl-layers \
	"$ft" "$data/ftree2-uturn.fts"
expect 0 "SLs used 2 (mask 0x0003), VLs used 2" -- --vl-layers \
	"$ft" "$data/ftree2-uturn.fts"
expect 0 "deadlock free on two VLs: yes" -- --vl-layers --pairs=ca \
	"$ft" "$data/ftree2-uturn.fts"
expect 0 "^one-layer dependency graph .*: cyclic, not judged: the two VLs decide" \
	-- --vl-layers "$ft" "$data/ftree2-uturn.fts"
expect 0 '^,"vl_layers":{"routes":72,"broken":0,"uturn_routes":6,"uturn_end":0,"conflict_keys":0,"moved":0,"unplaced":0,"vl1_entries":6,"sls_used":2,"sl_mask":3,"vls_used":2,"edges":\[[0-9]*,0\],"edges_up":6,"edges_down":0,"acyclic":\[true,true\],"cycles":\[\[\],\[\]\],"deadlock_free":true,"one_layer_acyclic":false,.*},"ok":true}$' \
	-- --json --vl-layers "$ft" "$data/ftree2-uturn.fts"
# the dump: the U-turn hop at each leaf maps SL 1 to VL 1; spine to
# spine routes run on SL 1 (spines have LIDs 4, 5, 6)
cat > "$out.exp" <<'EOF'
sl2vl 0x0000000000000010 1 2 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0
sl2vl 0x0000000000000010 1 3 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0
sl2vl 0x0000000000000011 2 1 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0
sl2vl 0x0000000000000011 2 3 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0
sl2vl 0x0000000000000012 3 1 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0
sl2vl 0x0000000000000012 3 2 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0
path_sl 4 5 1
path_sl 4 6 1
path_sl 5 4 1
path_sl 5 6 1
path_sl 6 4 1
path_sl 6 5 1
EOF
rm -f "$out.vl"
expect 0 "^result: OK" -- --vl-dump="$out.vl" "$ft" "$data/ftree2-uturn.fts"
grep -q '^# sl2vl 0x<switch node GUID>' "$out.vl" &&
	grep -v '^#' "$out.vl" | diff "$out.exp" -
tally $? "--vl-dump=$out.vl: not the expected assignment" "$out.vl"
# ftree2-vl1-cycle.fts sends spine1 -> host3 as leaf1 -> spine2 -> leaf2
# -> spine3 -> leaf3 and spine1 -> spine2 as leaf2 -> spine3 -> leaf1 ->
# spine2: after their U-turns both stay on VL 1, which closes a cycle
expect 1 "^vl 1 dependency cycle: yes, 4 channels: 0x0000000000000019\[2\] (spine2) -> 0x0000000000000011\[3\] (leaf2) -> " \
	-- --vl-layers "$ft" "$data/ftree2-vl1-cycle.fts"
expect 1 "deadlock free on two VLs: no" -- --vl-layers "$ft" \
	"$data/ftree2-vl1-cycle.fts"
expect 1 "^result: FAIL" -- --vl-layers "$ft" "$data/ftree2-vl1-cycle.fts"
expect 1 '"acyclic":\[true,false\],"cycles":\[\[\],\["0x0000000000000019\[2\] (spine2)",' \
	-- --json --vl-layers "$ft" "$data/ftree2-vl1-cycle.fts"
expect 1 '"deadlock_free":false,.*"ok":false}$' -- --json --vl-layers \
	"$ft" "$data/ftree2-vl1-cycle.fts"
# loops still count: spine2 turns LID 8 (host2) back to leaf1, which
# sends it up to spine2 again: the 5 routes through it are broken
sed '63s/^0x0008 002/0x0008 001/' "$data/ftree2-uturn.fts" > "$out.bad"
expect 1 "forwarding loops: 2 entries" -- --vl-layers "$ft" "$out.bad"
expect 1 "^result: FAIL" -- --vl-layers "$ft" "$out.bad"
expect 1 "vl layers: routes 67, broken 5," -- --vl-layers "$ft" "$out.bad"
# not a fat tree, unwritable dump, bad combinations: status 2
expect 2 "not a fat tree: switches ring0 and ring1 are cabled but both at level 0" \
	-- --vl-layers "$data/tiny-cycle.ibnd" "$data/tiny-cycle.fts"
expect 2 "not a fat tree" -- --json --vl-dump="$out.vl" "$data/tiny.ibnd" \
	"$data/tiny.fts"
expect 2 "cannot open $out.nodir/vl: " -- --vl-dump="$out.nodir/vl" "$ft" \
	"$data/ftree2-uturn.fts"
expect 2 "do not go with --replay" -- --vl-layers \
	--one-shot-from="$data/tiny.fts" "$data/tiny.ibnd" "$data/tiny.fts"

# bounded input: every malformed kind is status 2 and "file:line: what"
sed 's/# "Switch1"/# "Switch1-whose-description-runs-past-the-sixty-four-bytes-IB-allows"/' \
	"$data/tiny.ibnd" > "$out.bad"
expect 2 "$out.bad:10: node description of 66 bytes, longer than IB's 64" \
	-- "$out.bad" "$data/tiny.fts"
sed 's/^switchguid=0x200000(200000)/switchguid=0x00000000000000200000(200000)/' \
	"$data/tiny.ibnd" > "$out.bad"
expect 2 "$out.bad:9: bad GUID '0x00000000000000200000'" -- "$out.bad" \
	"$data/tiny.fts"
sed '13s/^\[3\]/[9]/' "$data/tiny.ibnd" > "$out.bad"
expect 2 "$out.bad:13: port 9 out of range 1..8" -- "$out.bad" \
	"$data/tiny.fts"
sed 's/lid 1 lmc 0$/lid 49152 lmc 0/' "$data/tiny.ibnd" > "$out.bad"
expect 2 "$out.bad:10: bad LID '49152'" -- "$out.bad" "$data/tiny.fts"
sed 's/guid 0x0000000000200001/guid 0x0000000000300001/' "$data/tiny.fts" \
	> "$out.bad"
expect 2 "$out.bad:11: switch GUID 0x0000000000300001 is not in the topology" \
	-- "$data/tiny.ibnd" "$out.bad"
sed '0,/^0x0006 005/s//0x0006 009/' "$data/tiny.fts" > "$out.bad"
expect 2 "$out.bad:9: output port 9 is beyond the 8 ports of switch 'Switch1'" \
	-- "$data/tiny.ibnd" "$out.bad"
sed '0,/^0x0006 005/s//0x0007 005/' "$data/tiny.fts" > "$out.bad"
expect 2 "$out.bad:9: LID 0x0007 is above the top 0x0006 of its switch header" \
	-- "$data/tiny.ibnd" "$out.bad"
printf '1 1 0x200000 4 3 5\n1 1 0x200001 4\n' > "$out.bad"
expect 2 "$out.bad:2: too few fields" -- --replay="$out.bad" \
	"$data/tiny.ibnd" "$data/tiny.fts"
printf '1 1 0x300000 4 3 5\n' > "$out.bad"
expect 2 "$out.bad:1: no node with GUID 0x0000000000300000 in the topology" \
	-- --replay="$out.bad" "$data/tiny.ibnd" "$data/tiny.fts"
printf '1 1 0x200000 4 3 9\n' > "$out.bad"
expect 2 "$out.bad:1: new port 9 is beyond the 8 ports of switch" \
	-- --replay="$out.bad" "$data/tiny.ibnd" "$data/tiny.fts"
printf '1 1 0x200000 0 3 5\n' > "$out.bad"
expect 2 "$out.bad:1: bad DLID '0' (1 .. 49151)" -- --replay="$out.bad" \
	"$data/tiny.ibnd" "$data/tiny.fts"
{ head -c 300 "$data/tiny.fts"; printf '\0'; } > "$out.bad"
expect 2 "$out.bad:6: NUL byte in line" -- "$data/tiny.ibnd" "$out.bad"
printf '1 1 0x200000 4 3 5\n1 1 0x2\0' > "$out.bad"
expect 2 "$out.bad:2: NUL byte in line" -- --replay="$out.bad" \
	"$data/tiny.ibnd" "$data/tiny.fts"
# binary and endless input stops at once (the reader keeps no more
# than one line of 64 KiB)
expect 2 "/dev/zero:1: NUL byte in line (binary data?)" -- /dev/zero \
	"$data/tiny.fts"
head -c 70000 /dev/zero | tr '\0' x > "$out.bad"
expect 2 "$out.bad:1: line longer than 65536 bytes" -- "$out.bad" \
	"$data/tiny.fts"

# --replay --reconf: one reconfiguration out of a record of two.  Start:
# the ring of tiny-cycle with ring2 sending ring1's LIDs 2 and 5 the
# short way (acyclic).  Reconfiguration 7 turns them clockwise again,
# which closes the ring's cycle in its union; 8 turns LID 2 back, which
# holds port 1 only after 7.
ring="$data/tiny-cycle.ibnd"
sed '/guid 0x0000000000000012/,$ {s/^0x0002 001/0x0002 002/; s/^0x0005 001/0x0005 002/}' \
	"$data/tiny-cycle.fts" > "$out.start"
printf '%s\n' '7 1 0x0000000000000012 2 2 1' \
	'7 1 0x0000000000000012 5 2 1' '8 1 0x0000000000000012 2 1 2' \
	> "$out.plan"
expect 0 "dependency cycle: no" -- "$ring" "$out.start"
expect 1 "stages: 2, failing 2; old-port mismatches 0" -- \
	--replay="$out.plan" "$ring" "$out.start"
expect 1 "replay of .* (reconfiguration 7): 1 stages, 2 entries" -- \
	--replay="$out.plan" --reconf=7 "$ring" "$out.start"
"$tool" --replay="$out.plan" --reconf=7 "$ring" "$out.start" > "$out" 2>&1
! grep -q "reconfiguration 8" "$out"
tally $? "--reconf=7 replayed reconfiguration 8 too" "$out"
# 8 alone starts from the start tables, where LID 2 is not on port 1
expect 1 "stages: 1, failing 1; old-port mismatches 1" -- \
	--replay="$out.plan" --reconf=8 "$ring" "$out.start"
expect 2 "$out.plan: no records of reconfiguration 9 (it has 7, 8)" -- \
	--replay="$out.plan" --reconf=9 "$ring" "$out.start"
# --vls: the paths from ring2 and host2 (LIDs 3, 6) to ring1 and host1
# (2, 5) are the only ones that go ring2 -> ring0 -> ring1; they get SL
# 1.  With every SL on VL 0 the stage of 7 is cyclic per VL as well;
# with SL 1 on VL 1 (smpquery sl2vl output of ring2, ring0 and host2)
# the same stage is clean.
printf 'path_sl %s\n' '3 2 1' '3 5 1' '6 2 1' '6 5 1' > "$out.vls1"
sl1=' | 0| 1| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0|'
{
	cat "$out.vls1"
	echo '# SL2VL table: Lid 3'
	echo '#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|'
	echo "ports: in  0, out  1:$sl1"
	echo "ports: in  3, out  1:$sl1"
	echo '# SL2VL table: Lid 1'
	echo "ports: in  2, out  1:$sl1"
	echo '# SL2VL table: Lid 6'
	echo "ports: in  0, out  0:$sl1"
	echo 'sl2vl 0x0000000000000011 2 3 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0'
} > "$out.vls2"
# replay_vls STATUS PATTERN VLS [OPTION]: the plan replayed from
# $out.start as reconfiguration 7, with the VLs of $out.VLS.
replay_vls() {
	expect "$1" "$2" -- ${4:+"$4"} --replay="$out.plan" --reconf=7 \
		--vls="$out.$3" "$ring" "$out.start"
}
replay_vls 1 "stage 1 (reconfiguration 7): 2 entries: FAIL: dependency cycle of 3 (channel, VL) pairs: 0x0000000000000011\[1\] (ring1) VL 0 -> 0x0000000000000012\[1\] (ring2) VL 0 -> 0x0000000000000010\[1\] (ring0) VL 0 -> " \
	vls1
replay_vls 0 "stage 1 (reconfiguration 7): 2 entries: OK$" vls2
replay_vls 0 "per VL: 13 dependencies on VLs 0 1: acyclic; on one VL: cyclic, not judged" \
	vls2
replay_vls 0 "VLs from .*: 5 SL2VL tables, 4 path SLs (SL mask 0x0002)" \
	vls2
replay_vls 0 '"vl":{"dependencies":13,"vl_mask":3,"cyclic":false,"cycle":\[\],"ok":true}}\],"failing_stages":0' \
	vls2 --json
replay_vls 1 '"cycle":\["0x0000000000000011\[1\] (ring1) VL 0",' vls1 --json
# --vls-after: the SLs answered once the plan is in force.  With every
# path on SL 0 after it, the four pairs vls1 puts on SL 1 change SL:
# their packets are left out of the stage, and the cycle only they
# close goes with them; with vls1 after as before nothing is left out
: > "$out.vls0"
replay_vls 0 "SLs once in force from .*vls0: 4 (source, DLID) pairs whose SL they change left out" \
	vls1 --vls-after="$out.vls0"
replay_vls 0 "stage 1 (reconfiguration 7): 2 entries: OK$" vls1 \
	--vls-after="$out.vls0"
replay_vls 1 "SLs once in force from .*vls1: 0 (source, DLID) pairs" vls1 \
	--vls-after="$out.vls1"
expect 2 "vls-after goes with --replay" -- --vls="$out.vls1" \
	--vls-after="$out.vls0" "$ring" "$out.start"
expect 2 "vls-after goes with --vls" -- --replay="$out.plan" \
	--vls-after="$out.vls0" "$ring" "$out.start"
# the judgement --vl-layers makes, from its own dump: replayed as one
# stage that changes nothing, the VLs of ftree2-uturn are acyclic with
# its 24 + 6 dependencies, and those of ftree2-vl1-cycle (22 + 6 + 7)
# have its cycle on VL 1
printf '1 1 0x0000000000000010 8 2 2\n' > "$out.noop"
"$tool" --vl-dump="$out.vl" "$ft" "$data/ftree2-uturn.fts" > /dev/null 2>&1
expect 0 "per VL: 30 dependencies on VLs 0 1: acyclic; on one VL: cyclic, not judged" \
	-- --replay="$out.noop" --vls="$out.vl" "$ft" "$data/ftree2-uturn.fts"
# and without a replay: the state itself, the one-VL cycle not counted
expect 0 "dependencies on VLs 0x0003, acyclic" -- --vls="$out.vl" "$ft" \
	"$data/ftree2-uturn.fts"
expect 0 '"vls":{"dependencies":30,"vl_mask":3,"acyclic":true},"ok":true}$' \
	-- --json --vls="$out.vl" "$ft" "$data/ftree2-uturn.fts"
# with no SL2VL table every SL is on VL 0: the U-turns' cycle counts
printf '# nothing\n' > "$out.vls1"
expect 1 "on VLs 0x0001, CYCLIC" -- --vls="$out.vls1" "$ft" \
	"$data/ftree2-uturn.fts"
"$tool" --vl-dump="$out.vl" "$ft" "$data/ftree2-vl1-cycle.fts" > /dev/null \
	2>&1
expect 1 "FAIL: dependency cycle of 4 (channel, VL) pairs: 0x0000000000000019\[2\] (spine2) VL 1 -> 0x0000000000000011\[3\] (leaf2) VL 1 -> " \
	-- --replay="$out.noop" --vls="$out.vl" "$ft" \
	"$data/ftree2-vl1-cycle.fts"
expect 1 "per VL: 35 dependencies on VLs 0 1: cyclic" -- \
	--replay="$out.noop" --vls="$out.vl" "$ft" \
	"$data/ftree2-vl1-cycle.fts"
expect 1 "35 dependencies on VLs 0x0003, CYCLIC" -- --vls="$out.vl" "$ft" \
	"$data/ftree2-vl1-cycle.fts"
# without SL2VL tables every dependency is on VL 0: the same count as
# the one-VL check (16 on the tiny capture)
printf '1 1 0x200000 4 3 3\n' > "$out.noop"
printf '# nothing: every path SL 0, every SL VL 0\n' > "$out.vls1"
expect 0 "per VL: 16 dependencies on VLs 0: acyclic; on one VL: acyclic" \
	-- --replay="$out.noop" --vls="$out.vls1" "$data/tiny.ibnd" \
	"$data/tiny.fts"
expect 0 "^dependencies: 16$" -- "$data/tiny.ibnd" "$data/tiny.fts"
# malformed VL files: status 2 and file:line
# bad_vls TEXT MESSAGE: a VL file of TEXT (printf %b) is refused with
# file:MESSAGE.
bad_vls() {
	printf '%b' "$1" > "$out.bad"
	expect 2 "$out.bad:$2" -- --replay="$out.plan" --vls="$out.bad" \
		"$ring" "$out.start"
}
bad_vls 'path_sl 3 7 1\n' "1: DLID 7 is no port's LID in the topology"
bad_vls 'sl2vl 0x12 1 5 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n' \
	"1: bad out port '5' (0 .. 4)"
bad_vls 'path_sl 3 2 1\n# x\npath_sl 3 2 0\n' \
	"3: path SL listed twice (first at line 1)"
bad_vls 'ports: in  0, out  1: | 0| 1|\n' "1: ports: line before any"
expect 2 "--vls does not go with --vl-layers" -- --vls="$out.vls2" \
	--vl-layers "$ring" "$out.start"

summary
