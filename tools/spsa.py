#!/usr/bin/env python3
"""spsa.py — tunes the search constants of an SPSA build by self-play.

SPSA (simultaneous perturbation stochastic approximation), with the schedule
fishtest uses: at iteration k every parameter moves by +-c_k at once (a random
sign each), a build with theta + c_k*delta plays one game pair (one opening,
both colours) against theta - c_k*delta, and theta moves along delta by
R_k * c_k * (wins - losses of the plus side). c_k = c_end * (N / k)^0.101 and
a_k = r_end * c_end^2 * ((A + N) / (A + k))^0.602, A = N / 10, R_k = a_k / c_k^2,
so each parameter's step ends near r_end * c_end^2 per game-pair point.

The engine must be built with -DCHARIOT_SPSA=ON (CMakeLists.txt): it then
lists SPSA_<name> spin options (search/search_params.h, SEARCH_TUNABLES) and this
script reads them, with their defaults and ranges, from the engine itself.

usage: tools/spsa.py SPSA_BUILD OPENINGS.fen STATE.json [ITERATIONS]
   env: NODES (10000 a move), WORKERS (2, one game pair each at a time),
        PARAMS (comma list of names; default every tunable), C_FRAC (0.05:
        c_end as a fraction of each range), R_END (0.002), SEED (1)
STATE.json holds theta and the iteration count; running again resumes from
it (the schedule's N is the ITERATIONS of the first run). A line a hundred
pairs goes to stdout. A tool for developers; no test and no build step uses
it (python3, standard library). A tuned result is a proposal: copy it into
search/search_params.h and measure it with an SPRT before keeping it.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading


def engine_tunables(binary):
    """(name, default, min, max) of each SPSA_ option the engine lists."""
    out = subprocess.run([binary], input="ucci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    found = []
    for line in out.splitlines():
        w = line.split()
        if len(w) >= 2 and w[0] == "option" and w[1].startswith("SPSA_"):
            kv = {w[i]: w[i + 1] for i in range(2, len(w) - 1)}
            found.append((w[1][5:], int(kv["default"]), int(kv["min"]), int(kv["max"])))
    return found


def play_pair(binary, openings, nodes, seed, plus, minus, workdir):
    """Plays one opening with both colours; returns plus's wins - losses."""
    js = os.path.join(workdir, "m.json")
    for f in (js, js + ".journal"):
        if os.path.exists(f):
            os.remove(f)  # a journal left behind would be resumed instead

    def side(name, values):
        return ["-engine", "name=" + name, "cmd=" + binary, "option.hashsize=16"] + [
            "option.SPSA_%s=%d" % (k, v) for k, v in values.items()]

    cmd = [binary, "match"] + side("plus", plus) + side("minus", minus) + [
        "-each", "nodes=%d" % nodes, "-games", "2", "-concurrency", "1",
        "-openings", "file=" + openings, "order=random", "seed=%d" % seed,
        "-resign", "movecount=3", "score=600", "twosided=true",
        "-draw", "movenumber=34", "movecount=8", "score=20", "-json", js]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600, check=True)
    with open(js) as f:
        e = json.load(f)["engines"][0]
    assert e["name"] == "plus" and e["games"] == 2, e
    if e["crashes"] or e["illegal_moves"] or e["time_losses"]:
        raise RuntimeError("bad game: %s" % e)
    return e["wins"] - e["losses"]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    binary, openings, state_path = sys.argv[1], sys.argv[2], sys.argv[3]
    nodes = int(os.environ.get("NODES", 10000))
    workers = int(os.environ.get("WORKERS", 2))
    c_frac = float(os.environ.get("C_FRAC", 0.05))
    r_end = float(os.environ.get("R_END", 0.002))
    tun = engine_tunables(binary)
    if not tun:
        sys.exit("%s lists no SPSA_ options: build it with -DCHARIOT_SPSA=ON" % binary)
    wanted = os.environ.get("PARAMS")
    if wanted:
        names = wanted.split(",")
        tun = [t for t in tun if t[0] in names]
        if len(tun) != len(names):
            sys.exit("unknown parameter in PARAMS")
    if os.path.exists(state_path):
        with open(state_path) as f:
            st = json.load(f)
    else:
        if len(sys.argv) < 5:
            sys.exit("a new run needs ITERATIONS")
        st = {"iterations": int(sys.argv[4]), "k": 0, "theta": {t[0]: float(t[1]) for t in tun},
              "start": {t[0]: t[1] for t in tun}, "score": 0, "pairs": 0}
    lim = {t[0]: (t[2], t[3]) for t in tun}
    c_end = {t[0]: max(1.0, c_frac * (t[3] - t[2])) for t in tun}
    n_it = st["iterations"]
    big_a = n_it / 10.0
    rng = random.Random(int(os.environ.get("SEED", 1)) * 1000003 + st["k"])
    lock = threading.Lock()
    errors = []

    def clip(name, v):
        lo, hi = lim[name]
        return min(hi, max(lo, v))

    def worker(wid):
        workdir = tempfile.mkdtemp(prefix="spsa%d_" % wid)
        try:
            play_worker(workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    def play_worker(workdir):
        while True:
            with lock:
                if st["k"] >= n_it or errors:
                    return
                st["k"] += 1
                k = st["k"]
                ck = {p: c_end[p] * (n_it / k) ** 0.101 for p in st["theta"]}
                ak = {p: r_end * c_end[p] ** 2 * ((big_a + n_it) / (big_a + k)) ** 0.602 for p in st["theta"]}
                delta = {p: rng.choice((-1, 1)) for p in st["theta"]}
                plus = {p: int(round(clip(p, st["theta"][p] + ck[p] * delta[p]))) for p in st["theta"]}
                minus = {p: int(round(clip(p, st["theta"][p] - ck[p] * delta[p]))) for p in st["theta"]}
                seed = rng.randrange(1 << 30)
            try:
                res = play_pair(binary, openings, nodes, seed, plus, minus, workdir)
            except Exception as ex:  # stop cleanly: the state file stays valid
                with lock:
                    errors.append(ex)
                return
            with lock:
                for p in st["theta"]:
                    st["theta"][p] = clip(p, st["theta"][p] + ak[p] / ck[p] * res * delta[p])
                st["score"] += res
                st["pairs"] += 1
                if st["pairs"] % 100 == 0:
                    print("pairs %d k %d  " % (st["pairs"], k) +
                          " ".join("%s=%.1f" % (p, v) for p, v in st["theta"].items()), flush=True)
                    tmp = state_path + ".tmp"
                    with open(tmp, "w") as f:
                        json.dump(st, f, indent=1)
                    os.replace(tmp, state_path)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(state_path, "w") as f:
        json.dump(st, f, indent=1)
    if errors:
        sys.exit("stopped: %s" % errors[0])
    print("final " + " ".join("%s=%d" % (p, round(v)) for p, v in st["theta"].items()))


if __name__ == "__main__":
    main()
