/*
 * net_write.h - writes a fabric as an ibsim net file.
 *
 * Format (ibsim's net-examples, a subset of ibnetdiscover's output):
 *
 *   Switch	<ports> "<name>"	# "<name>" lid <lid> lmc 0
 *   [<p>]	"<remote>"[<rp>]	# "<remote>" lid <rlid> 4xSDR
 *   ...
 *   <blank line>
 *   Hca	<ports> "<name>"
 *   [<p>]	"<remote>"[<rp>]	# lid <lid> lmc <lmc> \
 *   				  "<remote>" lid <rlid> 4xSDR   (one line)
 *
 * Every cable appears on both of its ends, as ibsim wants.  The remarks
 * follow ibnetdiscover's layout, which ibsim 0.10 parses: a switch's
 * "lid" and a CA port's "lid ... lmc" preload ibsim's ports with the
 * model's LIDs (OpenSM keeps a LID it finds on a port when nothing else
 * claims it, so the emulated fabric ends up with the model's LIDs); the
 * remote's LID and "4xSDR" (ibsim's default link) are what ibsim expects
 * there, and it warns about every port line without them.
 *
 * ibsim attaches a client without SIM_HOST to the first node of the file:
 * the writer therefore puts the first CA with a cabled port first (the SM
 * lands there), then every other node in node order.
 *
 * GUIDs: ibsim numbers nodes itself, switches from 0x200000 and CAs from
 * 0x100000 (a CA reserving ports + 1 GUIDs, its port p getting node GUID
 * + p).  The writer adds a "switchguid=" / "caguid=" / "rtguid=" line
 * before a node only when its GUID differs from the one ibsim would give
 * it, so a generated fabric (topo_gen.h) needs none and any other fabric
 * keeps its node GUIDs.
 */
#ifndef DQR_NET_WRITE_H
#define DQR_NET_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "fabric/fabric.h"

/* ibsim 0.10's defaults; its -N, -S and -P options raise them */
#define DQR_IBSIM_MAX_NODES 2048
#define DQR_IBSIM_MAX_SWITCHES 256
#define DQR_IBSIM_MAX_PORTS (DQR_IBSIM_MAX_SWITCHES * 24 + \
			     DQR_IBSIM_MAX_NODES * 2)
/* ibsim's node id buffer; 63 keeps its 64-byte node description whole */
#define DQR_IBSIM_MAX_NAME 63

/* What ibsim must hold to load a fabric (its -N, -S and -P values). */
struct dqr_ibsim_needs {
	unsigned long nodes, switches, ports;
};

/*
 * Fills n for f, counted as ibsim counts (every physical port, and
 * port 0 of a switch only), so that a tool can say which -N, -S and -P
 * a fabric needs before ibsim refuses it half loaded.
 */
void dqr_ibsim_needs(const struct dqr_fabric *f, struct dqr_ibsim_needs *n);

/* 1 when the needs exceed ibsim's default limits. */
int dqr_ibsim_over_limits(const struct dqr_ibsim_needs *n);

/*
 * 0 when every node name can be an ibsim node id (1..63 characters, none
 * of '"', '#', '@' or control characters) and no two nodes share one;
 * else -1 with a message.
 */
int dqr_net_check_names(const struct dqr_fabric *f, char *err,
			size_t errlen);

/*
 * Writes f (finished or not) as an ibsim net file.  0, or -1 with errno
 * EINVAL (a name fails dqr_net_check_names) or the stream's error.
 */
int dqr_write_ibsim_net(const struct dqr_fabric *f, FILE *out);

#endif
