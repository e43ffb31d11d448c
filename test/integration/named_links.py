#!/usr/bin/env python3
"""named_links.py - a fault's cables and switches, named in the plugin's
reconfiguration lines and JSON records (used by faults.sh).

  named_links.py IBND SPEC RECORDS LOGLINES failed|returned

IBND: ibnetdiscover of the whole fabric (desc, GUIDs, peers); SPEC: an
ibsim link name as given to Unlink/ReLink, "sw"[port] for one cable or
"sw" for every cable of a switch; RECORDS: the JSON records since the
fault; LOGLINES: the "dqr: reconfiguration N (...)" lines since then.
Exits 1 with a message when a cable or switch is not named, by both ends
(description, GUID, port) in the records and in the lines.
"""
import json
import re
import sys


def fail(msg):
    print("named_links: " + msg)
    sys.exit(1)


def read_ibnd(path):
    guid, peer, cur = {}, {}, None
    for line in open(path):
        m = re.match(r'(Switch|Ca)\s+\d+\s+"[SH]-([0-9a-f]+)"\s+#\s+"([^"]*)"',
                     line)
        if m:
            cur = m.group(3)
            guid[cur] = int(m.group(2), 16)
            continue
        m = re.match(r'\[(\d+)\](?:\([0-9a-f]+\))?\s+"[SH]-[0-9a-f]+"\[(\d+)\]'
                     r'.*#\s+"([^"]*)"', line)
        if m and cur:
            peer[(cur, int(m.group(1)))] = (m.group(3), int(m.group(2)))
    return guid, peer


def main():
    ibnd, spec, records, lines, kind = sys.argv[1:6]
    guid, peer = read_ibnd(ibnd)
    m = re.match(r'"([^"]+)"(?:\[(\d+)\])?$', spec)
    if not m:
        fail("bad link name " + spec)
    sw = m.group(1)
    if sw not in guid:
        fail(sw + " not in " + ibnd)
    ports = [int(m.group(2))] if m.group(2) else \
        sorted(p for (d, p) in peer if d == sw)
    want = []
    for p in ports:
        if (sw, p) not in peer:
            fail("%s port %d has no cable in %s" % (sw, p, ibnd))
        d, q = peer[(sw, p)]
        want.append(((sw, guid[sw], p), (d, guid[d], q)))

    recs = [json.loads(l) for l in open(records) if l.startswith('{"id":')]
    if not recs:
        fail("no reconfiguration record")
    key = "links_" + kind
    got = set()
    for r in recs:
        for link in r[key]:
            ends = tuple((e["desc"], int(e["guid"], 16), e["port"])
                         for e in (link["a"], link["b"]))
            got.add(ends)
            got.add(ends[::-1])
    text = open(lines).read()
    for a, b in want:
        if (a, b) not in got:
            fail("%s holds no %s <-> %s" % (key, a, b))
        s = ['"%s" 0x%016x port %d' % e for e in (a, b)]
        if s[0] + " <-> " + s[1] not in text and \
           s[1] + " <-> " + s[0] not in text and \
           not ((kind == "returned" or len(want) > 3) and
                re.search(r" and [0-9]+ more", text)):
            fail("the log line does not name %s <-> %s" % (s[0], s[1]))
    if len(ports) > 1:
        skey = "switches_lost" if kind == "failed" else "switches_returned"
        named = [(s["desc"], int(s["guid"], 16)) for r in recs
                 for s in r[skey]]
        if (sw, guid[sw]) not in named:
            fail("%s does not name %s" % (skey, sw))
        what = "switches lost: " if kind == "failed" else "switches back: "
        if not re.search(what + r'.*"%s" 0x%016x' % (sw, guid[sw]), text):
            fail("no '%s' naming %s in the log line" % (what, sw))
    print("named_links: %d cable(s) of %s named (%s)" % (len(want), spec,
                                                          kind))


main()
