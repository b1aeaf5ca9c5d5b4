"""The conditions of every transformers reference run: CPU, one thread, offline, quiet.

Imported first by the fixture scripts, before torch reads its environment.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("TQDM_DISABLE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
import transformers  # noqa: E402

torch.set_num_threads(1)
transformers.logging.set_verbosity_error()
