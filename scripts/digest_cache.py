"""Imported first by the scripts that run numba kernels: numba's cache goes to the code digest's folder, as
under the ``analyzer`` command (``analyzer.experiments.code_digest.use_digest_cache``), so a kernel that
inlines an edited module is compiled anew instead of loaded from the old machine code."""

from analyzer.experiments.code_digest import use_digest_cache

use_digest_cache()
