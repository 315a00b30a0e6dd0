def as_inference(x):
    """x's values and layout (shape, strides, storage offset) in an inference tensor, one made
    under torch.inference_mode (mode.inference_inputs)."""
    with torch.inference_mode():
        return torch.empty(0, dtype=x.dtype, device=x.device).set_(
            x.untyped_storage().clone(), x.storage_offset(), x.shape, x.stride())
