def special(shape, gen):  # a special fill: normal draws, and at about 30% of places +-0, +-inf, NaN, denormals, huge or tiny
    values = torch.tensor((0.0, -0.0, math.inf, -math.inf, math.nan, 1e-40, -1e-45, 3e38, -3e38, 1e-30, 65504.0, -1.0, 1.0), dtype=torch.float64)
    pick, use = torch.randint(0, len(values), shape, generator=gen), torch.rand(shape, generator=gen) < 0.3
    return torch.where(use, values[pick], torch.randn(shape, generator=gen, dtype=torch.float64))
