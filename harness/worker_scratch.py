# The worker's temporary files in one folder of its own. A worker the
# executor kills (a hang, a crash, the watchdog, the deadline) never removes
# its request's compile dumps and AOTInductor build folders; over a campaign of
# days they would fill the disk, as would the files of the compilers it runs.
# Each worker makes a folder of its own under the root the executor names,
# holds a lock on it while it lives and keeps its temporary files there, its
# children's too (torch's caches stay where torch puts them, shared by
# workers). The C side removes it once the worker is gone
# (harness/scratch.h: the names come from there); a worker that exits on its
# own (its executor gone) first ends the compile subprocesses of its process
# group, which would otherwise go on writing into the folder it removes.
# Linked before worker.py (harness/worker_blob.S).
import atexit
import fcntl
import os
import shutil
import signal
import tempfile
import time

GROUP_END_WAIT_S = 10  # for the killed processes to be gone: a kill takes effect at once unless one is in the kernel


def _group_members(group):
    """The live processes of process group `group` other than this one
    (a zombie writes nothing)."""
    me, found = os.getpid(), []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                state, _ppid, pgrp = f.read().rsplit(b")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue  # gone meanwhile
        if int(pgrp) == group and state != b"Z":
            found.append(int(name))
    return found


def end_own_group():
    """Kills the other processes of this process's group when it leads one
    (the executor starts each worker so, and its compile subprocesses join it),
    reaps its children and waits for the rest to be gone. A process in
    another's group (run by hand from a shell) kills nothing."""
    me = os.getpid()
    if os.getpgrp() != me:
        return
    deadline = time.monotonic() + GROUP_END_WAIT_S
    while time.monotonic() < deadline:
        members = _group_members(me)
        if not members:
            return
        for pid in members:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
        time.sleep(0.05)


class Scratch:
    """This worker's folder (`dir`) under the shared temporary folder (`root`,
    where caches shared by workers go)."""

    def __init__(self, cfg):
        self.root = cfg["scratch_root"][0]
        self.dir = tempfile.mkdtemp(prefix=cfg["scratch_prefix"][0], dir=self.root)
        lock = os.path.join(self.dir, cfg["scratch_lock"][0])
        self.lock = os.open(lock, os.O_CREAT | os.O_RDONLY | os.O_CLOEXEC, 0o600)
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        self.owner = os.getpid()
        atexit.register(self.remove)

    def remove(self):
        """At this worker's own exit: its group's compile subprocesses ended,
        then its folder gone. A forked child that runs the exit handlers it
        inherited removes nothing."""
        if os.getpid() != self.owner:
            return
        end_own_group()
        shutil.rmtree(self.dir, True)

    def take_temporaries(self):
        """From here on this process's temporary files (tempfile's) and its
        children's (a C++ compiler's, ptxas's: TMPDIR) go in this folder, so a
        kill leaves none behind; Inductor's cache stays where torch's default
        put it, shared by workers. Called once torch is imported, before any compile."""
        try:
            from torch._inductor.runtime.cache_dir_utils import default_cache_dir
        except ImportError:
            return  # a torch without it: its cache would move with TMPDIR, so nothing moves
        os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", default_cache_dir())
        os.environ["TMPDIR"] = self.dir
        tempfile.tempdir = self.dir

    def mkdtemp(self, prefix):
        return tempfile.mkdtemp(prefix=prefix, dir=self.dir)
