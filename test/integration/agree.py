#!/usr/bin/env python3
"""agree.py - the plugin's answer to one fault against dqr-sim --what-if's
(used by agree.sh).

  agree.py WHATIF RECORDS LOGLINES [CHANGED]

WHATIF: dqr-sim --what-if NAME --json on the tables read back before the
fault; RECORDS: the lines dqr-reconfig.log gained since the fault;
LOGLINES: the OpenSM log lines since the fault; CHANGED: the entries that
differ between the tables read back before and after (dqr-check
--baseline), when known.

The records since the fault must be one reconfiguration record and one
transition record.  Compared: entries changed, 64-LID blocks, switches,
stages, the entries of every stage, and which stages wait a drain (the
plan's: the log's "stage N waits" lines, and the count on its
"transition N (...)" line; the record's drain spans must cover them).
Prints one line per figure, both sides; exits 1 when any differs.
"""
import json
import re
import sys


def fail(msg):
    print("agree: " + msg)
    sys.exit(1)


def main():
    whatif, records, lines = sys.argv[1:4]
    changed = sys.argv[4] if len(sys.argv) > 4 else None
    try:
        wi = json.load(open(whatif))
    except ValueError as e:
        fail("%s is no JSON: %s" % (whatif, e))
    w = wi["what_if"]
    stages_w = wi["stage_list"]

    recs = [json.loads(l) for l in open(records) if l.strip()]
    reconf = [r for r in recs if "id" in r]
    trans = [r for r in recs if "transition" in r]
    if len(reconf) != 1 or len(trans) != 1 or len(recs) != 2:
        fail("want one reconfiguration and one transition record, got "
             "%d and %d of %d" % (len(reconf), len(trans), len(recs)))
    rc, tr = reconf[0], trans[0]
    tid = tr["transition"]

    log = open(lines).read().splitlines()
    begun = [l for l in log if re.search(r"dqr: transition %d \(" % tid, l)]
    if len(begun) != 1:
        fail("want one line that begins transition %d, got %d"
             % (tid, len(begun)))
    m = re.search(r"in (\d+) stages .*stages that wait a drain: (\d+)",
                  begun[0])
    if not m:
        fail("transition %d: no stages in: %s" % (tid, begun[0]))
    log_stages, log_drains = int(m.group(1)), int(m.group(2))
    per_stage = {}
    for l in log:
        m = re.search(r"dqr: transition %d: stage (\d+) of (\d+), (\d+) "
                      r"entries" % tid, l)
        if m:
            per_stage[int(m.group(1))] = int(m.group(3))
    waits = {}
    for l in log:
        m = re.search(r"dqr: transition %d stage (\d+) waits \d+ ms: "
                      r"(.*?)( in the union of states \d+ and \d+)?$" % tid,
                      l)
        if m:
            waits[int(m.group(1))] = m.group(2)
    if len(per_stage) != tr["stages"]:
        fail("transition %d: %d stage lines for %d stages"
             % (tid, len(per_stage), tr["stages"]))
    if len(waits) != log_drains:
        fail("transition %d: %d stages waited, the log counted %d"
             % (tid, len(waits), log_drains))
    # every stage that waited a drain waited at least the delay
    spans = tr["drain_ms"]
    for s in waits:
        if s < 2 or spans[s - 2] + 0.5 < tr["drain_delay_ms"]:
            fail("transition %d: stage %d waited %s ms, the delay is %d"
                 % (tid, s, spans[s - 2] if s >= 2 else "?",
                    tr["drain_delay_ms"]))

    plugin = [
        ("entries", rc["changed_entries"]),
        ("blocks", rc["changed_blocks"]),
        ("switches", rc["switches_touched"]),
        ("stages", tr["stages"]),
        ("stage entries", [per_stage[s] for s in sorted(per_stage)]),
        ("drains", len(waits)),
        ("stages that wait", {s: waits[s] for s in sorted(waits)}),
    ]
    sim = [
        ("entries", w["changed_entries"]),
        ("blocks", w["blocks"]),
        ("switches", w["switches"]),
        ("stages", w["stages"]),
        ("stage entries", [s["entries"] for s in stages_w]),
        ("drains", w["drains"]),
        ("stages that wait", {i + 1: s["drain"]
                              for i, s in enumerate(stages_w)
                              if s["drain"] is not None}),
    ]
    bad = 0
    for (k, p), (_, s) in zip(plugin, sim):
        ok = p == s
        bad += not ok
        print("%-16s plugin %-24s what-if %-24s %s"
              % (k, p, s, "ok" if ok else "DIFFER"))
    # the rest must hold on both sides, or the comparison means little;
    # a plan folded to one drain also carries the entries it withdrew
    withdrawn = 0
    for l in log:
        m = re.search(r"dqr: transition %d: one drain at most: .* and "
                      r"(\d+) entries that still forward are withdrawn"
                      % tid, l)
        if m:
            withdrawn = int(m.group(1))
    if tr["entries"] != rc["changed_entries"] + withdrawn:
        print("transition %d carries %d entries, the reconfiguration "
              "changed %d and the plan withdrew %d"
              % (tid, tr["entries"], rc["changed_entries"], withdrawn))
        bad += 1
    if changed is not None and int(changed) != rc["changed_entries"]:
        print("the switches changed %s entries, the record says %d"
              % (changed, rc["changed_entries"]))
        bad += 1
    if rc["outcome"] != "ok" or w["verdict"] != "survived":
        print("outcome: plugin %s, what-if %s (%s)"
              % (rc["outcome"], w["outcome"], w["verdict"]))
        bad += 1
    if not rc["changed_entries"]:
        print("the fault changed nothing: nothing compared")
        bad += 1
    sys.exit(1 if bad else 0)


main()
