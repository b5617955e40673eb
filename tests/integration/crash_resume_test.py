#!/usr/bin/env python3
"""Crash-resume test: BackupAndRestore training killed with SIGKILL at 20 random moments.

usage: crash_resume_test.py TRAIN_PROGRAM WORK_DIR

1. Runs the program once without BackupAndRestore: the reference weights.
2. Runs it with BackupAndRestore and kills it with SIGKILL 20 times, restarting it after each
   kill: 14 kills at random moments of the run, 6 the moment a checkpoint file is being written
   (a temporary `*.tmp.*` file of the atomic writer appears in the backup directory).
3. Lets the last restart finish, and compares its final weights (and Adam slots) with the
   reference byte for byte. The backup directory must be gone afterwards (delete_checkpoint).
The seed of the kill times is printed, so a failure can be replayed (CRASH_RESUME_SEED=...).
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import time

KILLS = 20
WRITE_KILLS = 6


def main():
    program, work = sys.argv[1], sys.argv[2]
    seed = int(os.environ.get("CRASH_RESUME_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    print(f"crash_resume: seed {seed}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    backup = os.path.join(work, "backup")
    chief = os.path.join(backup, "chief")
    reference = os.path.join(work, "reference.bin")
    resumed = os.path.join(work, "resumed.bin")
    delay = ["--step-delay-ms=2"]

    t0 = time.time()
    subprocess.run([program, os.path.join(work, "unused"), reference, "--no-backup"] + delay,
                   check=True)
    print(f"crash_resume: reference run without backups {time.time() - t0:.2f}s")
    t1 = time.time()
    subprocess.run([program, backup, resumed] + delay, check=True)
    duration = time.time() - t1
    check_equal(reference, resumed, "an uninterrupted run with BackupAndRestore")
    print(f"crash_resume: uninterrupted run with backups {duration:.2f}s, same weights")

    kinds = ["write"] * WRITE_KILLS + ["random"] * (KILLS - WRITE_KILLS)
    rng.shuffle(kinds)
    kills = {"random": 0, "write": 0}
    during_write = 0
    attempts = 0
    for kind in kinds:
        while True:
            attempts += 1
            if attempts > 200:
                sys.exit("crash_resume: the program kept finishing before it could be killed")
            proc = subprocess.Popen([program, backup, resumed] + delay, stderr=subprocess.PIPE)
            killed = False
            if kind == "random":
                deadline = time.time() + rng.uniform(0.02, duration)
                while time.time() < deadline and proc.poll() is None:
                    time.sleep(0.002)
                if proc.poll() is None:
                    tmp_seen = writing(chief, proc.pid)
                    proc.send_signal(signal.SIGKILL)
                    killed = True
                    during_write += tmp_seen
            else:
                while proc.poll() is None:
                    if writing(chief, proc.pid):
                        proc.send_signal(signal.SIGKILL)
                        killed = True
                        during_write += 1
                        break
                    time.sleep(0.0002)
            _, err = proc.communicate()
            if killed and proc.returncode == -signal.SIGKILL:
                kills[kind] += 1
                break
            if proc.returncode != 0:
                sys.stderr.write(err.decode(errors="replace"))
                sys.exit(f"crash_resume: a restart failed with status {proc.returncode}")
            # It finished before the kill: training is over, so start again from scratch for
            # this kill (the backup was deleted at the end).
            if os.path.exists(backup):
                sys.exit("crash_resume: the backup directory survived a finished run")
    print(f"crash_resume: {sum(kills.values())} SIGKILLs ({kills['random']} at random moments, "
          f"{kills['write']} on a checkpoint write; {during_write} with a write in progress)")

    final = subprocess.run([program, backup, resumed] + delay, stderr=subprocess.PIPE)
    sys.stderr.write(final.stderr.decode(errors="replace"))
    if final.returncode != 0:
        sys.exit(f"crash_resume: the final restart failed with status {final.returncode}")
    if os.path.exists(backup):
        sys.exit("crash_resume: the backup directory was not deleted at the end of training")
    size = check_equal(reference, resumed, "the run killed 20 times")
    print(f"crash_resume: final weights bitwise equal ({size} bytes), "
          f"{time.time() - t0:.1f}s in all")


def check_equal(reference, resumed, what):
    with open(reference, "rb") as f:
        want = f.read()
    with open(resumed, "rb") as f:
        got = f.read()
    if not want or want != got:
        diff = next((i for i in range(min(len(want), len(got))) if want[i] != got[i]), None)
        sys.exit(f"crash_resume: final weights of {what} differ from the reference run "
                 f"({len(got)} vs {len(want)} bytes, first difference at byte {diff})")
    return len(want)


def writing(directory, pid):
    """True while process `pid` has a temporary file of an atomic write open in `directory`."""
    marker = f".tmp.{pid}."
    return any(marker in f for f in safe_listdir(directory))


def safe_listdir(path):
    try:
        return os.listdir(path)
    except FileNotFoundError:
        return []


if __name__ == "__main__":
    main()
