class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        gen = torch.Generator().manual_seed(SEED)
        torch.manual_seed(SEED)  # module initializers
