#!/usr/bin/env python3
"""Fault-injection suite: nothing lost, nothing unbounded.

usage: fault_injection_test.py PROGRAM WORK_DIR

For each kind of save (CheckpointManager, save_weights to a fixed path, ModelCheckpoint to a
fixed path, Model.save), a writer that saves the same path again and again is killed with
SIGKILL at FAULT_INJECTION_KILLS (default 25) moments: half at random times, half the moment a
temporary file of a save appears (inside the commit); on a slow machine the kills of a kind stop,
after at least 5, once FAULT_INJECTION_BUDGET_S / 4 seconds are spent (default 160 s in all). After every kill the path must load one
whole generation of weights (never a mix of two saves, never an error). Then: one more save must
leave no temporary behind; loads while a writer keeps saving must all succeed; a save into a full
disk (RLIMIT_FSIZE, and a small tmpfs when this user may mount one) must raise
ResourceExhaustedError and keep the previous state loadable. Finally decompression bombs and
damaged files of every format are fed to the readers (the program's `bombs` and `damage` modes).

The summary line reads
  fault_injection: saves killed N, loads that failed 0; bombs fed N, escaped 0; ...
The seed is printed; FAULT_INJECTION_SEED=... replays a run.
"""
import os
import random
import signal
import subprocess
import sys
import time

KINDS = ["manager", "weights", "model_checkpoint", "model_save", "export"]
MIN_KILLS = 5


def temporaries(directory):
    found = []
    for root, dirs, files in os.walk(directory):
        for name in dirs + files:
            if ".tmp." in name:
                found.append(os.path.join(root, name))
    return found


def load(program, kind, directory):
    r = subprocess.run([program, "load", kind, directory], capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def kill_saves(program, kind, directory, kills, rng, budget_s):
    """Returns (kills done, loads that failed, kills that hit a commit). Past `budget_s` seconds
    it stops after MIN_KILLS kills (a slow machine gets fewer kills, never a hung suite)."""
    start = time.time()
    subprocess.run([program, "save", kind, directory, "1"], check=True)
    t0 = time.time()
    subprocess.run([program, "save", kind, directory, "4"], check=True)
    window = time.time() - t0
    done = failed = in_commit = 0
    for i in range(kills):
        if i >= MIN_KILLS and time.time() - start > budget_s:
            print(f"  {kind}: stopped after {i} kills (time budget of {budget_s:.0f}s spent)")
            break
        proc = subprocess.Popen([program, "save", kind, directory], stderr=subprocess.PIPE)
        if i % 2 == 0:
            time.sleep(rng.uniform(0.0, window))
        else:
            deadline = time.time() + 10 * window + 5
            while time.time() < deadline and proc.poll() is None and not temporaries(directory):
                time.sleep(0.0002)
        hit = bool(temporaries(directory))
        proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate()
        if proc.returncode != -signal.SIGKILL:
            print(f"  {kind}: the writer ended before the kill ({proc.returncode}): {err[-500:]}")
            failed += 1
            continue
        done += 1
        in_commit += hit
        ok, out = load(program, kind, directory)
        if not ok:
            failed += 1
            print(f"  {kind}: LOAD FAILED after kill {i + 1}: {out}")
            print(f"    files: {sorted(os.listdir(directory))}")
    return done, failed, in_commit


def concurrent_loads(program, kind, directory, rng):
    """Loads (some killed) while a writer keeps saving: returns the loads that failed."""
    writer = subprocess.Popen([program, "save", kind, directory], stderr=subprocess.DEVNULL)
    failed = 0
    try:
        for i in range(6):
            if i % 3 == 2:  # a reader killed mid-load must not disturb the writer
                reader = subprocess.Popen([program, "load", kind, directory],
                                          stdout=subprocess.DEVNULL)
                time.sleep(rng.uniform(0.0, 0.2))
                reader.send_signal(signal.SIGKILL)
                reader.wait()
                continue
            ok, out = load(program, kind, directory)
            if not ok:
                failed += 1
                print(f"  {kind}: LOAD DURING WRITES FAILED: {out}")
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    return failed


def tmpfs_disk_full(program, work):
    """Fills a small tmpfs (when this user may mount one) during each kind of save: after the
    first save, a ballast file leaves half of that save's size free, so the next save runs out
    of space inside its commit. Returns (ran, failures, note)."""
    mnt = os.path.join(work, "tmpfs")
    os.makedirs(mnt, exist_ok=True)
    failures = 0
    for kind in KINDS:
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", mnt],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return False, 0, (r.stderr or r.stdout).strip().splitlines()[-1:] or ["not permitted"]
        try:
            d = os.path.join(mnt, kind)
            subprocess.run([program, "save", kind, d, "1"], check=True)
            used = sum(os.path.getsize(os.path.join(root, f))
                       for root, _, files in os.walk(d) for f in files)
            st = os.statvfs(mnt)
            ballast = st.f_bavail * st.f_frsize - used // 2
            with open(os.path.join(mnt, "ballast"), "wb") as f:
                f.truncate(0)
                chunk = b"\1" * (1 << 20)
                while ballast > 0:
                    f.write(chunk[:min(len(chunk), ballast)])
                    ballast -= len(chunk)
            full = subprocess.run([program, "save", kind, d, "3"], capture_output=True, text=True)
            if full.returncode == 0 or "ResourceExhaustedError" not in full.stderr:
                failures += 1
                print(f"  tmpfs {kind}: expected ResourceExhaustedError, got "
                      f"{full.returncode}: {full.stderr[-300:]}")
            ok, out = load(program, kind, d)
            if not ok:
                failures += 1
                print(f"  tmpfs {kind}: LOAD FAILED after the disk filled up: {out}")
            else:
                print(f"  tmpfs {kind}: {full.stderr.strip().splitlines()[-1][-160:]}; {out}")
        finally:
            subprocess.run(["umount", mnt])
    return True, failures, []


def summary_of(output, prefix):
    for line in output.splitlines():
        if line.startswith(prefix):
            return line
    return f"{prefix}: no summary (the program failed)"


def main():
    program, work = sys.argv[1], sys.argv[2]
    kills = int(os.environ.get("FAULT_INJECTION_KILLS", "25"))
    budget_s = float(os.environ.get("FAULT_INJECTION_BUDGET_S", "160")) / len(KINDS)
    seed = int(os.environ.get("FAULT_INJECTION_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    print(f"fault_injection: seed {seed}, {kills} kills per kind of save")
    subprocess.run(["rm", "-rf", work])
    os.makedirs(work)
    problems = []
    total_kills = total_failed = 0
    for kind in KINDS:
        d = os.path.join(work, kind)
        t0 = time.time()
        done, failed, in_commit = kill_saves(program, kind, d, kills, rng, budget_s)
        total_kills += done
        total_failed += failed
        subprocess.run([program, "save", kind, d, "1"], check=True)
        left = temporaries(d)
        if left:
            problems.append(f"{kind}: temporaries left after the next save: {left}")
        concurrent = concurrent_loads(program, kind, d, rng)
        if concurrent:
            problems.append(f"{kind}: {concurrent} loads during writes failed")
        print(f"fault_injection: {kind}: {done} kills ({in_commit} inside a commit), "
              f"{failed} loads failed, {len(left)} temporaries left, {concurrent} concurrent "
              f"loads failed, {time.time() - t0:.1f}s")
        r = subprocess.run([program, "diskfull", kind, os.path.join(work, "full-" + kind)],
                           capture_output=True, text=True)
        print("  " + (r.stdout.strip().replace("\n", "\n  ") or r.stderr.strip()))
        if r.returncode != 0:
            problems.append(f"{kind}: a save past RLIMIT_FSIZE did not fail cleanly")
    if total_failed:
        problems.append(f"{total_failed} loads failed after kills")
    ran, tmpfs_failures, note = tmpfs_disk_full(program, work)
    if ran:
        print(f"fault_injection: disk full on a tmpfs: {tmpfs_failures} failures")
        if tmpfs_failures:
            problems.append("disk full on tmpfs")
    else:
        print(f"fault_injection: disk full on tmpfs SKIPPED (cannot mount one: {' '.join(note)});"
              " RLIMIT_FSIZE covered it above")

    bombs = subprocess.run([program, "bombs", os.path.join(work, "bombs")], capture_output=True,
                           text=True)
    print(bombs.stdout.rstrip() + bombs.stderr.rstrip())
    if bombs.returncode != 0:
        problems.append("a decompression bomb or declared size escaped")
    damage = subprocess.run([program, "damage", os.path.join(work, "damage")],
                            capture_output=True, text=True)
    print(damage.stdout.rstrip() + damage.stderr.rstrip())
    if damage.returncode != 0:
        problems.append("a damaged file escaped")

    print(f"fault_injection: saves killed {total_kills}, loads that failed {total_failed}; "
          f"{summary_of(bombs.stdout, 'bombs fed')}; {summary_of(damage.stdout, 'damaged files')}")
    for p in problems:
        print("FAIL: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
