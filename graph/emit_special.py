def special(shape, gen):
    """A special fill: normal float64 draws, and at about 30% of the places signed zeros, infinities,
    NaN, float32 denormals, huge or tiny numbers."""
    values = torch.tensor((0.0, -0.0, math.inf, -math.inf, math.nan, 1e-40, -1e-45, 3e38, -3e38, 1e-30, 65504.0, -1.0, 1.0), dtype=torch.float64)
    pick = torch.randint(0, len(values), shape, generator=gen)
    use = torch.rand(shape, generator=gen) < 0.3
    return torch.where(use, values[pick], torch.randn(shape, generator=gen, dtype=torch.float64))
