class Upcast(torch.overrides.TorchFunctionMode):  # the fp64 reference: the model's float16/bfloat16 casts, and floats it makes from integers, in float64; REFERENCE's calls by their definitions
    def __torch_function__(self, func, types, args=(), kwargs=None):
        func = {torch.Tensor.half: torch.Tensor.double, torch.Tensor.bfloat16: torch.Tensor.double, **REFERENCE}.get(func, func)
        up = lambda a: torch.float64 if a in (torch.float16, torch.bfloat16) else a
        return func(*map(up, args), **{k: up(v) for k, v in (kwargs or {}).items()})
    def __enter__(self):  # what the model makes from integers: the default dtype
        torch.set_default_dtype(torch.float64)
        return super().__enter__()
    def __exit__(self, *exc):
        torch.set_default_dtype(torch.float32)
        return super().__exit__(*exc)
