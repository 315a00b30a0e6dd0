def fill(shape, dtype, kind, lo, hi, gen):
    """Seeded tensor contents: normal, positive, integers in [lo, hi], or distinct integers."""
    if kind == "normal":
        return torch.randn(shape, generator=gen).to(dtype)
    if kind == "positive":
        return (torch.rand(shape, generator=gen) + 0.5).to(dtype)
    if kind == "perm":
        n = 1
        for s in shape:
            n *= s
        return torch.randperm(hi + 1, generator=gen)[:n].reshape(shape).to(dtype)
    return torch.randint(lo, hi + 1, shape, generator=gen).to(dtype)
