def nonfinite(t):  # each position as NaN (2), inf (1), -inf (-1) or finite (0); complex: each part
    t = (torch.view_as_real(t.resolve_conj()) if t.is_complex() else t).double()
    return torch.where(t.isnan(), 2.0, torch.where(t.isinf(), t.sign(), 0.0))
