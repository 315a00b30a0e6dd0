def fill(shape, dtype, kind, lo, hi, gen):
    """Seeded tensor contents: the kind's draw (FILLS) in the dtype it makes, then dtype; complex
    values take two draws of the kind, the real parts then the imaginary ones."""
    if dtype.is_complex:
        parts = [fill(shape, torch.float64, kind, lo, hi, gen) for _ in range(2)]
        return torch.complex(*parts).to(dtype)
    return FILLS[kind](shape, lo, hi, gen).to(dtype)


def lay_out(shape, dtype, kind, lo, hi, layout, gen, device):
    """A graph input: its values drawn on the CPU (so they do not depend on the device), with dim 0
    of size 1 for a layout of ONE_ROW, then laid out in memory on the device (LAYOUTS): the same
    values in another layout. Layout number is a Python number, the drawn 0-dim tensor's value."""
    drawn = (1,) + tuple(shape[1:]) if layout in ONE_ROW else shape
    return LAYOUTS[layout](fill(drawn, dtype, kind, lo, hi, gen).to(device), shape)
