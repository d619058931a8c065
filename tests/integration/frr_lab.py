#!/usr/bin/env python3
"""Deploy smd's RoCE plan on real FRR and check that FRR installs exactly the plan (no smd code here).

For every lab (a plan JSON and the frr/ directory smd wrote with it): one network namespace per switch
and one per host port, a veth pair per cable named swp<port> at both ends as the configs expect, each
leaf's host ports bridged on br0, each host given its plan address and the leaf's gateway. Only the
plan's own addresses are used: hosts get theirs here, switches get theirs from zebra reading frr.conf.
Then zebra and bgpd (Debian's FRR) run in every switch namespace and `vtysh -b` loads the frr.conf smd
wrote, unchanged. The labs are checked by what FRR and the kernel say:
  * every BGP session of every switch is Established (`vtysh -c 'show bgp summary json'`),
  * the kernel FIB of every switch (`ip -n NS -j route show proto bgp`) holds exactly the plan's routes,
    every prefix with exactly the plan's next hops (device swp<port>, gateway the peer's /31 address),
  * every host pings one host behind every other leaf (ICMP through the kernel FIBs FRR installed),
  * with --reload-test, frr-reload.py --test accepts every frr.conf (it decodes configs as UTF-8).
Every namespace and daemon PID ("netns NAME", "pid PID COMM") is appended to --record as soon as it
exists: the caller's trap removes them on any exit (tests/integration/roce_frr_test.sh).
"""
import argparse
import json
import os
import pwd
import subprocess
import sys
import time

FRR_BIN = "/usr/lib/frr"
RELOAD = "/usr/lib/frr/frr-reload.py"
# FRR 9 and later keep zebra's interface configuration (the addresses of frr.conf) in mgmtd, which vtysh
# talks to; without it the addresses never reach the kernel. Debian 12's FRR 8.4 has no mgmtd.
DAEMONS = (("mgmtd",) if os.path.exists(f"{FRR_BIN}/mgmtd") else ()) + ("zebra", "bgpd")


def run(cmd, check=True, timeout=30):
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout)
    if check and p.returncode != 0:
        raise SystemExit(f"frr_lab: {' '.join(cmd)} failed ({p.returncode}): {(p.stderr or p.stdout).strip()[-600:]}")
    return p


def start_daemon(cmd, stderr_path, timeout=30):
    """Start an FRR daemon with -d. Its output goes to a file, not a pipe: FRR 10's daemons keep the
    descriptors they were started with, so a pipe would never reach EOF (FRR 8 closed them)."""
    with open(stderr_path, "w") as err:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=err, stderr=subprocess.STDOUT, timeout=timeout)
    if p.returncode != 0:
        with open(stderr_path, errors="replace") as err:
            raise SystemExit(f"frr_lab: {' '.join(cmd)} failed ({p.returncode}): {err.read().strip()[-600:]}")


class Lab:
    def __init__(self, name, plan_path, frr_dir, workdir, record):
        with open(plan_path, encoding="utf-8") as f:
            self.plan = json.load(f)
        assert self.plan["schema"] == "smd-roce-plan/3", self.plan["schema"]
        self.name, self.frr_dir, self.record = name, frr_dir, record
        self.switches = self.plan["switches"]
        self.hosts = self.plan["hosts"]
        self.by_guid = {sw["node_guid"]: i for i, sw in enumerate(self.switches)}
        assert len(self.by_guid) == len(self.switches), "node GUIDs of the plan are not unique"
        self.sw_ns = [f"{name}s{i}" for i in range(len(self.switches))]
        self.host_ns = [f"{name}h{i}" for i in range(len(self.hosts))]
        self.run_dir = [os.path.join(workdir, name, f"s{i}") for i in range(len(self.switches))]

    def note(self, line):
        self.record.write(line + "\n")
        self.record.flush()

    def netns(self, ns):
        self.note(f"netns {ns}")
        run(["ip", "netns", "add", ns])
        run(["ip", "-n", ns, "link", "set", "lo", "up"])

    def build(self):
        for ns in self.sw_ns + self.host_ns:
            self.netns(ns)
        for i, sw in enumerate(self.switches):
            for itf in sw["interfaces"]:
                j = self.by_guid[itf["peer_guid"]]
                if (i, itf["port"]) < (j, itf["peer_port"]):  # each cable once, from its lower end
                    run(["ip", "-n", self.sw_ns[i], "link", "add", f"swp{itf['port']}", "type", "veth", "peer", "name",
                         f"swp{itf['peer_port']}", "netns", self.sw_ns[j]])
        for h, host in enumerate(self.hosts):
            leaf = self.by_guid[host["leaf_guid"]]
            ns, port = self.sw_ns[leaf], f"swp{host['leaf_port']}"
            if run(["ip", "-n", ns, "link", "show", "br0"], check=False).returncode != 0:
                run(["ip", "-n", ns, "link", "add", "br0", "type", "bridge"])
            run(["ip", "-n", ns, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", self.host_ns[h]])
            run(["ip", "-n", ns, "link", "set", port, "master", "br0"])
            hns = self.host_ns[h]
            run(["ip", "-n", hns, "link", "set", "eth0", "up"])
            run(["ip", "-n", hns, "addr", "add", f"{host['ip']}/{host['prefix_len']}", "dev", "eth0"])
            run(["ip", "-n", hns, "route", "add", "default", "via", host["gateway"]])
        for ns in self.sw_ns:
            links = json.loads(run(["ip", "-n", ns, "-j", "link", "show"]).stdout)
            for link in links:
                run(["ip", "-n", ns, "link", "set", link["ifname"], "up"])

    def start_frr(self):
        frr = pwd.getpwnam("frr")
        for i, ns in enumerate(self.sw_ns):
            rd = self.run_dir[i]
            os.makedirs(rd, exist_ok=True)
            os.chown(rd, frr.pw_uid, frr.pw_gid)
            for daemon in DAEMONS:
                start_daemon(["ip", "netns", "exec", ns, f"{FRR_BIN}/{daemon}", "-d", "--vty_socket", rd, "-z",
                              f"{rd}/zserv.api", "-i", f"{rd}/{daemon}.pid", "--log", f"file:{rd}/{daemon}.log"],
                             f"{rd}/{daemon}.stderr")
                with open(f"{rd}/{daemon}.pid") as f:
                    self.note(f"pid {int(f.read().strip())} {daemon}")

    def load_configs(self):
        for i, sw in enumerate(self.switches):
            conf = os.path.join(self.frr_dir, sw["frr_dir"])
            p = run(["vtysh", "--vty_socket", self.run_dir[i], "--config_dir", conf, "-b"], check=False)
            if p.returncode != 0:
                raise SystemExit(f"frr_lab: {self.name}: vtysh -b refused {conf}/frr.conf ({p.returncode}):\n"
                                 f"{p.stdout}{p.stderr}")

    def expected_fib(self, i):
        sw = self.switches[i]
        peer_ip = {itf["port"]: itf["peer_ip"] for itf in sw["interfaces"]}
        return {r["prefix"]: sorted((f"swp{nh['port']}", peer_ip[nh["port"]]) for nh in r["nexthops"])
                for r in sw["routes"]}

    def kernel_fib(self, i):
        fib = {}
        for r in json.loads(run(["ip", "-n", self.sw_ns[i], "-j", "route", "show", "proto", "bgp"]).stdout or "[]"):
            dst = r["dst"] if "/" in r["dst"] else r["dst"] + "/32"
            hops = r.get("nexthops") or [r]
            fib[dst] = sorted((h.get("dev"), h.get("gateway")) for h in hops)
        return fib

    def sessions(self, i):
        p = run(["vtysh", "--vty_socket", self.run_dir[i], "-c", "show bgp summary json"], check=False)
        try:
            peers = json.loads(p.stdout).get("ipv4Unicast", {}).get("peers", {})
        except json.JSONDecodeError:
            return 0, {}
        return sum(1 for v in peers.values() if v.get("state") == "Established"), peers

    def converged(self):
        """(all sessions up and every FIB right, a summary of what is still wrong)."""
        wrong = []
        for i, sw in enumerate(self.switches):
            up, peers = self.sessions(i)
            if up != len(sw["interfaces"]) or len(peers) != len(sw["interfaces"]):
                wrong.append(f"{sw['frr_dir']}: {up} of {len(sw['interfaces'])} sessions Established")
                continue
            want, have = self.expected_fib(i), self.kernel_fib(i)
            if want != have:
                missing = sorted(set(want) - set(have))
                extra = sorted(set(have) - set(want))
                differ = sorted(p for p in set(want) & set(have) if want[p] != have[p])
                wrong.append(f"{sw['frr_dir']}: FIB missing {missing[:4]}, extra {extra[:4]}, next hops differ "
                             f"{[(p, want[p], have[p]) for p in differ[:2]]}")
        return not wrong, wrong

    def ping_pairs(self):
        """Every host to one host behind every other leaf (the i-th host pings each leaf's (i mod n)-th)."""
        by_leaf = {}
        for h in self.hosts:
            by_leaf.setdefault(h["leaf_guid"], []).append(h)
        pairs = []
        for a, ha in enumerate(self.hosts):
            for leaf, behind in by_leaf.items():
                if leaf != ha["leaf_guid"]:
                    pairs.append((a, behind[a % len(behind)]["ip"]))
        return pairs

    def ping_across_leaves(self, parallel=32):
        pairs, failed, running = self.ping_pairs(), [], []

        def reap(p):
            a, dst, proc = p
            if proc.wait(timeout=30) != 0:
                failed.append((self.hosts[a]["ip"], dst))

        for a, dst in pairs:
            if len(running) >= parallel:
                reap(running.pop(0))
            cmd = ["ip", "netns", "exec", self.host_ns[a], "ping", "-n", "-q", "-c", "2", "-i", "0.2", "-W", "2", dst]
            running.append((a, dst, subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)))
        for p in running:
            reap(p)
        return len(pairs), failed

    def reload_test(self):
        for i, sw in enumerate(self.switches):
            conf = os.path.join(self.frr_dir, sw["frr_dir"])
            p = run([RELOAD, "--test", "--stdout", "--vty_socket", self.run_dir[i], "--confdir", conf, "--rundir",
                     self.run_dir[i], os.path.join(conf, "frr.conf")], check=False, timeout=60)
            if p.returncode != 0 or "Traceback" in p.stderr + p.stdout:
                raise SystemExit(f"frr_lab: {self.name}: frr-reload.py --test failed on {conf}/frr.conf "
                                 f"({p.returncode}):\n{(p.stderr + p.stdout)[-1500:]}")
        return len(self.switches)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", required=True, help="file to append every namespace and daemon PID to")
    ap.add_argument("--workdir", help="run directories of the daemons (created, must be reachable by user frr)")
    ap.add_argument("--lab", action="append", default=[], metavar="NAME:PLAN.json:FRR_DIR[:reload]",
                    help="one deployment (NAME: a few letters, the namespace prefix)")
    ap.add_argument("--timeout", type=float, default=60, help="seconds for every lab to converge")
    args = ap.parse_args()
    labs = []
    with open(args.record, "a") as record:
        for spec in args.lab:
            name, plan, frr_dir, *opts = spec.split(":")
            labs.append((Lab(name, plan, frr_dir, args.workdir, record), "reload" in opts))
        start = time.monotonic()
        for lab, _ in labs:  # every lab's cables first, then the daemons, then the configs
            lab.build()
        for lab, _ in labs:
            lab.start_frr()
        for lab, _ in labs:
            lab.load_configs()
        loaded = time.monotonic()
        deadline = loaded + args.timeout
        pending = {lab.name: None for lab, _ in labs}
        took = {}
        while pending and time.monotonic() < deadline:
            for lab, _ in labs:
                if lab.name in pending:
                    ok, wrong = lab.converged()
                    if ok:
                        del pending[lab.name]
                        took[lab.name] = time.monotonic() - loaded
                    else:
                        pending[lab.name] = wrong
            if pending:
                time.sleep(0.5)
        if pending:
            for name, wrong in pending.items():
                print(f"FAIL: lab {name} did not converge to the plan within {args.timeout:.0f} s:", file=sys.stderr)
                for w in (wrong or [])[:12]:
                    print(f"  {w}", file=sys.stderr)
            return 1
        failures = 0
        for lab, reload in labs:
            sessions = sum(len(sw["interfaces"]) for sw in lab.switches)
            routes = sum(len(sw["routes"]) for sw in lab.switches)
            nexthops = sum(len(r["nexthops"]) for sw in lab.switches for r in sw["routes"])
            pings, failed = lab.ping_across_leaves()
            reloads = lab.reload_test() if reload else 0
            print(f"lab {lab.name}: {len(lab.switches)} switches, {len(lab.hosts)} hosts; {sessions} of {sessions} "
                  f"BGP sessions Established; kernel FIB of every switch = plan: {routes} routes, {nexthops} next "
                  f"hops (converged {took[lab.name]:.1f} s after the configs loaded); {pings - len(failed)} of "
                  f"{pings} pings across leaves" + (f"; frr-reload.py --test accepted {reloads} configs"
                                                     if reload else ""))
            for src, dst in failed[:10]:
                print(f"FAIL: lab {lab.name}: {src} cannot ping {dst}", file=sys.stderr)
            failures += len(failed)
        print(f"labs up and checked in {time.monotonic() - start:.1f} s")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
