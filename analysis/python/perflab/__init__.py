"""perflab from Python: run scenarios into pandas DataFrames, summarise and fit them, and poke at the
bound C++ models (perflab.models). The C++ core is the _perflab extension built into build/python/."""

import sys

import _perflab
from _perflab import models

sys.modules[__name__ + ".models"] = models

__all__ = ["models"]
