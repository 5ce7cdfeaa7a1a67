"""Nothing imports this module: what it registers may never happen."""

import torch

torch.library.register_kernel("aten::sinh", "casedev", lambda x: x)
