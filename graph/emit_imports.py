import contextlib
import copy
import math
import os

import torch
import torch.nn.functional as F

DEVICE = os.environ.get("PT2FUZZ_DEVICE") or ("cuda" if torch.cuda.is_available() else "cpu")
