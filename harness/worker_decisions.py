# What the compiler decided for a request, as features in the map's decision
# region (docs/fuzzing.md, "Decision features"). Linked after
# worker_coverage.py (harness/worker_blob.S). Lines saturate within minutes of
# a campaign; which patterns fired, what fused, what fell back and which
# guards were made go on telling graphs apart. Counts come from torch's own
# counters and metrics, and from a few wrappers that note one name per
# decision (never per line run).
import functools
import importlib
import re
import sys
import zlib

PATTERN_TRACERS = ("fwd_only", "joint_fwd_bwd")  # pattern_matcher.py's tracers of replacement patterns
NOISE = re.compile(r"0x[0-9a-fA-F]+|\d+")  # addresses and numbers in reasons: the same decision, one name


class Decisions:
    def __init__(self, mm, offset, slots):
        self.map = memoryview(mm)[PROTO.shm_header + offset : PROTO.shm_header + offset + slots]
        self.slots = slots
        self.counts = {}  # decision name -> times this request
        self.metrics = None  # torch._inductor.metrics once hooked
        self.hooked = False

    def hook(self):
        """Imports and wraps the compiler's stages in the first request, as
        compiling imports them: their import-time lines stay in that
        request's coverage, as without these features."""
        hooks = (self.hook_patterns, self.hook_scheduler, self.hook_lowering, self.hook_guards, self.hook_autotune,
                 self.hook_decompositions)
        for hook in hooks:
            try:
                hook()
            except (ImportError, AttributeError):
                pass  # a torch without this stage: its decisions are not seen
        try:
            self.metrics = importlib.import_module("torch._inductor.metrics")
        except ImportError:
            pass

    def note(self, name, n=1):
        self.counts[name] = self.counts.get(name, 0) + n

    def wrap(self, owner, method, before=None, after=None):
        """owner.method with before(obj, args, kwargs) and after(obj, result,
        args) noted around it; a note that fails is dropped, never the
        compiler's work (an error here would read as the compiler's)."""
        inner = getattr(owner, method)

        def quietly(note, *args):
            try:
                note(*args)
            except Exception:
                pass

        @functools.wraps(inner)
        def noted(obj, *args, **kwargs):
            if before:
                quietly(before, obj, args, kwargs)
            out = inner(obj, *args, **kwargs)
            if after:
                quietly(after, obj, out, args)
            return out

        setattr(owner, method, noted)

    def hook_patterns(self):
        """Pattern-matcher replacements, by pattern name where torch has one,
        else the handler's name, else the pattern's kind and target."""
        pm = importlib.import_module("torch._inductor.pattern_matcher")

        def applied(entry, out, args):
            name = getattr(entry, "pattern_name", None) or getattr(getattr(entry, "handler", None), "__name__", None)
            if not name:
                name = f"{type(entry.pattern).__name__}:{getattr(args[2], 'target', '')}"
            self.note(f"pattern:{name}")

        for kind in (pm.LoweringPatternEntry, pm.GraphPatternEntry, pm.ReplacementPatternEntry):
            self.wrap(kind, "apply", after=applied)

    def hook_scheduler(self):
        """Scheduler node kinds after fusion, and how many nodes each fused."""
        sched = importlib.import_module("torch._inductor.scheduler")

        def scheduled(s, out, args):
            for node in s.nodes:
                kind = type(node).__name__
                self.note(f"sched:{kind}")
                fused = len(node.get_nodes())
                if fused > 1:
                    self.note(f"fused:{kind}:{fused.bit_length()}")

        self.wrap(sched.Scheduler, "__init__", after=scheduled)

    def hook_lowering(self):
        """Each target lowered, or run through a fallback kernel."""
        graph = importlib.import_module("torch._inductor.graph")
        lowering = importlib.import_module("torch._inductor.lowering")

        def lowered(g, out, args):
            target = args[0]
            how = "fallback" if target in lowering.fallbacks else "lowering"
            self.note(f"{how}:{getattr(target, '__name__', target)}")

        self.wrap(graph.GraphLowering, "call_function", after=lowered)

    def hook_guards(self):
        """Dynamo's guards by kind, and symbolic-shape guards by relation."""
        guards = importlib.import_module("torch._dynamo.guards")

        def guarded(mgr, args, kwargs):
            og = kwargs.get("output_graph", args[1] if len(args) > 1 else None)
            for g in getattr(og, "guards", None) or ():
                self.note(f"guard:{g.create_fn_name()}")
            env = getattr(og, "shape_env", None)
            for g in getattr(env, "guards", None) or ():
                self.note(f"shape_guard:{type(g.expr).__name__}")

        self.wrap(guards.CheckFunctionManager, "__init__", before=guarded)

    def hook_autotune(self):
        """Kernel templates asked to choose (max-autotune), and the kinds of choices they had."""
        sel = importlib.import_module("torch._inductor.select_algorithm")

        def selecting(cache, args, kwargs):
            name = kwargs.get("name", args[0] if args else "?")
            self.note(f"template:{name}")
            for c in kwargs.get("choices", args[1] if len(args) > 1 else ()) or ():
                self.note(f"choice:{name}:{type(c).__name__}")

        self.wrap(sel.AlgorithmSelectorCache, "__call__", before=selecting)

    def hook_decompositions(self):
        """Each decomposition Inductor's table applied, by the op it took
        apart (AOTAutograd traces through the table: an entry runs only for
        an op the graph has, and returns NotImplemented where it declines).
        Not while the pattern matcher traces its own patterns (once per
        worker, in its first compile): those are not the graph's."""
        decomp = importlib.import_module("torch._inductor.decomposition")

        def tracing_patterns():
            f = sys._getframe(2)
            while f:
                if f.f_code.co_name in PATTERN_TRACERS and f.f_code.co_filename.endswith("pattern_matcher.py"):
                    return True
                f = f.f_back
            return False

        def noting(op, fn):
            name = f"decomp:{getattr(op, '__name__', op)}"

            @functools.wraps(fn)
            def noted(*args, **kwargs):
                out = fn(*args, **kwargs)
                if out is not NotImplemented and not tracing_patterns():
                    self.note(name)
                return out

            return noted

        for table in (decomp.decompositions, getattr(decomp, "extra_random_decomps", {})):
            for op, fn in list(table.items()):
                table[op] = noting(op, fn)
        # the table with random ops is a cached merge of the two: made again from the wrapped ones
        getattr(getattr(decomp, "fast_random_decomps", None), "cache_clear", lambda: None)()

    def begin(self):
        if not self.hooked:
            self.hook()
            self.hooked = True
        self.counts = {}
        if self.metrics:
            self.metrics.reset()

    def end(self, counters):
        """Every non-zero count of this request -> one feature: (name, log2 bucket)."""
        for group, values in counters.items():
            for key, n in values.items():
                self.note(f"{group}:{NOISE.sub('#', str(key))}", n)
        if self.metrics:
            for name, v in vars(self.metrics).items():
                if type(v) is int and v:
                    self.note(f"metric:{name}", v)
        for name, n in self.counts.items():
            if n > 0:
                slot = zlib.crc32(name.encode(), int(n).bit_length()) % self.slots
                self.map[slot] = min(self.map[slot] + 1, 255)
