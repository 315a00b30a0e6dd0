# The worker's temporary files in one folder of its own. A worker the
# executor kills (a hang, a crash, the watchdog, the deadline) never removes
# its request's compile dumps and AOTInductor build folders; over a campaign of
# days they would fill the disk, as would the files of the compilers it runs.
# Each worker makes a folder of its own under the root the executor names,
# holds a lock on it while it lives and keeps its temporary files there, its
# children's too (torch's caches stay where torch puts them, shared by
# workers). The C side removes it once the worker is gone
# (harness/scratch.h: the names come from there); a worker that exits on its
# own removes it itself.
# Linked before worker.py (harness/worker_blob.S).
import atexit
import fcntl
import os
import shutil
import tempfile


class Scratch:
    """This worker's folder (`dir`) under the shared temporary folder (`root`,
    where caches shared by workers go)."""

    def __init__(self, cfg):
        self.root = cfg["scratch_root"][0]
        self.dir = tempfile.mkdtemp(prefix=cfg["scratch_prefix"][0], dir=self.root)
        lock = os.path.join(self.dir, cfg["scratch_lock"][0])
        self.lock = os.open(lock, os.O_CREAT | os.O_RDONLY | os.O_CLOEXEC, 0o600)
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        atexit.register(shutil.rmtree, self.dir, True)

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
