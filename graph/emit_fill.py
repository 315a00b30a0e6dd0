def fill(shape, dtype, kind, lo, hi, gen):
    """Seeded tensor contents: normal, positive, integers in [lo, hi], distinct integers,
    the constant lo / 1000, or normal values with specials mixed in; complex values take two
    draws of the kind, the real parts then the imaginary ones."""
    if dtype.is_complex:
        parts = [fill(shape, torch.float64, kind, lo, hi, gen) for _ in range(2)]
        return torch.complex(*parts).to(dtype)
    if kind == "normal":
        return torch.randn(shape, generator=gen).to(dtype)
    if kind == "positive":
        return (torch.rand(shape, generator=gen) + 0.5).to(dtype)
    if kind == "const":
        return torch.full(shape, lo / 1000, dtype=torch.float64).to(dtype)
    if kind == "special":
        return special(shape, gen).to(dtype)
    if kind == "perm":
        n = 1
        for s in shape:
            n *= s
        return torch.randperm(hi + 1, generator=gen)[:n].reshape(shape).to(dtype)
    return torch.randint(lo, hi + 1, shape, generator=gen).to(dtype)


def lay_out(shape, dtype, kind, lo, hi, layout, gen, device):
    """A graph input: its values drawn on the CPU (so they do not depend on the device), then laid
    out in memory on the device: the same values in another layout. Layout number is a Python
    number, the drawn 0-dim tensor's value."""
    if layout == "number":
        return fill(shape, dtype, kind, lo, hi, gen).item()
    if layout == "expanded":  # dim 0 from size 1: stride 0, equal rows
        return fill((1,) + tuple(shape[1:]), dtype, kind, lo, hi, gen).to(device).expand(shape)
    t = fill(shape, dtype, kind, lo, hi, gen).to(device)
    if layout == "channels_last":
        return t.contiguous(memory_format=torch.channels_last)
    if layout == "channels_last_3d":
        return t.contiguous(memory_format=torch.channels_last_3d)
    if layout == "transposed":
        return t.transpose(-1, -2).contiguous().transpose(-1, -2)
    if layout == "permuted":
        rev = tuple(range(t.dim() - 1, -1, -1))
        return t.permute(rev).contiguous().permute(rev)
    if layout == "offset":  # storage offset 3: a misaligned data pointer
        flat = torch.empty(t.numel() + 3, dtype=t.dtype, device=device)
        flat[3:].copy_(t.reshape(-1))
        return flat[3:].view(t.shape)
    if layout == "strided":  # every other element of the last dim
        buf = torch.zeros(tuple(shape[:-1]) + (2 * shape[-1],), dtype=t.dtype, device=device)
        buf[..., ::2] = t
        return buf[..., ::2]
    return t
