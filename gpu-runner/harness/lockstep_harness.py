"""Runs a learner's script as `__main__` under torchrun, with torch instrumented.

torchrun starts this file once per rank as `python lockstep_harness.py SCRIPT [ARGS...]`. Before
the script runs it patches torch so that the rank's own record file (JSON lines, one object per
event) says what the script really did: process-group set-up, DDP construction, each pass over a
DataLoader with the indices its sampler produced, collectives with their call sites,
`torch.save` calls, and at the end the parameters of every DDP model (or, in a script without
DDP, of what its optimizers update). The grader in Rust reads
the records; it never parses the learner's source or trusts what the script prints.

The records go to a file opened before the script starts, whose path is removed from the
environment, so nothing the script prints can be taken for a record. The rank's stdout and
stderr go to their own files. Everything here is plain Python and torch: no numpy, no extra
packages.
"""

import ctypes
import datetime
import json
import os
import runpy
import signal
import sys
import threading
import time
import traceback
import warnings
import weakref

# torch warns at import when numpy is missing; the course never needs numpy, and the warning
# would land in every rank's stderr as if the learner had caused it.
warnings.filterwarnings("ignore", message="Failed to initialize NumPy")

RECORDS = os.environ.pop("LOCKSTEP_RECORDS", None)
LOGS = os.environ.pop("LOCKSTEP_LOGS", None)
TIMEOUT_S = float(os.environ.pop("LOCKSTEP_PG_TIMEOUT_S", "20"))
THREADS = int(os.environ.pop("LOCKSTEP_THREADS", "1"))
# The runner's planned failure, "RANK:LOADER:PASS:BATCH": that rank kills itself as it is about
# to read that batch (1-based) of that pass of that loader, in the first attempt only.
CRASH = os.environ.pop("LOCKSTEP_CRASH", None)
MAX_INDICES = 1_000_000
MAX_SAVES = 8

RANK = int(os.environ.get("RANK", "0"))
WORLD = int(os.environ.get("WORLD_SIZE", "1"))
# torchrun counts its restarts of the workers here; each attempt appends to the same records and
# logs, and names its tensor files apart.
RESTART = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") or 0)
ATTEMPT = "" if RESTART == 0 else f"_restart{RESTART}"


def _redirect_output():
    # Each rank's output in its own files, so the grader can tell who printed what.
    if not LOGS:
        return
    os.makedirs(LOGS, exist_ok=True)
    for fd, name in ((1, "out"), (2, "err")):
        f = os.open(os.path.join(LOGS, f"rank{RANK}.{name}"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(f, fd)
        os.close(f)
        if RESTART:
            os.write(fd, f"[lockstep] torchrun restart {RESTART}: this rank starts again\n".encode())
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)


_redirect_output()

_lock = threading.Lock()
_out = None
if RECORDS:
    os.makedirs(RECORDS, exist_ok=True)
    _out = open(os.path.join(RECORDS, f"rank{RANK}.jsonl"), "a", buffering=1)
SCRIPT = None


def record(kind, **fields):
    if _out is None:
        return
    fields["t"] = kind
    fields["time"] = time.monotonic()
    line = json.dumps(fields, default=str)
    with _lock:
        _out.write(line + "\n")
        _out.flush()


def call_site():
    """The innermost frame of the learner's script, as `file:line` (`None` if none is)."""
    frame = sys._getframe(1)
    while frame is not None:
        if SCRIPT is not None and os.path.abspath(frame.f_code.co_filename) == SCRIPT:
            return f"{os.path.basename(SCRIPT)}:{frame.f_lineno}"
        frame = frame.f_back
    return None


def script_line(tb):
    """The last line of the learner's script in a traceback."""
    found = None
    for entry in traceback.extract_tb(tb):
        if SCRIPT is not None and os.path.abspath(entry.filename) == SCRIPT:
            found = f"{os.path.basename(SCRIPT)}:{entry.lineno}"
    return found


# --- Tensors out, in a format tch reads (safetensors), without numpy or extra packages. ---

_DTYPES = None


def save_safetensors(tensors, path):
    import torch

    global _DTYPES
    if _DTYPES is None:
        _DTYPES = {
            torch.float32: "F32", torch.float64: "F64", torch.float16: "F16", torch.bfloat16: "BF16",
            torch.int64: "I64", torch.int32: "I32", torch.int16: "I16", torch.int8: "I8",
            torch.uint8: "U8", torch.bool: "BOOL",
        }
    header, blobs, offset = {}, [], 0
    for name, t in tensors.items():
        if not isinstance(t, torch.Tensor) or t.dtype not in _DTYPES or t.is_sparse:
            continue
        t = t.detach().to("cpu").contiguous()
        n = t.numel() * t.element_size()
        data = ctypes.string_at(t.data_ptr(), n) if n else b""
        header[name] = {"dtype": _DTYPES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + n]}
        blobs.append(data)
        offset += n
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)
    with open(path, "wb") as f:
        f.write(len(raw).to_bytes(8, "little"))
        f.write(raw)
        for b in blobs:
            f.write(b)


def tensor_dict(obj):
    """The state dict inside what `torch.save` was given: the dict itself when its values are
    tensors, a module's state dict, or the first such dict one level down (`{"model": ...}`)."""
    import torch

    if isinstance(obj, torch.nn.Module):
        return "", obj.state_dict()
    if isinstance(obj, dict):
        if obj and all(isinstance(v, torch.Tensor) for v in obj.values()):
            return "", obj
        for k, v in obj.items():
            if isinstance(v, torch.nn.Module):
                return str(k), v.state_dict()
            if isinstance(v, dict) and v and all(isinstance(x, torch.Tensor) for x in v.values()):
                return str(k), v
    return None, None


def install():
    import torch
    import torch.distributed as dist
    import torch.utils.data.dataloader as dl
    from torch.nn.parallel import DistributedDataParallel
    from torch.utils.data import DistributedSampler

    torch.set_num_threads(THREADS)

    # Process-group set-up, with a short timeout: a rank stuck in a collective fails in seconds.
    real_init = dist.init_process_group

    def init_process_group(*args, **kwargs):
        backend = kwargs.get("backend", args[0] if args else None)
        name = str(backend).lower() if backend is not None else None
        if name is not None and "nccl" in name and not torch.cuda.is_available():
            record("init_error", backend=name, site=call_site(), reason="nccl_without_gpu",
                   error="the NCCL backend needs a GPU, and this runner has none")
            raise RuntimeError(
                "lockstep: this script asks for the NCCL backend, but the runner has no GPU. "
                'Use backend="nccl" if torch.cuda.is_available() else "gloo".'
            )
        kwargs["timeout"] = datetime.timedelta(seconds=TIMEOUT_S)
        try:
            out = real_init(*args, **kwargs)
        except Exception as e:
            record("init_error", backend=name, site=call_site(), reason="failed", error=f"{type(e).__name__}: {e}")
            raise
        record("init", backend=dist.get_backend(), rank=dist.get_rank(), world=dist.get_world_size(),
               site=call_site())
        return out

    dist.init_process_group = init_process_group

    # Collectives: enter and exit, so a rank that never comes back is seen, and where it waited.
    seq = [0]

    def wrap_collective(name, fn):
        def collective(*args, **kwargs):
            if name == "barrier":
                # A barrier often comes after training; if it never returns, the parameters
                # are already saved. (`dump_models` is defined below; it exists by the time a
                # script calls a collective.)
                dump_models("barrier")
            seq[0] += 1
            n = seq[0]
            record("coll_enter", op=name, seq=n, site=call_site())
            try:
                out = fn(*args, **kwargs)
            except BaseException as e:
                record("coll_exit", op=name, seq=n, ok=False, error=f"{type(e).__name__}: {e}"[:500])
                raise
            record("coll_exit", op=name, seq=n, ok=True)
            return out

        collective.__wrapped__ = fn
        return collective

    for name in ("barrier", "all_reduce", "all_gather", "all_gather_object", "all_gather_into_tensor",
                 "broadcast", "broadcast_object_list", "reduce", "reduce_scatter", "reduce_scatter_tensor",
                 "gather", "gather_object", "scatter", "scatter_object_list", "all_to_all", "all_to_all_single",
                 "monitored_barrier"):
        if hasattr(dist, name):
            setattr(dist, name, wrap_collective(name, getattr(dist, name)))

    # DDP models: remembered, so their parameters can be saved at the end; and a measured
    # all-reduce of their size, so the speedup check can say what communication costs.
    models = []
    real_ddp_init = DistributedDataParallel.__init__

    def ddp_init(self, *args, **kwargs):
        real_ddp_init(self, *args, **kwargs)
        index = len(models)
        models.append(weakref.ref(self))
        params = [p for p in self.module.parameters() if p.requires_grad]
        numel = sum(p.numel() for p in params)
        ms = None
        try:
            buf = torch.zeros(numel, dtype=torch.float32, device=params[0].device if params else "cpu")
            raw = dist.all_reduce.__wrapped__ if hasattr(dist.all_reduce, "__wrapped__") else dist.all_reduce
            raw(buf)
            times = []
            for _ in range(5):
                t0 = time.perf_counter()
                raw(buf)
                if buf.is_cuda:
                    torch.cuda.synchronize()
                times.append(time.perf_counter() - t0)
            ms = sorted(times)[2] * 1000
        except Exception:
            pass
        linears = [[m.in_features, m.out_features] for m in self.module.modules()
                   if isinstance(m, torch.nn.Linear)]
        record("ddp", index=index, params=len(params), numel=numel, allreduce_ms=ms,
               device=str(params[0].device) if params else None, linears=linears[:64],
               site=call_site())

    DistributedDataParallel.__init__ = ddp_init

    # Gradient synchronisation happens in DDP's forward/backward; a forward that bypasses DDP
    # (calling `.module` directly) never syncs. Count DDP forwards per model.
    real_forward = DistributedDataParallel.forward
    forwards = {}

    def ddp_forward(self, *args, **kwargs):
        forwards[id(self)] = forwards.get(id(self), 0) + 1
        return real_forward(self, *args, **kwargs)

    DistributedDataParallel.forward = ddp_forward

    # Without DDP the replicas are what the optimizers update (a script may average gradients
    # by hand). They are named as in the module they belong to, so they compare with a
    # checkpoint; the module is the largest one whose .parameters() the script asked for.
    optimizers = []
    real_optimizer_init = torch.optim.Optimizer.__init__

    def optimizer_init(self, *args, **kwargs):
        real_optimizer_init(self, *args, **kwargs)
        optimizers.append(weakref.ref(self))

    torch.optim.Optimizer.__init__ = optimizer_init
    asked = []
    real_parameters = torch.nn.Module.parameters

    def parameters(self, *args, **kwargs):
        if len(asked) < 16 and not any(ref() is self for ref in asked):
            asked.append(weakref.ref(self))
        return real_parameters(self, *args, **kwargs)

    torch.nn.Module.parameters = parameters

    def optimizer_tensors(opt):
        modules = sorted((m for m in (ref() for ref in asked) if m is not None),
                         key=lambda m: -sum(1 for _ in m.named_parameters()))
        names = {}
        for m in modules:
            for name, p in m.named_parameters():
                names.setdefault(id(p), name)
        return {names.get(id(p), f"group{g}.param{j}"): p
                for g, group in enumerate(opt.param_groups) for j, p in enumerate(group["params"])}

    def dump(index, source, tensors, when, forwards):
        path = os.path.join(RECORDS, f"rank{RANK}{ATTEMPT}_{source}{index}.safetensors")
        try:
            save_safetensors(tensors, path)
            record("params", index=index, source=source, file=os.path.basename(path), when=when, forwards=forwards)
        except Exception as e:
            record("params_error", index=index, error=f"{type(e).__name__}: {e}")

    def dump_models(when):
        live = [(i, m) for i, m in enumerate(ref() for ref in models) if m is not None]
        for i, m in live:
            dump(i, "ddp", m.module.state_dict(), when, forwards.get(id(m), 0))
        if not models:
            for i, opt in enumerate(ref() for ref in optimizers):
                if opt is not None:
                    dump(i, "optimizer", optimizer_tensors(opt), when, 0)

    # Passes over DataLoaders: the indices each rank drew, and how long each pass took.
    loaders = {}
    real_iter = dl.DataLoader.__iter__
    real_next_index = dl._BaseDataLoaderIter._next_index

    def describe_sampler(loader):
        s = loader.sampler
        info = {"kind": type(s).__name__}
        if isinstance(s, DistributedSampler):
            info.update(epoch=s.epoch, num_replicas=s.num_replicas, rank=s.rank, shuffle=s.shuffle,
                        seed=s.seed, drop_last=s.drop_last)
        return info

    class Pass:
        def __init__(self, loader):
            self.loader = loader
            key = id(loader)
            if key not in loaders:
                loaders[key] = {"index": len(loaders), "passes": 0}
            self.info = loaders[key]
            self.number = self.info["passes"]
            self.info["passes"] += 1
            self.indices = []
            self.batches = 0
            # The scalar losses backward() is called on during the pass, summed where they
            # are (no device sync per step) and read once at its end.
            self.loss_sum = None
            self.losses = 0
            self.start = time.monotonic()
            self.sampler = describe_sampler(loader)
            try:
                self.dataset_len = len(loader.dataset)
            except Exception:
                self.dataset_len = None

        def finish(self, complete):
            end = time.monotonic()
            if current[0] is self:
                current[0] = None
            loss = None
            if self.losses:
                try:
                    loss = float(self.loss_sum) / self.losses
                    if loss != loss or loss in (float("inf"), float("-inf")):
                        loss = None  # JSON has no NaN; the chart shows a gap
                except Exception:
                    loss = None
            if complete:
                dump_models("pass")
            record("pass", loader=self.info["index"], number=self.number, start=self.start, end=end,
                   batches=self.batches, samples=len(self.indices), complete=complete, loss=loss,
                   indices=self.indices[:MAX_INDICES], dataset_len=self.dataset_len, sampler=self.sampler,
                   batch_size=self.loader.batch_size, site=call_site())

    passes = weakref.WeakKeyDictionary()
    current = [None]  # the pass the losses go to: the latest one started

    def loader_iter(self):
        it = real_iter(self)
        old = passes.get(it)
        if old is not None and old.batches:
            old.finish(False)
        passes[it] = Pass(self)
        current[0] = passes[it]
        return it

    real_backward = torch.Tensor.backward

    def backward(self, *args, **kwargs):
        p = current[0]
        if p is not None and self.dim() == 0:
            try:
                value = self.detach().float()
                p.loss_sum = value if p.loss_sum is None else p.loss_sum + value
                p.losses += 1
            except Exception:
                pass
        return real_backward(self, *args, **kwargs)

    torch.Tensor.backward = backward

    crash = None
    if CRASH and RESTART == 0:
        crash_rank, crash_loader, crash_pass, crash_batch = (int(v) for v in CRASH.split(":"))
        if crash_rank == RANK:
            crash = (crash_loader, crash_pass, crash_batch)

    def next_index(self):
        p = passes.get(self)
        if crash is not None and p is not None and (p.info["index"], p.number, p.batches + 1) == crash:
            # A real crash: no exception to catch, no atexit, no flush but the record's own.
            record("crash", loader=crash[0], batch=crash[2], **{"pass": crash[1]})
            os.kill(os.getpid(), signal.SIGKILL)
        try:
            idx = real_next_index(self)
        except StopIteration:
            if p is not None:
                p.finish(True)
                passes.pop(self, None)
            raise
        if p is not None:
            p.batches += 1
            if isinstance(idx, (list, tuple)):
                p.indices.extend(int(i) for i in idx)
            else:
                p.indices.append(int(idx))
        return idx

    dl.DataLoader.__iter__ = loader_iter
    dl._BaseDataLoaderIter._next_index = next_index

    # Checkpoints: who wrote what, with a copy of the tensors for the grader.
    real_save = torch.save
    saves = [0]

    def save(obj, f, *args, **kwargs):
        out = real_save(obj, f, *args, **kwargs)
        try:
            prefix, tensors = tensor_dict(obj)
            path = f if isinstance(f, (str, os.PathLike)) else getattr(f, "name", "<file object>")
            fields = {"path": os.fspath(path) if isinstance(path, (str, os.PathLike)) else str(path),
                      "prefix": prefix, "keys": list(tensors.keys()) if tensors is not None else None,
                      "site": call_site()}
            if tensors is not None and saves[0] < MAX_SAVES:
                name = f"rank{RANK}{ATTEMPT}_save{saves[0]}.safetensors"
                save_safetensors(tensors, os.path.join(RECORDS, name))
                fields["tensors"] = name
            saves[0] += 1
            record("save", **fields)
        except Exception as e:
            record("save_error", error=f"{type(e).__name__}: {e}")
        return out

    torch.save = save

    # Shutdown: the parameters are saved before the group goes away.
    real_destroy = dist.destroy_process_group

    def destroy_process_group(*args, **kwargs):
        dump_models("destroy")
        record("destroy_enter", site=call_site())
        out = real_destroy(*args, **kwargs)
        record("destroy_exit")
        return out

    dist.destroy_process_group = destroy_process_group
    return dump_models, passes


def main():
    global SCRIPT
    if len(sys.argv) < 2:
        print("usage: lockstep_harness.py SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    SCRIPT = os.path.abspath(sys.argv[1])
    with open(SCRIPT, "rb") as f:
        source = f.read()
    try:
        compile(source, SCRIPT, "exec")
    except SyntaxError as e:
        record("syntax_error", line=e.lineno, offset=e.offset, message=e.msg, text=(e.text or "").rstrip())
        print(f"{os.path.basename(SCRIPT)}:{e.lineno}: SyntaxError: {e.msg}", file=sys.stderr)
        return 1
    import torch

    record("start", rank=RANK, world=WORLD, local_rank=int(os.environ.get("LOCAL_RANK", "0")), pid=os.getpid(),
           torch=torch.__version__, cuda_devices=torch.cuda.device_count(), threads=THREADS, restart=RESTART)
    dump_models, passes = install()
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(SCRIPT))
    code = 0
    try:
        runpy.run_path(SCRIPT, run_name="__main__")
        status = "ok"
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        status = "exit"
    except BaseException as e:
        status = "exception"
        code = 1
        record("exception", type=type(e).__name__, message=str(e)[:2000], site=script_line(e.__traceback__))
        traceback.print_exc()
    dump_models("end")
    for p in list(passes.values()):
        if p.batches:
            p.finish(False)
    record("end", status=status, code=code)
    sys.stdout.flush()
    sys.stderr.flush()
    return code


if __name__ == "__main__":
    # Leave without the interpreter's teardown, after every record is written: torch 2.13 can
    # abort a process there. Each backward stashes a Python object in thread-local state that
    # DDP's all-reduce works capture; when gloo's worker thread frees the last finished work
    # during the teardown, it must take the GIL, CPython ends the thread inside a C++ destructor
    # and the process gets SIGABRT ("terminate called without an active exception"). That is
    # the runtime's fault, not the learner's.
    code = main()
    os._exit(code)
